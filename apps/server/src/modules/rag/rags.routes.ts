import {
  AnswerBodySchema,
  AnswerResultSchema,
  type AnswerStreamEvent,
  CreateRagBodySchema,
  ErrorBodySchema,
  NoQuerySchema,
  RagIdParamsSchema,
  RagListQuerySchema,
  RagListSchema,
  RagSchema,
  UpdateRagBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { actorOf } from '../../lib/audit';
import { openEventStream, wantsEventStream } from '../../lib/event-stream';
import { actorId } from '../../lib/principal';
import { requireFeatureCaller } from '../auth/feature-guard';
import type { Identity } from '../auth/principal';
import { answer, type AnswerDeps } from './rag-answer';
import { presentRag } from './rags.presenter';
import { createRag, deleteRag, getRag, getRagForAnswer, listRags, updateRag } from './rags.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
};
const tags = ['rags'];

/** The answer route's budget is per user or API credential, so one caller cannot use up a shared address's. */
const principalKey = (request: FastifyRequest) =>
  request.principal ? `${request.principal.tenantId}:${actorId(request.principal)}` : `ip:${request.ip}`;

/** RAGs under /v1/rags (each tenant seeing only its own) and the answering route. */
export async function ragRoutes(
  app: FastifyInstance,
  deps: { identity: Identity; answering: AnswerDeps; answerRateLimit: number },
) {
  const { db } = deps.identity;
  const answerDeps = deps.answering;
  const signedIn = requireFeatureCaller(deps.identity, 'omnirag');

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/v1/rags',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: "The organisation's RAGs, by name; `prompt_id` or `index_id` lists those that use it",
          querystring: RagListQuerySchema,
          response: { 200: RagListSchema, ...errors },
        },
      },
      async (request) => {
        const { rows, total } = await listRags(db, actorOf(request).principal, request.query);
        return {
          items: rows.map(presentRag),
          total,
          page: request.query.page,
          page_size: request.query.page_size,
        };
      },
    );

    r.post(
      '/v1/rags',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary:
            'Create a RAG over one of the organisation’s indexes, with an optional prompt and chat model',
          querystring: NoQuerySchema,
          body: CreateRagBodySchema,
          response: { 201: RagSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(presentRag(await createRag(db, actorOf(request), request.body))),
    );

    r.get(
      '/v1/rags/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'One RAG',
          params: RagIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: RagSchema, ...errors },
        },
      },
      async (request) => presentRag(await getRag(db, actorOf(request).principal, request.params.id)),
    );

    r.patch(
      '/v1/rags/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Change a RAG; `null` clears its prompt or model',
          params: RagIdParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateRagBodySchema,
          response: { 200: RagSchema, ...errors },
        },
      },
      async (request) => presentRag(await updateRag(db, actorOf(request), request.params.id, request.body)),
    );

    r.delete(
      '/v1/rags/:id',
      {
        onRequest: signedIn,
        schema: {
          tags,
          summary: 'Delete a RAG with its recorded answers',
          params: RagIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteRag(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    r.post(
      '/v1/rags/:id/answer',
      {
        // A route with its own limit is counted by that limit instead of the global one.
        onRequest: signedIn,
        config: {
          // Agents ask RAGs for answers to give visitors.
          allowAgent: true,
          rateLimit: {
            max: deps.answerRateLimit,
            timeWindow: 60_000,
            hook: 'preHandler',
            keyGenerator: principalKey,
          },
        },
        schema: {
          tags,
          summary:
            'Answer a question: JSON, or with `Accept: text/event-stream` Server-Sent Events (`delta` {text}, possibly `reset`, then one `sources` with the whole answer)',
          params: RagIdParamsSchema,
          querystring: NoQuerySchema,
          body: AnswerBodySchema,
          response: { 200: AnswerResultSchema, ...errors },
        },
      },
      async (request, reply) => {
        const { principal } = actorOf(request);
        const { rag, index } = await getRagForAnswer(db, principal, request.params.id, request.body.question);
        const input = {
          tenantId: principal.tenantId,
          rag,
          index,
          question: request.body.question,
          history: request.body.history,
          ...(request.body.language === undefined ? {} : { language: request.body.language }),
          channel: 'api',
          actor: actorId(principal),
        };
        if (!wantsEventStream(request)) return answer(answerDeps, input);

        const events = openEventStream<AnswerStreamEvent>(reply);
        try {
          // The client going away stops the model call.
          const result = await answer(answerDeps, {
            ...input,
            signal: events.signal,
            stream: {
              delta: (text) => events.write('delta', { text }),
              reset: () => events.write('reset', {}),
            },
          });
          events.write('sources', AnswerResultSchema.parse(result));
        } catch (error) {
          if (!events.started) throw error;
          request.log.error({ err: error }, 'streamed answer failed');
        }
        events.end();
        return reply;
      },
    );
  });
}
