import type { ChangePasswordBody } from '@omnibot/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** Changes the signed-in user's password (200, 404 "No user is signed in.", else an error code). */
const changePassword = (body: ChangePasswordBody) =>
  api.post<{ code: number; message: string }>('/v1/me/password', body);

export const useChangePassword = () => useMutation({ mutationFn: changePassword });
