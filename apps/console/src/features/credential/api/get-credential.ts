import { queryOptions, useQuery } from '@tanstack/react-query';
import { getCredentialStatus } from '../../../lib/account-api';

export const credentialQueryKey = (tenantId: string) => ['credential', tenantId] as const;

/** GET /v1/Account/{tenant_id}/credential: `{ code: 200, key, secret: "****" + last 4 }` or `{ code: 404 }`. */
export const getCredentialQueryOptions = (tenantId: string) =>
  queryOptions({
    queryKey: credentialQueryKey(tenantId),
    queryFn: ({ signal }) => getCredentialStatus(tenantId, signal),
  });

export const useCredential = (tenantId: string) => useQuery(getCredentialQueryOptions(tenantId));
