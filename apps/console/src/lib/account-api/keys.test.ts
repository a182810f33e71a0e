import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { accountKeys } from './keys';

const QUERY = { page: 1, page_size: 20, sort: 'email', order: 'asc' } as const;

/** The keys in the cache that invalidating `prefix` marks stale. */
function staleAfterInvalidating(prefix: readonly unknown[], keys: ReadonlyArray<readonly unknown[]>) {
  const client = new QueryClient();
  for (const key of keys) client.setQueryData(key, 'cached');
  void client.invalidateQueries({ queryKey: prefix, refetchType: 'none' });
  return client
    .getQueryCache()
    .findAll({ stale: true })
    .map((query) => query.queryKey);
}

describe('accountKeys', () => {
  it('refreshes every subscription list and each single subscription, and nothing else, from one prefix', () => {
    const stale = staleAfterInvalidating(accountKeys.subscriptionLists(), [
      accountKeys.subscriptions('a'),
      accountKeys.subscription('a', 's1'),
      accountKeys.subscriptions('b'),
      accountKeys.detail('a'),
      accountKeys.children('a'),
      accountKeys.credential('a'),
    ]);
    expect(stale).toEqual([
      accountKeys.subscriptions('a'),
      accountKeys.subscription('a', 's1'),
      accountKeys.subscriptions('b'),
    ]);
  });

  it("refreshes a tenant's user pages but keeps its single users and other tenants' pages", () => {
    const stale = staleAfterInvalidating(accountKeys.userLists('a'), [
      accountKeys.users('a', QUERY),
      accountKeys.users('a', { ...QUERY, page: 2 }),
      accountKeys.user('a', 'u1'),
      accountKeys.users('b', QUERY),
      accountKeys.me(),
    ]);
    expect(stale).toEqual([accountKeys.users('a', QUERY), accountKeys.users('a', { ...QUERY, page: 2 })]);
  });

  it('keeps children, records and details apart', () => {
    const keys = [accountKeys.children('a'), accountKeys.records('a', '2'), accountKeys.detail('a')];
    expect(staleAfterInvalidating(accountKeys.childLists(), keys)).toEqual([accountKeys.children('a')]);
    expect(staleAfterInvalidating(accountKeys.recordLists(), keys)).toEqual([accountKeys.records('a', '2')]);
  });
});
