import { useMutation } from '@tanstack/react-query';
import { paths } from '../../../config/paths';
import { api } from '../../../lib/api-client';

/** Where the verification link lands: the login page, which then says the address is verified. */
export const VERIFICATION_CALLBACK = `${paths.login}?verified=1`;

const sendVerificationEmail = (email: string) =>
  api.post<{ status: true }>('/api/auth/send-verification-email', {
    email,
    callbackURL: VERIFICATION_CALLBACK,
  });

export const useSendVerificationEmail = () => useMutation({ mutationFn: sendVerificationEmail });
