import { AUTH_ERROR_CODES, ChangePasswordBodySchema, RegisterBodySchema } from '@omnibot/contracts';
import { z } from 'zod';
import { errorCode, errorMessage } from '../../../lib/error-message';

/** Current password, a new one (the registration rule: at least 10 characters) and its confirmation. */
export const PasswordChangeFormSchema = z
  .object({
    currentPassword: z
      .string()
      .min(1, 'Enter your current password')
      .pipe(ChangePasswordBodySchema.shape.currentPassword),
    newPassword: RegisterBodySchema.shape.password,
    confirmPassword: z.string(),
  })
  .refine((values) => values.newPassword === values.confirmPassword, {
    path: ['confirmPassword'],
    message: 'The passwords do not match',
  })
  .refine((values) => values.newPassword !== values.currentPassword || values.newPassword === '', {
    path: ['newPassword'],
    message: 'Choose a password different from the current one',
  });
export type PasswordChangeForm = z.infer<typeof PasswordChangeFormSchema>;

/** Answers that belong to one field are shown on it too. */
export const PASSWORD_FIELD_OF: Partial<Record<string, keyof PasswordChangeForm>> = {
  [AUTH_ERROR_CODES.wrongCurrentPassword]: 'currentPassword',
  [AUTH_ERROR_CODES.weakPassword]: 'newPassword',
};

/** 404 means "No user is signed in."; any other failure shows its code with the message. */
export function passwordChangeFailure(error: unknown): string {
  const code = errorCode(error);
  if (code === AUTH_ERROR_CODES.noCurrentUser) return errorMessage(error);
  return code ? `${errorMessage(error)} (${code})` : errorMessage(error);
}
