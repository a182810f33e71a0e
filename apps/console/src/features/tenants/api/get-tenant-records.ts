import type { Account } from '@omnibot/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { accountKeys, getAccount, getChildAccountList } from '../../../lib/account-api';
import { ApiError } from '../../../lib/api-client';
import { tenantRecordCalls, tenantRecords, type TenantListOutcome } from '../utils/tenant-records';

/** The list call as the type rules see it: a server error reports 500; anything else still throws. */
async function listOutcome(tenantId: string, signal?: AbortSignal): Promise<TenantListOutcome> {
  try {
    const list = await getChildAccountList(tenantId, signal);
    return list.code === 200 ? list : { code: 404 };
  } catch (error) {
    if (error instanceof ApiError && error.status >= 500) return { code: 500 };
    throw error;
  }
}

/**
 * The records the Client Org. screen lists for the signed-in tenant, loaded per the tenant type rules
 * (tenantRecords). For type "1" a failing list call is an error to show, not an empty list.
 */
export async function getTenantRecords(
  tenantId: string,
  tenantType: string,
  signal?: AbortSignal,
): Promise<Account[]> {
  const calls = tenantRecordCalls(tenantType);
  const [single, list] = await Promise.all([
    calls.single ? getAccount(tenantId, signal) : Promise.resolve(null),
    calls.list ? listOutcome(tenantId, signal) : Promise.resolve(null),
  ]);
  if (tenantType === '1' && list?.code === 500) {
    throw new ApiError(500, 'http_error', 'The client organisations could not be loaded.');
  }
  return tenantRecords(tenantType, single, list);
}

const getTenantRecordsQueryOptions = (tenantId: string, tenantType: string) =>
  queryOptions({
    queryKey: accountKeys.records(tenantId, tenantType),
    queryFn: ({ signal }) => getTenantRecords(tenantId, tenantType, signal),
  });

export const useTenantRecords = (tenantId: string, tenantType: string) =>
  useQuery(getTenantRecordsQueryOptions(tenantId, tenantType));
