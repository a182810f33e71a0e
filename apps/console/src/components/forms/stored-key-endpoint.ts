import { isSameSecretEndpoint, secretEndpointChangedMessage } from '@omnibot/contracts';
import type { KeyAction } from './stored-key-field';

/**
 * Why a stored key cannot be kept, or null: the server sends a kept key only to the endpoint it was entered for,
 * so a new URL (scheme, host, port or path) needs the key entered again or removed.
 */
export function keptKeyEndpointError(input: {
  action: KeyAction;
  hasStoredKey: boolean;
  storedUrl: string;
  url: string;
}): string | null {
  if (input.action !== 'keep' || !input.hasStoredKey) return null;
  return isSameSecretEndpoint(input.storedUrl, input.url) ? null : secretEndpointChangedMessage();
}
