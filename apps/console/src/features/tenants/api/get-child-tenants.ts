import { useQuery } from '@tanstack/react-query';
import { childAccountsQueryOptions } from '../../../lib/account-api';

export const useChildTenants = (tenantId: string, enabled = true) =>
  useQuery({ ...childAccountsQueryOptions(tenantId), enabled: enabled && tenantId !== '' });
