import { useQuery } from '@tanstack/react-query';
import { accountQueryOptions } from '../../../lib/account-api';

/** The same key (and value) as every other screen's account read, so a change shows everywhere. */
export const useTenant = (tenantId: string, enabled = true) =>
  useQuery({ ...accountQueryOptions(tenantId), enabled: enabled && tenantId !== '' });
