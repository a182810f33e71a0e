import { useMutation } from '@tanstack/react-query';
import { paths } from '../../../config/paths';
import { api } from '../../../lib/api-client';

/** Sends the reset mail; the answer is the same whether or not the address has an account. */
const requestPasswordReset = (email: string) =>
  api.post<{ status: true; message: string }>('/api/auth/request-password-reset', {
    email,
    // The server accepts only its own origin (and TRUSTED_ORIGINS) as the continue URL.
    redirectTo: `${window.location.origin}${paths.resetPassword}`,
  });

export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
