import {
  AccountListSchema,
  AccountLookupSchema,
  CredentialStatusSchema,
  ProfileLookupSchema,
  SubscriptionListSchema,
  type AccountList,
  type CredentialStatus,
  type SubscriptionList,
} from '@omnibot/contracts';
import type { z } from 'zod';
import { accountService } from '../account-service';

export type AccountLookup = z.infer<typeof AccountLookupSchema>;
export type ProfileLookup = z.infer<typeof ProfileLookupSchema>;

/** The account service's client: every call sends `X-App-Id: omnibot-console`. */
export const accountApi = accountService;

/**
 * `/v1/Account/{tenant_id}/...` with each segment URL-encoded, so an id or an e-mail can never change the path.
 * `accountPath()` alone is the collection, `/v1/Account`.
 */
export function accountPath(...segments: string[]): string {
  return ['/v1/Account', ...segments.map(encodeURIComponent)].join('/');
}

/** The reads several screens share: the start-up flow, the own account, a tenant's subscriptions. */
export const getAccountLookup = (tenantId: string, signal?: AbortSignal): Promise<AccountLookup> =>
  accountApi.get(accountPath(tenantId), { schema: AccountLookupSchema, signal });

export const getProfileByEmail = (
  tenantId: string,
  email: string,
  signal?: AbortSignal,
): Promise<ProfileLookup> =>
  accountApi.get(accountPath(tenantId, 'User', email), {
    query: { type: 'email' },
    schema: ProfileLookupSchema,
    signal,
  });

export const getCredentialStatus = (tenantId: string, signal?: AbortSignal): Promise<CredentialStatus> =>
  accountApi.get(accountPath(tenantId, 'credential'), { schema: CredentialStatusSchema, signal });

export const getSubscriptionList = (tenantId: string, signal?: AbortSignal): Promise<SubscriptionList> =>
  accountApi.get(accountPath(tenantId, 'Subscription'), { schema: SubscriptionListSchema, signal });

/** GET /v1/Account?tenant_id=: a tenant's children, `{ code: 404 }` when it has none (or none visible). */
export const getChildAccountList = (tenantId: string, signal?: AbortSignal): Promise<AccountList> =>
  accountApi.get(accountPath(), { query: { tenant_id: tenantId }, schema: AccountListSchema, signal });
