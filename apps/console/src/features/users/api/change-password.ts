import type { ChangePasswordBody } from '@omnibot/contracts';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /v1/me/password (200 on success, 404 "No user is signed in.", else an error code). */
const changeOwnPassword = (body: ChangePasswordBody) =>
  api.post<{ code: number; message: string }>('/v1/me/password', body);

export const useChangeOwnPassword = () => useMutation({ mutationFn: changeOwnPassword });
