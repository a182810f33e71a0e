import { z } from 'zod';

/** Every error response body. */
export const ErrorBodySchema = z.object({ code: z.string(), message: z.string() });
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** 409: an invitation to an address whose domain belongs to an organisation outside the inviter's subtree. */
export const EMAIL_DOMAIN_TAKEN = {
  code: 'domain_taken',
  message: 'This e-mail domain belongs to another organisation.',
} as const;
