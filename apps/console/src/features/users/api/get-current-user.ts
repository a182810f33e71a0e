import { type Profile, SessionAnswerSchema } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountKeys, getUser } from '../../../lib/account-api';
import { api } from '../../../lib/api-client';

/** The signed-in user's own profile: who is signed in (GET /v1/session), then their account-service record. */
async function getCurrentUser(signal?: AbortSignal): Promise<Profile> {
  const session = await api.get('/v1/session', { schema: SessionAnswerSchema, signal });
  if (!session) throw new Error('your session has ended. Sign in again.');
  const { user_id, tenant_id } = session;
  const profile = await getUser(tenant_id, user_id, signal);
  if (!profile) throw new Error('your profile was not found. Sign in again.');
  return profile;
}

const getCurrentUserQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.me(), queryFn: ({ signal }) => getCurrentUser(signal) });

export const useCurrentUser = () => useQuery(getCurrentUserQueryOptions());
