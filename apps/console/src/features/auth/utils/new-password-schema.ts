import { RegisterBodySchema } from '@omnibot/contracts';
import { z } from 'zod';

/** A new password and its confirmation; the password rule is registration's (at least 10 characters). */
export const NewPasswordFormSchema = z
  .object({ newPassword: RegisterBodySchema.shape.password, confirmPassword: z.string() })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The passwords do not match',
  });
export type NewPasswordForm = z.infer<typeof NewPasswordFormSchema>;
