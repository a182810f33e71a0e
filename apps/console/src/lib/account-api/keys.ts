import type { UserListQuery } from '@omnibot/contracts';

/**
 * Query keys of the account service, one tree under `accountKeys.all`: a key's prefixes are the lists it belongs
 * to, so invalidating `subscriptionLists()` refreshes every tenant's subscriptions and each single one.
 */
export const accountKeys = {
  all: ['account'] as const,
  details: () => [...accountKeys.all, 'detail'] as const,
  detail: (tenantId: string) => [...accountKeys.details(), tenantId] as const,
  childLists: () => [...accountKeys.all, 'children'] as const,
  children: (tenantId: string) => [...accountKeys.childLists(), tenantId] as const,
  recordLists: () => [...accountKeys.all, 'records'] as const,
  records: (tenantId: string, tenantType: string) =>
    [...accountKeys.recordLists(), tenantId, tenantType] as const,
  reachable: (tenantId: string) => [...accountKeys.all, 'reachable', tenantId] as const,
  subscriptionLists: () => [...accountKeys.all, 'subscriptions'] as const,
  subscriptions: (tenantId: string) => [...accountKeys.subscriptionLists(), tenantId] as const,
  subscription: (tenantId: string, id: string) => [...accountKeys.subscriptions(tenantId), id] as const,
  credential: (tenantId: string) => [...accountKeys.all, 'credential', tenantId] as const,
  usersOf: (tenantId: string) => [...accountKeys.all, 'users', tenantId] as const,
  userLists: (tenantId: string) => [...accountKeys.usersOf(tenantId), 'list'] as const,
  users: (tenantId: string, query: UserListQuery) => [...accountKeys.userLists(tenantId), query] as const,
  user: (tenantId: string, userId: string) => [...accountKeys.usersOf(tenantId), 'detail', userId] as const,
  me: () => [...accountKeys.all, 'me'] as const,
};
