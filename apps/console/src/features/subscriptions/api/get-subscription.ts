import { useQuery } from '@tanstack/react-query';
import { subscriptionQueryOptions } from '../../../lib/account-api';

export const useSubscription = (tenantId: string, id: string) =>
  useQuery({ ...subscriptionQueryOptions(tenantId, id), enabled: tenantId !== '' && id !== '' });
