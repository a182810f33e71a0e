import type { Profile } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { getUser } from './get-user';

const SessionIdsSchema = z.object({ user_id: z.string(), tenant_id: z.string() });

export const CURRENT_USER_QUERY_KEY = ['users', 'me'] as const;

/** The signed-in user's own profile: who is signed in (GET /v1/session), then their account-service record. */
export async function getCurrentUser(signal?: AbortSignal): Promise<Profile> {
  const { user_id, tenant_id } = await api.get('/v1/session', { schema: SessionIdsSchema, signal });
  const profile = await getUser(tenant_id, user_id, signal);
  if (!profile) throw new Error('your profile was not found. Sign in again.');
  return profile;
}

export const getCurrentUserQueryOptions = () =>
  queryOptions({ queryKey: CURRENT_USER_QUERY_KEY, queryFn: ({ signal }) => getCurrentUser(signal) });

export const useCurrentUser = () => useQuery(getCurrentUserQueryOptions());
