import type { Profile } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { accountKeys, getUser } from '../../../lib/account-api';
import { api } from '../../../lib/api-client';

const SessionIdsSchema = z.object({ user_id: z.string(), tenant_id: z.string() });

/** The signed-in user's own profile: who is signed in (GET /v1/session), then their account-service record. */
export async function getCurrentUser(signal?: AbortSignal): Promise<Profile> {
  const { user_id, tenant_id } = await api.get('/v1/session', { schema: SessionIdsSchema, signal });
  const profile = await getUser(tenant_id, user_id, signal);
  if (!profile) throw new Error('your profile was not found. Sign in again.');
  return profile;
}

export const getCurrentUserQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.me(), queryFn: ({ signal }) => getCurrentUser(signal) });

export const useCurrentUser = () => useQuery(getCurrentUserQueryOptions());
