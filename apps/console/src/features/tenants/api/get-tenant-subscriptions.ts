import { useQuery } from '@tanstack/react-query';
import { subscriptionsQueryOptions } from '../../../lib/account-api';

/** Shared with the subscription screens' key, so assigning a code refreshes what this screen shows. */
export const useTenantSubscriptions = (tenantId: string, enabled = true) =>
  useQuery({ ...subscriptionsQueryOptions(tenantId), enabled: enabled && tenantId !== '' });
