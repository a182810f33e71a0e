import {
  BOT_CHAT_TEXT_MAX,
  BotChatBodySchema,
  BotChatReplySchema,
  BotIdParamsSchema,
  BotTestCaseListSchema,
  BotTestCaseParamsSchema,
  BotTestCaseSchema,
  BotTestRunListSchema,
  BotTestRunParamsSchema,
  BotTestRunSchema,
  BotTestSourceListSchema,
  CreateBotTestCaseBodySchema,
  EmptyBodySchema,
  ErrorBodySchema,
  NoQuerySchema,
  UpdateBotTestCaseBodySchema,
} from '@omnibot/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { JobRunner } from '../../jobs/queue';
import { actorOf } from '../../lib/audit';
import { AppError } from '../../lib/errors';
import { actorId } from '../../lib/principal';
import { requirePrincipal } from '../auth/principal';
import type { Identity } from '../auth/principal';
import type { BotSecrets } from '../bots/bots.service';
import type { AnswerDeps } from '../rag/rag-answer';
import { chatWithBot } from './bot-chat';
import {
  type BotTestingDeps,
  createCase,
  deleteCase,
  listCases,
  listTestSources,
  updateCase,
} from './bot-test-cases.service';
import type { RunnerDeps } from './bot-test-runner';
import { getRun, listRuns, startRun } from './bot-test-runs.service';

const errors = {
  400: ErrorBodySchema,
  401: ErrorBodySchema,
  403: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  413: ErrorBodySchema,
  429: ErrorBodySchema,
};
const tags = ['bot testing'];

/** The chat's budget is per user or API credential, so one caller cannot use up a shared address's. */
const principalKey = (request: FastifyRequest) =>
  request.principal ? `${request.principal.tenantId}:${actorId(request.principal)}` : `ip:${request.ip}`;

/** A message over the limit is refused as too long (413) before the body is validated. */
async function refuseLongText(request: FastifyRequest) {
  const body = request.body as { text?: unknown } | null | undefined;
  if (
    body &&
    typeof body === 'object' &&
    typeof body.text === 'string' &&
    body.text.length > BOT_CHAT_TEXT_MAX
  ) {
    throw new AppError(
      413,
      'bot/text-too-long',
      `The message is longer than ${BOT_CHAT_TEXT_MAX} characters.`,
    );
  }
}

/**
 * Staff tools for the organisation's bots: a chat with any of its bots showing how each answer was made, and
 * per-bot test suites run in the background.
 */
export async function botTestingRoutes(
  app: FastifyInstance,
  deps: {
    identity: Identity;
    botSecrets: BotSecrets;
    /** How the builtin engine answers from a RAG, as the RAG answer route does. */
    answering: AnswerDeps;
    jobs: () => JobRunner | null;
    chatRateLimit: number;
  },
): Promise<RunnerDeps> {
  const { db } = deps.identity;
  const secrets = deps.botSecrets;
  const answers = deps.answering;
  const ctx: BotTestingDeps = { db, secrets, jobs: deps.jobs };
  const signedIn = [requirePrincipal(deps.identity, { credentials: true })];

  await app.register(async (scope) => {
    const r = scope.withTypeProvider<ZodTypeProvider>();

    r.post(
      '/v1/bots/:id/chat',
      {
        onRequest: [...signedIn],
        preValidation: refuseLongText,
        // A route with its own limit is counted by that limit instead of the global one.
        config: {
          // The playground only asks the bot: agents try what visitors will be told.
          allowAgent: true,
          rateLimit: {
            max: deps.chatRateLimit,
            timeWindow: 60_000,
            hook: 'preHandler',
            keyGenerator: principalKey,
          },
        },
        schema: {
          tags,
          summary:
            "Talk to one of the organisation's bots (enabled or not): its reply with the retrieval trace (chunks, scores, timings); stored in no conversation",
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          body: BotChatBodySchema,
          response: { 200: BotChatReplySchema, ...errors },
        },
      },
      async (request) =>
        chatWithBot(
          { bots: { db, secrets }, answers },
          actorOf(request).principal,
          request.params.id,
          request.body,
        ),
    );

    r.get(
      '/v1/bots/:id/test-cases',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: "A bot's test cases, oldest first",
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: BotTestCaseListSchema, ...errors },
        },
      },
      async (request) => ({ items: await listCases(ctx, actorOf(request).principal, request.params.id) }),
    );

    r.post(
      '/v1/bots/:id/test-cases',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            'Add a test case: a question with an expected text, an expected source, or both (at most 200 per bot)',
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          body: CreateBotTestCaseBodySchema,
          response: { 201: BotTestCaseSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createCase(ctx, actorOf(request), request.params.id, request.body)),
    );

    r.patch(
      '/v1/bots/:id/test-cases/:caseId',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Change a test case; `null` clears an expectation as long as one remains',
          params: BotTestCaseParamsSchema,
          querystring: NoQuerySchema,
          body: UpdateBotTestCaseBodySchema,
          response: { 200: BotTestCaseSchema, ...errors },
        },
      },
      async (request) =>
        updateCase(ctx, actorOf(request), request.params.id, request.params.caseId, request.body),
    );

    r.delete(
      '/v1/bots/:id/test-cases/:caseId',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'Delete a test case',
          params: BotTestCaseParamsSchema,
          querystring: NoQuerySchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await deleteCase(ctx, actorOf(request), request.params.id, request.params.caseId);
        return reply.status(204).send(null);
      },
    );

    r.get(
      '/v1/bots/:id/test-sources',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary:
            "The knowledge sources a test case of the bot may expect: those of its RAG's knowledge bases",
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: BotTestSourceListSchema, ...errors },
        },
      },
      async (request) => ({
        items: await listTestSources(ctx, actorOf(request).principal, request.params.id),
      }),
    );

    r.post(
      '/v1/bots/:id/test-runs',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: "Run the bot's test suite in the background (one run per bot at a time)",
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          body: EmptyBodySchema,
          response: { 202: BotTestRunSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(202).send(await startRun(ctx, actorOf(request), request.params.id)),
    );

    r.get(
      '/v1/bots/:id/test-runs',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: "A bot's test runs, newest first (the last 50)",
          params: BotIdParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: BotTestRunListSchema, ...errors },
        },
      },
      async (request) => ({ items: await listRuns(ctx, actorOf(request).principal, request.params.id) }),
    );

    r.get(
      '/v1/test-runs/:id',
      {
        onRequest: [...signedIn],
        schema: {
          tags,
          summary: 'One test run with its progress and per-case results',
          params: BotTestRunParamsSchema,
          querystring: NoQuerySchema,
          response: { 200: BotTestRunSchema, ...errors },
        },
      },
      async (request) => getRun(db, actorOf(request).principal, request.params.id),
    );
  });

  return { db, secrets, answers, log: app.log };
}
