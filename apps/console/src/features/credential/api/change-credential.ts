import { CredentialSecretSchema, type CredentialSecret } from '@omnibot/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { accountApi, accountKeys, accountPath } from '../../../lib/account-api';

/** The four credential changes: create (POST credential), reset (PUT credential), new key, new secret. */
export type CredentialChange = 'create' | 'reset' | 'key' | 'secret';

const CALLS: Record<CredentialChange, { method: 'post' | 'put'; segment: string }> = {
  create: { method: 'post', segment: 'credential' },
  reset: { method: 'put', segment: 'credential' },
  key: { method: 'put', segment: 'key' },
  secret: { method: 'put', segment: 'secret' },
};

/** True when the change answers with a new secret in full (shown once); a new key keeps the secret. */
export const revealsSecret = (change: CredentialChange) => change !== 'key';

/** Sends one credential change (no body); the answer holds the new key and, except for `key`, the new secret. */
function changeCredential(tenantId: string, change: CredentialChange): Promise<CredentialSecret> {
  const { method, segment } = CALLS[change];
  return accountApi[method](accountPath(tenantId, segment), undefined, { schema: CredentialSecretSchema });
}

/**
 * A credential change. The full secret stays in the mutation's answer only (never in the query cache): the
 * credential query is refetched and shows the masked secret, as every later read does.
 */
export function useChangeCredential(tenantId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: CredentialChange) => changeCredential(tenantId, change),
    // Nothing keeps the answer (and its secret) once no screen shows it.
    gcTime: 0,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountKeys.credential(tenantId) }),
  });
}
