import { z } from 'zod';

/** Every error response body. */
export const ErrorBodySchema = z.object({ code: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;
