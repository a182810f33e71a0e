import { useQuery } from '@tanstack/react-query';
import { credentialQueryOptions } from '../../../lib/account-api';

export const useCredential = (tenantId: string) => useQuery(credentialQueryOptions(tenantId));
