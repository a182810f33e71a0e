import { PassThrough } from 'node:stream';
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
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadAuthSecret } from '../../bootstrap';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import { actorOf } from '../../lib/audit';
import { createSecretBox } from '../../lib/secret-box';
import { requireFeatureCaller } from '../../plugins/feature-guard';
import { actorId } from '../../plugins/principal';
import type { Auth } from '../auth/auth';
import { type AnswerRecorder, createAnswerRecorder } from './answer-recorder';
import { answer, type AnswerDeps } from './rag-answer';
import { presentRag } from './rags.presenter';
import { createRag, deleteRag, getRag, getRagForAnswer, listRags, updateRag } from './rags.service';
import { createGuardedWebFetch } from '../../lib/guarded-http/guarded-fetch';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  429: ErrorBodySchema,
};
const tags = ['rags'];

declare module 'fastify' {
  interface FastifyInstance {
    /** Writes the answers of the answer route after their replies; `flush()` awaits what is pending. */
    ragAnswers: AnswerRecorder;
  }
}

/** One Server-Sent Event. */
const sse = (event: AnswerStreamEvent, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** The answer route's budget is per user or API credential, so one caller cannot use up a shared address's. */
const principalKey = (request: FastifyRequest) =>
  request.principal ? `${request.principal.tenantId}:${actorId(request.principal)}` : `ip:${request.ip}`;

/** RAGs under /v1/rags (each tenant seeing only its own) and the answering route. */
export async function ragRoutes(app: FastifyInstance, deps: { auth: Auth; db: Db; env: Env }) {
  const { db, env } = deps;
  const secret = await loadAuthSecret(db, env);
  const recorder = createAnswerRecorder(db, app.log);
  app.decorate('ragAnswers', recorder);
  // Answers still waiting are written before the database goes.
  app.addHook('onClose', () => recorder.flush());
  const answerDeps: AnswerDeps = {
    db,
    secretBox: createSecretBox(secret, 'model-api-key'),
    modelFetch: createGuardedWebFetch({ allowAddresses: env.FETCH_ALLOW_ADDRESSES }),
    log: app.log,
    modelTimeoutMs: env.RAG_MODEL_TIMEOUT_MS,
    recorder,
    sourceLinks: app.files.sourceLinks,
  };
  const signedIn = requireFeatureCaller(deps.auth, deps.db, 'omnirag');

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
            max: env.RAG_ANSWER_RATE_LIMIT,
            timeWindow: 60_000,
            hook: 'preHandler',
            keyGenerator: principalKey,
          },
        },
        schema: {
          tags,
          summary:
            'Answer a question: JSON, or with `stream: true` Server-Sent Events (`delta` {text}, possibly `reset`, then one `sources` with the whole answer)',
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
        if (!request.body.stream) return answer(answerDeps, input);

        const abort = new AbortController();
        // The response closing before it finished means the client went away: the model call stops.
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        const events = new PassThrough();
        let started = false;
        // The stream starts with the first event, so a failure before it is still a normal JSON error.
        const write = (event: AnswerStreamEvent, data: unknown) => {
          if (!started) {
            started = true;
            // The response schema types the JSON answer; the event stream is a plain Node stream.
            void (reply as unknown as FastifyReply)
              .header('content-type', 'text/event-stream; charset=utf-8')
              .header('x-accel-buffering', 'no')
              .send(events);
          }
          events.write(sse(event, data));
        };
        try {
          const result = await answer(answerDeps, {
            ...input,
            signal: abort.signal,
            stream: { delta: (text) => write('delta', { text }), reset: () => write('reset', {}) },
          });
          write('sources', AnswerResultSchema.parse(result));
        } catch (error) {
          if (!started) throw error;
          request.log.error({ err: error }, 'streamed answer failed');
        }
        events.end();
        return reply;
      },
    );
  });
}
