import { z } from 'zod';
import {
  MASK_PATTERN_NAME_MAX,
  MASK_PRESET_IDS,
  MASK_PRESETS,
  presetOf,
  regexSafetyProblem,
} from './mask-text';
import { safeString } from './text';

export * from './mask-text';

/**
 * A pattern of the masking list: a named, safe regular expression, or a preset (`preset` given, or the preset's own
 * expression repeated), whose expression is always the product's and not checked as a tenant's would be.
 */
export const MaskPatternSchema = z
  .object({
    name: safeString()
      .trim()
      .min(1, 'A mask pattern needs a name.')
      .max(MASK_PATTERN_NAME_MAX, `A mask pattern name has at most ${MASK_PATTERN_NAME_MAX} characters.`),
    regExpression: safeString().default(''),
    preset: z.enum(MASK_PRESET_IDS, `A mask preset is one of: ${MASK_PRESET_IDS.join(', ')}.`).optional(),
  })
  .superRefine((pattern, ctx) => {
    if (presetOf(pattern) !== null) return;
    const problem = regexSafetyProblem(pattern.regExpression);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['regExpression'], message: problem });
  })
  .transform((pattern) => {
    const preset = presetOf(pattern);
    return preset === null
      ? { name: pattern.name, regExpression: pattern.regExpression }
      : { name: pattern.name, regExpression: MASK_PRESETS[preset.id].regExpression, preset: preset.id };
  });
