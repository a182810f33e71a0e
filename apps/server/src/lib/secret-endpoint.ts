import {
  isSameSecretEndpoint,
  SECRET_ENDPOINT_CHANGED,
  secretEndpointChangedMessage,
} from '@omnibot/contracts';
import { badRequest } from './errors';

/**
 * Refuses to keep a stored secret when its address moved to another endpoint (scheme, host, port or path): a key
 * entered for one server is never sent to another unless it is entered again.
 */
export function assertSecretStaysWithEndpoint(
  before: string,
  after: string,
  names: { what?: string; where?: string } = {},
): void {
  if (!isSameSecretEndpoint(before, after)) {
    throw badRequest(secretEndpointChangedMessage(names.what, names.where), SECRET_ENDPOINT_CHANGED);
  }
}
