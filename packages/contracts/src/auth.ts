import { z } from 'zod';
import { safeString } from './text';

/** The user-facing messages, word for word as users see them. */
export const AUTH_MESSAGES = {
  userDisabled: "The user is disabled and can't sign in",
  invalidEmail: 'The email is not valid',
  wrongCredentials: 'Email or Password not correct. Please try again',
  userNotFound: 'User does not exist',
  internal: 'Internal Server Error',
  domainNotAllowed: 'Email domain not allowed. Please verify your email.',
  emailInUse: 'The email is already in use',
  weakPassword: 'Weak Password. Please use a strong password',
  registrationSuccess: 'Registration Successfull!!',
  resetSuccess: 'Password reset email successfull',
  resetUserNotFound: 'User corresponding to the email address not found.',
  missingContinueUri: 'A continue URL must be provided in the request.',
  invalidContinueUri: 'The continue URL provided in the request is invalid.',
  unauthorizedContinueUri: 'The domain of the continue URL is not allowed.',
  noCurrentUser: 'No user is signed in.',
  emailNotVerified: 'Your email is not verified yet. Check your inbox or send the verification email again.',
  invalidResetToken: 'This password reset link has expired or was already used. Ask for a new one.',
  tooManyRequests: 'Too many attempts. Please wait and try again later.',
  wrongCurrentPassword: 'The current password is not correct.',
  passwordChangeRequired: 'You must set a new password before continuing.',
  noActiveSubscription: 'Your organisation has no active subscription. Contact your administrator.',
} as const;

/** Stable error codes the server answers with, in the `{ code, message }` error body. */
export const AUTH_ERROR_CODES = {
  userDisabled: 'auth/user-disabled',
  invalidEmail: 'auth/invalid-email',
  wrongCredentials: 'auth/invalid-credential',
  domainNotAllowed: 'auth/unauthorized-domain',
  emailInUse: 'auth/email-already-in-use',
  weakPassword: 'auth/weak-password',
  missingContinueUri: 'auth/missing-continue-uri',
  invalidContinueUri: 'auth/invalid-continue-uri',
  unauthorizedContinueUri: 'auth/unauthorized-continue-uri',
  noCurrentUser: 'auth/no-current-user',
  emailNotVerified: 'auth/email-not-verified',
  invalidResetToken: 'auth/invalid-action-code',
  tooManyRequests: 'auth/too-many-requests',
  wrongCurrentPassword: 'auth/wrong-password',
  passwordChangeRequired: 'auth/password-change-required',
  noActiveSubscription: 'auth/no-active-subscription',
  internal: 'auth/internal-error',
} as const;

export const PASSWORD_MIN_LENGTH = 10;
/** zxcvbn-ts score (0-4) a password needs. */
export const PASSWORD_MIN_SCORE = 3;

export const EmailSchema = z.email({ message: AUTH_MESSAGES.invalidEmail }).max(254);

export const SignInBodySchema = z.object({
  email: EmailSchema,
  password: safeString().min(1, 'Enter your password').max(256),
});
export type SignInBody = z.infer<typeof SignInBodySchema>;

export const RegisterBodySchema = z.object({
  email: EmailSchema,
  password: safeString().min(PASSWORD_MIN_LENGTH, `Use at least ${PASSWORD_MIN_LENGTH} characters`).max(128),
  name: safeString().trim().min(1, 'Enter your name').max(120),
});
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const ChangePasswordBodySchema = z.object({
  currentPassword: safeString().min(1).max(256),
  newPassword: safeString().min(PASSWORD_MIN_LENGTH).max(128),
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

/** The domain part of an e-mail address, lower-cased. */
export function emailDomain(email: string): string {
  return email.slice(email.lastIndexOf('@') + 1).toLowerCase();
}

/** The signed-in user and their tenant, as GET /v1/session answers it. */
const SessionUserSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  tenant_id: z.string(),
  role: z.string(),
  must_change_password: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/**
 * GET /v1/session: the signed-in user, or null for a caller without a session. Asking who is signed in is not an
 * error, so a signed-out visit answers 200 and leaves nothing in the browser's console.
 */
export const SessionAnswerSchema = SessionUserSchema.nullable();
