import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Sets a new password with the token of the reset mail; the user's other sessions end. */
const resetPassword = (body: { token: string; newPassword: string }) =>
  api.post<{ status: true }>('/api/auth/reset-password', body);

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
