import type { RegisterBody } from '@omnibot/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { VERIFICATION_CALLBACK } from './send-verification-email';

/** Registers; the server sends the verification mail and sets the display name. */
const signUp = (body: RegisterBody) =>
  api.post<{ status: true; message: string }>('/api/auth/sign-up/email', {
    ...body,
    callbackURL: VERIFICATION_CALLBACK,
  });

export const useSignUp = () => useMutation({ mutationFn: signUp });
