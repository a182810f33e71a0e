import {
  isCodeItem,
  ProfileLookupSchema,
  SubscriptionLookupSchema,
  UserListSchema,
  type Account,
  type Profile,
  type Subscription,
  type UserListQuery,
} from '@omnibot/contracts';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  accountApi,
  accountPath,
  getAccountLookup,
  getChildAccountList,
  getCredentialStatus,
  getSubscriptionList,
} from './client';
import { accountKeys } from './keys';

/** GET /v1/Account/{tenant_id}: the first item of the list, or null when it carries a code (not found). */
export async function getAccount(tenantId: string, signal?: AbortSignal): Promise<Account | null> {
  const [first] = await getAccountLookup(tenantId, signal);
  return first && !isCodeItem(first) ? first : null;
}

/** A tenant's children; none for `{ code: 404 }`. */
export async function getChildAccounts(tenantId: string, signal?: AbortSignal): Promise<Account[]> {
  const list = await getChildAccountList(tenantId, signal);
  return list.code === 200 ? list.items : [];
}

/** A tenant's subscriptions, every status; none for `{ code: 404 }`. */
async function getSubscriptions(tenantId: string, signal?: AbortSignal): Promise<Subscription[]> {
  const list = await getSubscriptionList(tenantId, signal);
  return list.code === 200 ? list.items : [];
}

/** GET /v1/Account/{tenant_id}/Subscription/{id}: the subscription, or null for `{ code: 404 }`. */
async function getSubscription(
  tenantId: string,
  id: string,
  signal?: AbortSignal,
): Promise<Subscription | null> {
  const found = await accountApi.get(accountPath(tenantId, 'Subscription', id), {
    schema: SubscriptionLookupSchema,
    signal,
  });
  return found.code === 200 ? found.subscription : null;
}

/** GET /v1/Account/{tenant}/User/{userId}?type=user_id: the user, or null when the list's item carries a code. */
export async function getUser(
  tenantId: string,
  userId: string,
  signal?: AbortSignal,
): Promise<Profile | null> {
  const [first] = await accountApi.get(accountPath(tenantId, 'User', userId), {
    query: { type: 'user_id' },
    schema: ProfileLookupSchema,
    signal,
  });
  return first && !isCodeItem(first) ? first : null;
}

/** One page of a tenant's users, searched and sorted on the server. */
const getUsers = (tenantId: string, query: UserListQuery, signal?: AbortSignal) =>
  accountApi.get(accountPath(tenantId, 'User'), {
    query: { ...query, q: query.q || undefined },
    schema: UserListSchema,
    signal,
  });

export const accountQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: accountKeys.detail(tenantId),
    queryFn: ({ signal }) => getAccount(tenantId, signal),
  });

export const childAccountsQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: accountKeys.children(tenantId),
    queryFn: ({ signal }) => getChildAccounts(tenantId, signal),
  });

export const subscriptionsQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: accountKeys.subscriptions(tenantId),
    queryFn: ({ signal }) => getSubscriptions(tenantId, signal),
  });

export const subscriptionQueryOptions = (tenantId: string, id: string) =>
  queryOptions({
    queryKey: accountKeys.subscription(tenantId, id),
    queryFn: ({ signal }) => getSubscription(tenantId, id, signal),
  });

/** `{ code: 200, key, secret: "****" + last 4 }` or `{ code: 404 }`. */
export const credentialQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: accountKeys.credential(tenantId),
    queryFn: ({ signal }) => getCredentialStatus(tenantId, signal),
  });

export const userQueryOptions = (tenantId: string, userId: string) =>
  queryOptions({
    queryKey: accountKeys.user(tenantId, userId),
    queryFn: ({ signal }) => getUser(tenantId, userId, signal),
  });

export const usersQueryOptions = (tenantId: string, query: UserListQuery) =>
  queryOptions({
    queryKey: accountKeys.users(tenantId, query),
    queryFn: ({ signal }) => getUsers(tenantId, query, signal),
    // The table keeps the current page on screen while the next one loads.
    placeholderData: keepPreviousData,
  });
