import {
  CredentialSecretSchema,
  CredentialStatusSchema,
  EmptyBodySchema,
  NoQuerySchema,
} from '@omnibot/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { actorOf } from '../../lib/audit';
import { principalOf } from '../../lib/principal';
import { maskSecret } from './accounts.presenter';
import { changeCredential, type CredentialChange, readCredential } from './credentials.service';
import { type AccountRouteOptions, TAGS, TenantParamsSchema } from './route-kit';

const CHANGES: Array<{ method: 'POST' | 'PUT'; path: string; change: CredentialChange; summary: string }> = [
  {
    method: 'POST',
    path: 'credential',
    change: 'create',
    summary: 'Create the API credential (secret shown once)',
  },
  {
    method: 'PUT',
    path: 'credential',
    change: 'reset',
    summary: 'Reset the credential: new key and secret (shown once)',
  },
  { method: 'POST', path: 'key', change: 'key', summary: 'Regenerate the key (the secret stays)' },
  { method: 'PUT', path: 'key', change: 'key', summary: 'Regenerate the key (the secret stays)' },
  { method: 'POST', path: 'secret', change: 'secret', summary: 'Regenerate the secret (shown once)' },
  { method: 'PUT', path: 'secret', change: 'secret', summary: 'Regenerate the secret (shown once)' },
];

export const credentialRoutes: FastifyPluginAsyncZod<AccountRouteOptions> = async (app, { ctx, guard }) => {
  const { db } = ctx;

  app.get(
    '/v1/Account/:tenant_id/credential',
    {
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary: "The tenant's API credential, secret masked",
        params: TenantParamsSchema,
        querystring: NoQuerySchema,
        response: { 200: CredentialStatusSchema },
      },
    },
    async (request) => {
      const credential = await readCredential(db, principalOf(request), request.params.tenant_id);
      if (!credential) return { code: 404 as const, message: 'No credential' };
      return { code: 200 as const, key: credential.key, secret: maskSecret(credential.secretLast4) };
    },
  );

  for (const { method, path, change, summary } of CHANGES) {
    const status = change === 'create' ? 201 : 200;
    app.route({
      method,
      url: `/v1/Account/:tenant_id/${path}`,
      onRequest: guard,
      schema: {
        tags: TAGS,
        summary,
        params: TenantParamsSchema,
        querystring: NoQuerySchema,
        body: EmptyBodySchema,
        response: { [status]: CredentialSecretSchema },
      },
      handler: async (request, reply) => {
        const { row, secret } = await changeCredential(
          ctx,
          actorOf(request),
          request.params.tenant_id,
          change,
        );
        return reply.status(status).send({
          code: status,
          key: row.key,
          secret: secret ?? maskSecret(row.secretLast4),
        });
      },
    });
  }
};
