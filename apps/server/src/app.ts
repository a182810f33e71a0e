import { randomUUID } from 'node:crypto';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { loadAuthSecret } from './bootstrap';
import type { Database } from './db/client';
import type { Env } from './env';
import { JobRunner } from './jobs/queue';
import { scheduleConversationSweep } from './jobs/conversation-sweep';
import { scheduleRagAnswerSweep } from './jobs/rag-answer-sweep';
import { scheduleRateLimitSweep } from './jobs/rate-limit-sweep';
import { createMailer, type Mailer } from './lib/mailer';
import { pgRateLimitStore } from './lib/rate-limit-store';
import { accountRoutes } from './modules/accounts/accounts.routes';
import { createAuth, type Auth } from './modules/auth/auth';
import { authRoutes } from './modules/auth/auth.routes';
import { RateLimits } from './modules/auth/rate-limits';
import { type FilesHandle, registerFiles } from './modules/files/files.module';
import { healthRoutes } from './modules/health/health.routes';
import { botTemplateRoutes } from './modules/bot-templates/bot-templates.routes';
import { botRoutes } from './modules/bots/bots.routes';
import { botsUsingSchedules, createBotSecrets } from './modules/bots/bots.service';
import { scheduleRoutes } from './modules/schedules/schedules.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { botTestingRoutes } from './modules/bot-testing/bot-testing.routes';
import { startBotTesting } from './modules/bot-testing/bot-test-runner';
import { integrationRoutes } from './modules/integrations/integrations.routes';
import { createWidgetAccess } from './modules/widget/widget-access';
import { widgetRoutes } from './modules/widget/widget.routes';
import { caseSummaryRoutes } from './modules/case-summaries/case-summaries.routes';
import {
  type CaseSummaryWriter,
  createCaseSummaryWriter,
  latestSummaryOf,
  summariesOf,
} from './modules/case-summaries/case-summaries.service';
import type { LiveTranslationDeps } from './modules/live-agents/agent-translation';
import { inboxRoutes } from './modules/live-agents/inbox.routes';
import { notifySummaryWritten } from './modules/live-agents/live-events';
import { startLiveBus } from './modules/live-agents/live-bus';
import {
  type ProviderRelay,
  type ProviderRelayOptions,
  startProviderRelay,
} from './modules/live-agents/provider-relay';
import type { ProviderResolver } from './modules/live-agents/provider-sessions';
import { modelRoutes } from './modules/models/models.routes';
import { promptRoutes } from './modules/prompts/prompts.routes';
import { ragRoutes } from './modules/rag/rags.routes';
import { type AnswerRecorder, createAnswerRecorder } from './modules/rag/answer-recorder';
import type { AnswerDeps } from './modules/rag/rag-answer';
import { knowledgeRoutes } from './modules/knowledge/knowledge.routes';
import { startIngestion } from './modules/knowledge/ingestion';
import { scheduleSourceSync } from './modules/knowledge/source-sync';
import { indexRoutes } from './modules/indexes/indexes.routes';
import { queueEmbeddingForKnowledge, startEmbedding } from './modules/indexes/embedding';
import type { VectorSearchDeps } from './modules/indexes/search';
import { createSecretBox } from './lib/secret-box';
import { createGuardedFetch, createGuardedWebFetch } from './lib/guarded-http/guarded-fetch';
import { createGuardedSocketOpener } from './lib/guarded-http/guarded-websocket';
import {
  type ContactCentreDeps,
  contactCentreProviders,
} from './modules/integrations/contact-centre.service';
import { createConnectProvider } from './modules/integrations/providers/connect';
import { createGenesysProvider } from './modules/integrations/providers/genesys';
import { sessionRoutes } from './modules/session/session.routes';
import type { SpeechDeps } from './modules/speech/speech.service';
import { speechTestRoutes } from './modules/speech/speech-test.routes';
import { CONSOLE_DIST_DIR, WIDGET_DIST_DIR } from './paths';
import { readsHashedAsset, registerCompression } from './plugins/compression';
import { registerConsole } from './plugins/console';
import { registerCredentialCache } from './modules/auth/credential-cache';
import { registerErrorHandling, serializeError } from './plugins/errors';
import { registerJsonBody } from './plugins/json-body';
import { registerMetrics } from './plugins/metrics';
import { registerNoStore } from './plugins/no-store';
import { registerOriginCheck } from './modules/auth/origin-check';
import { type Identity, registerPrincipal } from './modules/auth/principal';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerSafeUrl } from './plugins/safe-url';

/** Where presigned download links point when files live in an S3-compatible store (previews load from there). */

/** The request-lifecycle hooks a route may list. */
const ROUTE_HOOK_NAMES = [
  'onRequest',
  'preParsing',
  'preValidation',
  'preHandler',
  'preSerialization',
  'onSend',
  'onResponse',
  'onTimeout',
  'onError',
] as const;
export function objectStoreOrigins(env: Env): string[] {
  if (!env.S3_BUCKET) return [];
  if (!env.S3_ENDPOINT) return [`https://${env.S3_BUCKET}.s3.${env.S3_REGION}.amazonaws.com`];
  const endpoint = new URL(env.S3_ENDPOINT);
  return env.S3_FORCE_PATH_STYLE
    ? [endpoint.origin]
    : [`${endpoint.protocol}//${env.S3_BUCKET}.${endpoint.host}`];
}

export interface AppDeps {
  env: Env;
  database: Database;
  /** Folder of the built console; null serves the API only. */
  consoleDir?: string | null;
  /** Folder of the built widget (widget.js and app/); WIDGET_DIST_DIR or the repository's by default, null for none. */
  widgetDir?: string | null;
  /** Where logs go (tests capture them); standard output by default. */
  logStream?: NodeJS.WritableStream;
  /** Starts the background job runner (pg-boss) and its schedules; off by default because it takes seconds. */
  jobs?: boolean | { pollingIntervalSeconds?: number };
  /**
   * Opens a tenant's contact-centre integration as a provider (Genesys Cloud, Amazon Connect) for the live-agent
   * relay; by default the stored integration with the installed providers (tests put their own in).
   */
  liveAgentProviders?: ProviderResolver;
  /** The contact-centre relay's lease timings; false runs none in this process (it still serves visitors). */
  liveRelay?: ProviderRelayOptions | false;
}

export type App = FastifyInstance;

declare module 'fastify' {
  interface FastifyInstance {
    shuttingDown: boolean;
    auth: Auth;
    mailer: Mailer;
    database: Database;
    /** The background job runner, or null when the app was built without one. */
    jobs: JobRunner | null;
    /** How callers are resolved (session library, database, credential cache); modules get it passed. */
    identity: Identity;
    /** Tenant file storage; the app's own handle, for the operator's tools and tests (modules get it passed). */
    files: FilesHandle;
    /** Writes recorded answers after their replies; `flush()` awaits what is pending (tests, shutdown). */
    ragAnswers: AnswerRecorder;
    /** Writes case summaries after hand-overs and closes; `flush()` awaits what is pending (tests, shutdown). */
    caseSummaries: CaseSummaryWriter;
    /** This process's contact-centre relay, or null when it runs none. */
    liveRelay: ProviderRelay | null;
  }
}

/** Builds the whole server (plugins first, then modules). Never listens: main.ts and tests do. */
export async function buildApp({
  env,
  database,
  consoleDir = CONSOLE_DIST_DIR,
  widgetDir,
  logStream,
  jobs = false,
  liveAgentProviders,
  liveRelay = {},
}: AppDeps) {
  const app = Fastify({
    logger: {
      level: env.LOG_LEVEL,
      ...(logStream ? { stream: logStream } : {}),
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'],
        censor: '[redacted]',
      },
      serializers: { err: serializeError },
    },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1024 * 1024,
    trustProxy: env.TRUST_PROXY,
    return503OnClosing: true,
    // Errors raised before routing (bad %-encoding, over-long URLs) also answer `{ code, message }`.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      void reply.status(status).send({ code: 'invalid_argument', message: error.message });
    },
  }).withTypeProvider<ZodTypeProvider>();

  app.decorate('shuttingDown', false);
  // Plugins add their hooks to a route by pushing onto its hook array (the rate limiter does), and a module's
  // routes share one guard array; so each route gets its own copy first, or every route's hooks would run on all.
  app.addHook('onRoute', (route) => {
    for (const name of ROUTE_HOOK_NAMES) {
      const hooks: unknown = route[name];
      if (Array.isArray(hooks)) Object.assign(route, { [name]: hooks.slice() as unknown[] });
    }
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Hooks that do not wait for anything take a callback: an async hook costs a promise and a turn per request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  // Responses finished during shutdown close their keep-alive connection so that close() can complete.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.shuttingDown) reply.header('connection', 'close');
    done(null, payload);
  });

  // Before any route: it adds its compression hook to each route as the route is added.
  await registerCompression(app);
  registerErrorHandling(app);
  registerSafeUrl(app);
  registerJsonBody(app);
  registerOriginCheck(app, env);
  registerNoStore(app);
  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...objectStoreOrigins(env)],
        mediaSrc: ["'self'", 'blob:', ...objectStoreOrigins(env)],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        objectSrc: ["'none'"],
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  // The console is same-origin; the widget routes will opt in per bot.
  await app.register(cors, { origin: false });
  // Counted in the database so that every server process shares one budget per client.
  await app.register(rateLimit, {
    global: true,
    allowList: readsHashedAsset,
    max: env.RATE_LIMIT_MAX,
    timeWindow: env.RATE_LIMIT_WINDOW_MS,
    store: pgRateLimitStore({ db: database.db, log: app.log }),
  });
  await app.register(swagger, {
    openapi: { info: { title: `${env.PRODUCT_NAME} API`, version: '1' } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  const db = database.db;
  const mailer = createMailer({
    smtpUrl: env.SMTP_URL,
    from: env.MAIL_FROM ?? `${env.PRODUCT_NAME} <no-reply@${new URL(env.PUBLIC_URL).hostname}>`,
    logger: app.log,
  });
  // Everything the modules share is made here once and handed to them: the installation secret and the key
  // boxes it opens, the guarded HTTP clients, the identity guard, the answer recorder, the widget's access rules.
  const installationSecret = await loadAuthSecret(db, env);
  const auth = createAuth({ env, db, mailer, secret: installationSecret, logger: app.log });
  const limits = new RateLimits(db);
  app.decorate('auth', auth);
  app.decorate('mailer', mailer);
  app.decorate('database', database);
  app.addHook('onClose', async () => {
    await mailer.flush();
    mailer.close();
  });
  registerPrincipal(app);
  const identity: Identity = {
    auth,
    db,
    credentialCache: registerCredentialCache(app, database, env.CREDENTIAL_CACHE_MS),
  };
  app.decorate('identity', identity);
  const modelKeys = createSecretBox(installationSecret, 'model-api-key');
  const botSecrets = createBotSecrets(installationSecret);
  const fetchPolicy = { allowAddresses: env.FETCH_ALLOW_ADDRESSES };
  const modelFetch = createGuardedWebFetch(fetchPolicy);
  const pageFetch = createGuardedFetch(fetchPolicy);
  const models = { db, secretBox: modelKeys, modelFetch };
  const vectorSearch: VectorSearchDeps = {
    secretBox: modelKeys,
    modelFetch,
    pgvector: database.vectorEnabled,
  };
  const speech: SpeechDeps = { ...models, fetch: pageFetch, timeoutMs: env.RAG_MODEL_TIMEOUT_MS };
  // Contact centres are reached at tenant-supplied addresses under the same address policy; their secrets have a
  // box of their own.
  const contactCentre: ContactCentreDeps = {
    secretBox: createSecretBox(installationSecret, 'ccaas-secret'),
    providers: { genesys: createGenesysProvider, connect: createConnectProvider },
    network: {
      fetch: createGuardedWebFetch(fetchPolicy),
      openSocket: createGuardedSocketOpener(fetchPolicy),
    },
  };

  registerMetrics(app, database, env);
  healthRoutes(app, database, () => app.shuttingDown);
  authRoutes(app, { auth, db, env, limits });
  sessionRoutes(app, { identity, limits });
  accountRoutes(app, { identity, mailer, env });
  const files = await registerFiles(app, { identity, env });
  app.decorate('files', files);
  const answerRecorder = createAnswerRecorder(db, app.log);
  app.decorate('ragAnswers', answerRecorder);
  // Answers still waiting are written before the database goes.
  app.addHook('onClose', () => answerRecorder.flush());
  const answering: AnswerDeps = {
    ...models,
    log: app.log,
    modelTimeoutMs: env.RAG_MODEL_TIMEOUT_MS,
    sourceLinks: files.sourceLinks,
    vector: vectorSearch,
  };
  await modelRoutes(app, { identity, models });
  await promptRoutes(app, { identity });
  await knowledgeRoutes(app, { identity, env, storage: () => files.storage, jobs: () => app.jobs });
  await ragRoutes(app, {
    identity,
    answering: { ...answering, recorder: answerRecorder },
    answerRateLimit: env.RAG_ANSWER_RATE_LIMIT,
  });
  await scheduleRoutes(app, {
    identity,
    botsUsing: (tenantId, scheduleIds) => botsUsingSchedules(db, tenantId, scheduleIds),
  });
  await botRoutes(app, { identity, botSecrets, files });
  await dashboardRoutes(app, {
    identity,
    sourceLinks: files.sourceLinks,
    summaries: (conversation) => summariesOf(db, conversation),
  });
  const botTesting = await botTestingRoutes(app, {
    identity,
    botSecrets,
    answering,
    jobs: () => app.jobs,
    chatRateLimit: env.BOT_CHAT_RATE_LIMIT,
  });
  await botTemplateRoutes(app, { identity, botSecrets });
  await integrationRoutes(app, { identity, models, contactCentre });
  await speechTestRoutes(app, { identity, botSecrets, speech });
  await indexRoutes(app, { identity, jobs: () => app.jobs, vectorSearch, sourceLinks: files.sourceLinks });
  const bus = startLiveBus(database, app.log, {
    onReady: (run) => app.addHook('onReady', run),
    onClose: (run) => app.addHook('onClose', run),
  });
  const liveTranslation: LiveTranslationDeps = {
    speech,
    bots: { db, secrets: botSecrets },
    timeoutMs: env.LIVE_TRANSLATE_TIMEOUT_MS,
    log: app.log,
  };
  await caseSummaryRoutes(app, { identity });
  // Summaries are written after the hand-over or close commits; the inbox hears of each one.
  const caseSummaries = createCaseSummaryWriter({
    db,
    secretBox: modelKeys,
    modelFetch,
    modelTimeoutMs: env.RAG_MODEL_TIMEOUT_MS,
    log: app.log,
    onWritten: (conversation) => notifySummaryWritten(db, conversation),
  });
  app.decorate('caseSummaries', caseSummaries);
  app.addHook('onClose', () => caseSummaries.flush());
  await inboxRoutes(app, { identity, bus, summaries: caseSummaries, translation: liveTranslation });
  const relay =
    liveRelay === false
      ? null
      : startProviderRelay(
          {
            db,
            bus,
            log: app.log,
            providers: liveAgentProviders ?? contactCentreProviders(db, contactCentre),
            box: createSecretBox(installationSecret, 'live-provider-session'),
            // The agent reads the hand-over's summary first: wait for the one this process is writing.
            summaryOf: async (conversation) => {
              await caseSummaries.settled(conversation);
              return (await latestSummaryOf(db, conversation))?.text ?? null;
            },
          },
          { onReady: (run) => app.addHook('onReady', run), onClose: (run) => app.addHook('onClose', run) },
          liveRelay,
        );
  app.decorate('liveRelay', relay);
  await widgetRoutes(app, {
    env,
    access: createWidgetAccess({ db, env, botSecrets, installationSecret, log: app.log }),
    answering: { ...answering, recorder: answerRecorder },
    speech,
    liveTranslation,
    files,
    bus,
    summaries: caseSummaries,
    relay,
    widgetDir: widgetDir === undefined ? (env.WIDGET_DIST_DIR ?? WIDGET_DIST_DIR) : widgetDir,
  });
  await registerConsole(app, env, consoleDir);

  // Started last, so that a failure above leaves no runner behind.
  const runner = jobs ? await JobRunner.start(database, app.log, typeof jobs === 'object' ? jobs : {}) : null;
  app.decorate('jobs', runner);
  if (runner) {
    app.addHook('onClose', () => runner.stop());
    try {
      await scheduleRateLimitSweep(runner, { db, limits, log: app.log });
      await scheduleRagAnswerSweep(runner, {
        db,
        retentionDays: env.RAG_ANSWER_RETENTION_DAYS,
        log: app.log,
      });
      await scheduleConversationSweep(runner, {
        db,
        retentionDays: env.CONVERSATION_RETENTION_DAYS,
        log: app.log,
      });
      await startIngestion(runner, {
        db,
        env,
        storage: files.storage,
        fetch: pageFetch,
        log: app.log,
        onSourceIndexed: async (target) => {
          await queueEmbeddingForKnowledge(db, runner, target);
        },
      });
      await scheduleSourceSync(runner, { db, log: app.log });
      await startEmbedding(runner, {
        db,
        secretBox: modelKeys,
        modelFetch,
        pgvector: database.vectorEnabled,
        log: app.log,
      });
      await startBotTesting(runner, botTesting);
    } catch (error) {
      await runner.stop();
      throw error;
    }
  }

  return app;
}
