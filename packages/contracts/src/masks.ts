import { z } from 'zod';
import { MASK_PATTERN_NAME_MAX, regexSafetyProblem } from './mask-text';
import { safeString } from './text';

export * from './mask-text';

export const MaskPatternSchema = z.object({
  name: safeString()
    .trim()
    .min(1, 'A mask pattern needs a name.')
    .max(MASK_PATTERN_NAME_MAX, `A mask pattern name has at most ${MASK_PATTERN_NAME_MAX} characters.`),
  regExpression: safeString().superRefine((source, ctx) => {
    const problem = regexSafetyProblem(source);
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
  }),
});
