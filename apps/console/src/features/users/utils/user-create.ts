import { AUTH_ERROR_CODES, CreateUserBodySchema, RoleSchema, UserInfoInputSchema } from '@omnibot/contracts';
import { z } from 'zod';

const requiredName = (schema: z.ZodOptional<z.ZodString>, message: string) => schema.unwrap().min(1, message);

/** The invitation form: the contract's e-mail and role, plus first and last name (asked for, so mails greet them). */
export const UserCreateFormSchema = z.object({
  email: CreateUserBodySchema.shape.email,
  firstname: requiredName(UserInfoInputSchema.shape.firstname, 'Enter the first name'),
  lastname: requiredName(UserInfoInputSchema.shape.lastname, 'Enter the last name'),
  role: z.union([RoleSchema, z.literal('')]).refine((role) => role !== '', 'Pick a role'),
});
export type UserCreateValues = z.input<typeof UserCreateFormSchema>;

/** Answers that belong to one field are shown on it. */
export const CREATE_FIELD_OF: Partial<Record<string, keyof UserCreateValues>> = {
  [AUTH_ERROR_CODES.domainNotAllowed]: 'email',
  [AUTH_ERROR_CODES.emailInUse]: 'email',
  [AUTH_ERROR_CODES.invalidEmail]: 'email',
  role_not_allowed: 'role',
};
