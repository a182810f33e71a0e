import {
  CreatePromptBodySchema,
  ErrorBodySchema,
  NoQuerySchema,
  PromptIdParamsSchema,
  PromptListQuerySchema,
  PromptListSchema,
  PromptPreviewBodySchema,
  PromptPreviewSchema,
  PromptSchema,
  PromptVersionListSchema,
  PromptVersionParamsSchema,
  PromptVersionSchema,
  UpdatePromptBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireFeatureCaller } from '../auth/feature-guard';
import { actorOf } from '../../lib/audit';
import type { Identity } from '../auth/principal';
import {
  presentPrompt,
  presentPromptSummary,
  presentVersion,
  presentVersionSummary,
} from './prompts.presenter';
import {
  createPrompt,
  deletePrompt,
  getPrompt,
  getVersion,
  listPrompts,
  listVersions,
  previewPrompt,
  restoreVersion,
  updatePrompt,
} from './prompts.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
};
const tags = ['prompts'];

/** Versioned prompt templates under /v1/prompts, each tenant seeing only its own. */
export async function promptRoutes(app: FastifyInstance, deps: { identity: Identity }) {
  const { db } = deps.identity;
  const signedIn = requireFeatureCaller(deps.identity, 'omnirag');

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/prompts',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "The organisation's prompts, by name; `q` searches name and description",
          querystring: PromptListQuerySchema,
          response: { 200: PromptListSchema, ...errors },
        },
      },
      async (request) => {
        const { rows, total } = await listPrompts(db, actorOf(request).principal, request.query);
        return {
          items: rows.map(presentPromptSummary),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
        };
      },
    );

    r.post(
      '/v1/prompts',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Create a prompt; its template becomes version 1',
          querystring: NoQuerySchema,
          body: CreatePromptBodySchema,
          response: { 201: PromptSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(presentPrompt(await createPrompt(db, actorOf(request), request.body))),
    );

    r.post(
      '/v1/prompts/preview',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Render a template with the given values, and sample values for the missing ones',
          querystring: NoQuerySchema,
          body: PromptPreviewBodySchema,
          response: { 200: PromptPreviewSchema, ...errors },
        },
      },
      async (request) => previewPrompt(request.body),
    );

    r.get(
      '/v1/prompts/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'One prompt with its current template',
          params: PromptIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: PromptSchema, ...errors },
        },
      },
      async (request) => presentPrompt(await getPrompt(db, actorOf(request).principal, request.params.id)),
    );

    r.patch(
      '/v1/prompts/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Rename or describe a prompt; a changed template is saved as a new version',
          params: PromptIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdatePromptBodySchema,
          response: { 200: PromptSchema, ...errors },
        },
      },
      async (request) =>
        presentPrompt(await updatePrompt(db, actorOf(request), request.params.id, request.body)),
    );

    r.delete(
      '/v1/prompts/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Delete a prompt and all its versions; refused with 409 prompt/in-use while a RAG uses it',
          params: PromptIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deletePrompt(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    r.get(
      '/v1/prompts/:id/versions',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "A prompt's versions, newest first",
          params: PromptIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: PromptVersionListSchema, ...errors },
        },
      },
      async (request) => {
        const { row, items } = await listVersions(db, actorOf(request).principal, request.params.id);
        return { current_version: row.currentVersion, items: items.map(presentVersionSummary) };
      },
    );

    r.get(
      '/v1/prompts/:id/versions/:version',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'One version of a prompt with its template',
          params: PromptVersionParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: PromptVersionSchema, ...errors },
        },
      },
      async (request) =>
        presentVersion(
          await getVersion(db, actorOf(request).principal, request.params.id, request.params.version),
        ),
    );

    r.post(
      '/v1/prompts/:id/versions/:version/restore',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "Make an earlier version's template current again, as a new version",
          params: PromptVersionParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: PromptSchema, ...errors },
        },
      },
      async (request) =>
        presentPrompt(await restoreVersion(db, actorOf(request), request.params.id, request.params.version)),
    );
  });
}
