import { APP_ID_HEADER, TenantIdSchema } from '@omnibot/contracts';
import type { onRequestHookHandler } from 'fastify';
import { z } from 'zod';
import { AppError } from '../../lib/errors';
import type { AccountsContext } from './accounts.service';

export const TenantParamsSchema = z.object({ tenant_id: TenantIdSchema });
export const TAGS = ['account service'];

/** What every account-service route plugin gets: the services' context and the shared onRequest guard. */
export interface AccountRouteOptions {
  ctx: AccountsContext;
  guard: onRequestHookHandler[];
}

/** Account-service calls carry an application identifier; it names the client, it authorises nothing. */
export function assertAppId(headers: Record<string, unknown>) {
  const value = headers[APP_ID_HEADER];
  if (typeof value !== 'string' || !/^[\w.-]{1,64}$/.test(value)) {
    throw new AppError(
      400,
      'invalid_argument',
      'The X-App-Id header is required (1-64 letters, digits, dots, dashes).',
    );
  }
}
