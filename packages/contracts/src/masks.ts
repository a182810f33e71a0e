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
 * expression repeated, as older configurations store PIN and SSN). A preset is matched by the product's own
 * expression, so its `regExpression` is left empty or repeats that expression. No transform here: the server also
 * encodes its responses with these schemas.
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
    if (pattern.preset !== undefined) {
      const own = MASK_PRESETS[pattern.preset].regExpression;
      if (pattern.regExpression !== '' && pattern.regExpression !== own) {
        ctx.addIssue({
          code: 'custom',
          path: ['regExpression'],
          message: "A preset uses the product's own expression: leave its regular expression empty.",
        });
      }
      return;
    }
    if (presetOf(pattern) !== null) return;
    const problem = regexSafetyProblem(pattern.regExpression);
    if (problem !== null) ctx.addIssue({ code: 'custom', path: ['regExpression'], message: problem });
  });
