import { useQueries, useQuery } from '@tanstack/react-query';
import { subscriptionsQueryOptions } from '../../../lib/account-api';

export const useSubscriptions = (tenantId: string, enabled = true) =>
  useQuery({ ...subscriptionsQueryOptions(tenantId), enabled: enabled && tenantId !== '' });

/** The subscriptions of several tenants at once (the assignment matrix). */
export const useSubscriptionsOf = (tenantIds: readonly string[]) =>
  useQueries({ queries: tenantIds.map((tenantId) => subscriptionsQueryOptions(tenantId)) });
