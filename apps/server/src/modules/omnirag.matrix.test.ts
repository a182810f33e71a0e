import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../db/client';
import { timeLimit } from '../test/time-limits';
import { botTestRuns } from '../db/schema';
import { createGuardedFetch } from '../lib/guarded-http/guarded-fetch';
import {
  type Caller,
  createTestApp,
  injectAs,
  sessionCookie,
  tablesFingerprint,
  TEST_ADMIN_PASSWORD,
  type TestApp,
} from '../test/app';
import {
  expectedStatus,
  expectNothingWrong,
  expectOneColumnPerPrincipal,
  expectRowForEveryRoute,
  idsOfOtherTenants,
  isKnownRefusal,
  itemIds,
  type Method,
  obj,
  type ServedRoute,
  servedRoutes,
  stringsIn,
  underPrefixes,
  walkMatrix,
  withWrongSecret,
} from '../test/authorisation-matrix';
import { defined } from '../test/defined';
import { type OpenAICompatibleServer, startOpenAICompatibleServer } from '../test/openai-compatible-server';
import { makeSignedInUser, makeTenant, platformTenantId } from './accounts/accounts.fixtures';
import { basicCredential } from './files/files.test-support';
import { runIngestion } from './knowledge/ingestion';
import { TEST_FETCH_ALLOW } from '../test/loopback-fetch';

/*
 * The authorisation matrix of the Omni RAG routes and the bot routes, and tenant isolation through every one of them.
 *
 * The routes come from the server's own route table: a route under one of PREFIXES without a row in ROUTES fails,
 * and so does a row that names no route. The expected statuses are written out by hand, one column per principal,
 * for the caller's own resources and (when the route names an id, in its path or its body) for another omnirag
 * tenant's. Another tenant's ids must be answered exactly like unknown ids (same status, code and message) and
 * change nothing; every refusal and every read leaves the Omni RAG tables and the audit log as they were.
 *
 * Adding the routes of a module (a RAG's conversations, say) takes a few lines per route:
 *   1. Resources: a field for each kind of thing the routes name (e.g. `conversation: string`); create it in
 *      seedTenant with the same content for every tenant, and give it a random id in unknownResources.
 *   2. TENANT_TABLES and FINGERPRINTED: the module's tables (ids must never cross tenants; a denied call changes
 *      none of them).
 *   3. ROUTES: one row per route: `request` builds the call from a tenant's Resources (put the other tenant's ids in
 *      the body through `x` too: `{ index_id: x.index }` then checks that ids in bodies grant nothing), `own` and
 *      `foreign` give the statuses per principal, `shows` says what an allowed read must show, and `fresh` names
 *      the kind a call consumes (a delete), so it acts on a throwaway made just before (add the kind to makeFresh);
 *      `mixed` puts another tenant's child under the caller's own parent (e.g. a RAG's conversation), or another
 *      tenant's id in the body of a call on the caller's own resource; it is answered like the same call with
 *      unknown ids there (`mixedStatuses` when that is a 400, with the codes a 400 may carry in `refusals`).
 *      `filter` marks ids that only filter a list (another tenant's list nothing), `streamed` a route that also
 *      answers as Server-Sent Events (every call is made both ways).
 *   4. The statuses: the shared rows below (TENANT_READ and the like) hold for a route guarded by
 *      requireFeatureCaller(…, 'omnirag') whose service filters by the caller's tenant; write a row by hand when a
 *      route has another rule (as the model routes do).
 * GET rows are also run by the isolation test, with identical content in both tenants; searches and answers are
 * checked there too, for every viewer.
 */

const PREFIXES = [
  '/v1/models',
  '/v1/prompts',
  '/v1/knowledge',
  '/v1/indexes',
  '/v1/rags',
  '/v1/bots',
  '/v1/test-runs',
];
/** Bot routes tested by principal elsewhere: the dashboard's matrix, and bot images (they need a stored file). */
const ELSEWHERE = ['/v1/bots/:p/stats', '/v1/bots/:p/conversations', '/v1/bots/:p/images'];

/** The principals, in the order of the columns of the expected statuses. */
const PRINCIPALS = [
  'omnirag administrator', // tenant A
  'omnirag user', // tenant A
  'omnirag agent', // tenant A
  'omnirag API credential', // tenant A's key and secret
  'administrator without omnirag', // tenant N (casesummary only)
  'platform master', // level 1, the only principal that manages model connections here
  'anonymous',
  'wrong API credential', // tenant A's key with a wrong secret
] as const;
type PrincipalName = (typeof PRINCIPALS)[number];

/**
 * Tenants: A (client under the platform) and B (client under partner P) hold omnirag; the platform holds every
 * feature; N holds no omnirag. The platform shares its model with A, P shares its model with B.
 */
type TenantKey = 'A' | 'B' | 'platform';

/** Whose resources are "own" and "another omnirag tenant's" for each principal. Callers that may not act aim at A. */
const TARGETS: Record<PrincipalName, { own: TenantKey; foreign: TenantKey }> = {
  'omnirag administrator': { own: 'A', foreign: 'B' },
  'omnirag user': { own: 'A', foreign: 'B' },
  'omnirag agent': { own: 'A', foreign: 'B' },
  'omnirag API credential': { own: 'A', foreign: 'B' },
  'administrator without omnirag': { own: 'A', foreign: 'B' },
  'platform master': { own: 'platform', foreign: 'B' },
  anonymous: { own: 'A', foreign: 'B' },
  'wrong API credential': { own: 'A', foreign: 'B' },
};

/** What a tenant has, as the routes name it. `model` is the model offered to the tenant (its own for the platform). */
interface Resources {
  kb: string;
  /** A text source of `kb`, read into chunks. */
  source: string;
  /** A Q&A pair of `kb`. */
  qa: string;
  prompt: string;
  model: string;
  /** The chunk ids of `source`. */
  chunks: string[];
  /** A keyword index over `kb`. */
  index: string;
  /** A RAG over `index` with `prompt`. */
  rag: string;
  /** A bot answering from `rag`, with one test case (`botCase`, expecting `source`) and a finished run. */
  bot: string;
  botCase: string;
  botRun: string;
}

type FreshKind = 'knowledge' | 'source' | 'prompt' | 'model' | 'index' | 'rag' | 'bot' | 'botCase';
type Target = 'own' | 'unknown' | 'foreign' | 'own parent, unknown child' | 'own parent, foreign child';

interface RouteRow {
  request: (x: Resources, n: number) => { url: string; payload?: unknown };
  /** Statuses per principal (columns as PRINCIPALS) on the principal's own tenant's resources. */
  own: string;
  /** Statuses per principal on another omnirag tenant's ids; unknown ids must be answered the same. */
  foreign?: string;
  /** For an allowed read of own resources: the body shows them. */
  shows?: (body: unknown, x: Resources) => boolean;
  /**
   * For a route naming a child under a parent, or ids in its body: the caller's own parent (or path id) with
   * another tenant's child (or body ids), answered exactly like the same call with unknown ids in their place.
   */
  mixed?: (own: Resources, foreign: Resources) => Resources;
  /** The statuses of the `mixed` calls, when not the `foreign` ones (ids in a body answer 400, not 404). */
  mixedStatuses?: string;
  /** The codes a 400 of this row may carry (a refused id in the body names what it did not find). */
  refusals?: string[];
  /** The ids are filters of a list: another tenant's ids list nothing, like unknown ones. */
  filter?: boolean;
  /** The route also answers as Server-Sent Events with `Accept: text/event-stream`: every call is made both ways. */
  streamed?: boolean;
  /** The call consumes what it acts on: it gets a throwaway of this kind, made just before. */
  fresh?: FreshKind;
  /** An allowed call that must change nothing (besides GET, which never may). */
  pure?: boolean;
}

const lists = (body: unknown, ...ids: string[]) => ids.every((id) => itemIds(body).includes(id));

const chatModel = (n: number, baseUrl: string, tenantIds: string[]) => ({
  name: `Chat model ${n}`,
  kind: 'chat',
  base_url: baseUrl,
  model_name: 'test-chat',
  api_key: 'sk-matrix-test-key-0123456789',
  sharing: { all: false, tenant_ids: tenantIds },
});
let modelServer: OpenAICompatibleServer;

/** The index of a search or the RAG of an answer: the chunks must be the caller's own. */
const ownHits = (hits: Array<{ id?: string; chunk_id?: string }>, x: Resources) =>
  hits.length > 0 && hits.some((hit) => x.chunks.includes(hit.id ?? hit.chunk_id ?? ''));

/** The caller's own knowledge base with another tenant's source. */
const foreignSource = (own: Resources, foreign: Resources): Resources => ({
  ...own,
  source: foreign.source,
  chunks: [],
});

// Agents read and ask (searches, answers, the bot playground) but change no configuration: every other call of
// theirs is refused before anything is looked up, so their own ids and another tenant's are answered alike.
//                        adm usr agt key noR mst ano bad
const MANAGER_READ = /*  */ '403 403 403 403 403 200 401 401';
const MANAGER_MISS = /*  */ '403 403 403 403 403 404 401 401';
const TENANT_READ = /*   */ '200 200 200 200 403 200 401 401';
const TENANT_MISS = /*   */ '404 404 404 404 403 404 401 401';
const TENANT_CHANGED = /**/ '200 200 403 200 403 200 401 401';
const TENANT_MADE = /*   */ '201 201 403 201 403 201 401 401';
const TENANT_GONE = /*   */ '204 204 403 204 403 204 401 401';
const TENANT_NO_WRITE = /**/ '404 404 403 404 403 404 401 401';
/** Another tenant's (or an unknown) id in the body of an allowed caller. */
const BODY_MISS = /*     */ '400 400 403 400 403 400 401 401';
// Bot routes need a signed-in caller of the bot's tenant, not omnirag: another tenant's bot is just unknown.
const BOT_READ = /*      */ '200 200 200 200 404 200 401 401';
const BOT_MISS = /*      */ '404 404 404 404 404 404 401 401';
const BOT_CHANGED = /*   */ '200 200 403 200 404 200 401 401';
const BOT_MADE = /*      */ '201 201 403 201 404 201 401 401';
const BOT_GONE = /*      */ '204 204 403 204 404 204 401 401';
const BOT_NO_WRITE = /*  */ '404 404 403 404 404 404 401 401';
const BOT_BODY_MISS = /* */ '400 400 403 400 404 400 401 401';

/** The caller's own bot with another tenant's test case or source. */
const foreignCase = (own: Resources, foreign: Resources): Resources => ({ ...own, botCase: foreign.botCase });
const foreignCaseSource = (own: Resources, foreign: Resources): Resources => ({
  ...own,
  source: foreign.source,
});

/** A question the chunks of the seeded text source answer (no Q&A pair matches it). */
const CHUNK_QUESTION = 'Until when does the bakery sell sourdough?';
/** The question of the seeded Q&A pair. */
const QA_QUESTION = 'When does the bakery open?';

/** One row per Omni RAG route of the server (method + path with parameters as :p). */
const ROUTES: Record<string, RouteRow> = {
  // Model connections: managed by a master of level 1 or 2 only; offered models are listed to every omnirag caller.
  'GET /v1/models': {
    request: () => ({ url: '/v1/models' }),
    own: MANAGER_READ,
    shows: (body, x) => lists(body, x.model),
  },
  'GET /v1/models/available': {
    request: () => ({ url: '/v1/models/available' }),
    own: TENANT_READ,
    shows: (body, x) => lists(body, x.model),
  },
  'POST /v1/models': {
    request: (_x, n) => ({ url: '/v1/models', payload: chatModel(n, modelServer.baseUrl, []) }),
    //     adm usr agt key noR mst ano bad
    own: '403 403 403 403 403 201 401 401',
  },
  'GET /v1/models/:p': {
    request: (x) => ({ url: `/v1/models/${x.model}` }),
    own: MANAGER_READ,
    foreign: MANAGER_MISS,
    shows: (body, x) => obj(body).id === x.model,
  },
  'PATCH /v1/models/:p': {
    request: (x, n) => ({ url: `/v1/models/${x.model}`, payload: { temperature: (n % 10) / 10 } }),
    own: MANAGER_READ,
    foreign: MANAGER_MISS,
  },
  'DELETE /v1/models/:p': {
    request: (x) => ({ url: `/v1/models/${x.model}` }),
    fresh: 'model',
    //     adm usr agt key noR mst ano bad
    own: '403 403 403 403 403 204 401 401',
    foreign: MANAGER_MISS,
  },
  'POST /v1/models/:p/test': {
    request: (x) => ({ url: `/v1/models/${x.model}/test` }),
    own: MANAGER_READ,
    foreign: MANAGER_MISS,
    pure: true,
    shows: (body) => obj(body).ok === true,
  },

  // Prompts: every role of an omnirag tenant reads its own; all but agents write them.
  'GET /v1/prompts': {
    request: () => ({ url: '/v1/prompts?page_size=100' }),
    own: TENANT_READ,
    shows: (body, x) => lists(body, x.prompt),
  },
  'POST /v1/prompts': {
    request: (_x, n) => ({ url: '/v1/prompts', payload: { name: `Made ${n}`, template: 'Hi {{question}}' } }),
    own: TENANT_MADE,
  },
  'POST /v1/prompts/preview': {
    request: () => ({ url: '/v1/prompts/preview', payload: { template: 'Answer {{question}}' } }),
    own: TENANT_CHANGED,
    pure: true,
    shows: (body) => typeof obj(body).rendered === 'string',
  },
  'GET /v1/prompts/:p': {
    request: (x) => ({ url: `/v1/prompts/${x.prompt}` }),
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body, x) => obj(body).id === x.prompt,
  },
  'PATCH /v1/prompts/:p': {
    request: (x, n) => ({ url: `/v1/prompts/${x.prompt}`, payload: { description: `Changed ${n}` } }),
    own: TENANT_CHANGED,
    foreign: TENANT_NO_WRITE,
  },
  'DELETE /v1/prompts/:p': {
    request: (x) => ({ url: `/v1/prompts/${x.prompt}` }),
    fresh: 'prompt',
    own: TENANT_GONE,
    foreign: TENANT_NO_WRITE,
  },
  'GET /v1/prompts/:p/versions': {
    request: (x) => ({ url: `/v1/prompts/${x.prompt}/versions` }),
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body) => (obj(body).items as Array<{ version: number }>).some((item) => item.version === 1),
  },
  'GET /v1/prompts/:p/versions/:p': {
    request: (x) => ({ url: `/v1/prompts/${x.prompt}/versions/1` }),
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body, x) => obj(body).prompt_id === x.prompt && obj(body).version === 1,
  },
  'POST /v1/prompts/:p/versions/:p/restore': {
    request: (x) => ({ url: `/v1/prompts/${x.prompt}/versions/1/restore` }),
    own: TENANT_CHANGED,
    foreign: TENANT_NO_WRITE,
  },

  // Knowledge: every role of an omnirag tenant reads its own; all but agents write it.
  'GET /v1/knowledge': {
    request: () => ({ url: '/v1/knowledge?page_size=100' }),
    own: TENANT_READ,
    shows: (body, x) => lists(body, x.kb),
  },
  'POST /v1/knowledge': {
    request: (_x, n) => ({ url: '/v1/knowledge', payload: { name: `Made ${n}`, language: 'en' } }),
    own: TENANT_MADE,
  },
  'GET /v1/knowledge/:p': {
    request: (x) => ({ url: `/v1/knowledge/${x.kb}` }),
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body, x) => obj(body).id === x.kb,
  },
  'PATCH /v1/knowledge/:p': {
    request: (x, n) => ({ url: `/v1/knowledge/${x.kb}`, payload: { name: `Handbook ${n}` } }),
    own: TENANT_CHANGED,
    foreign: TENANT_NO_WRITE,
  },
  'DELETE /v1/knowledge/:p': {
    request: (x) => ({ url: `/v1/knowledge/${x.kb}` }),
    fresh: 'knowledge',
    own: TENANT_GONE,
    foreign: TENANT_NO_WRITE,
  },
  'POST /v1/knowledge/:p/sources': {
    request: (x, n) => ({
      url: `/v1/knowledge/${x.kb}/sources`,
      payload: { type: 'text', title: `Note ${n}`, text: 'The shop opens at nine.' },
    }),
    own: TENANT_MADE,
    foreign: TENANT_NO_WRITE,
  },
  'GET /v1/knowledge/:p/sources': {
    request: (x) => ({ url: `/v1/knowledge/${x.kb}/sources?page_size=100` }),
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body, x) => lists(body, x.source, x.qa),
  },
  'GET /v1/knowledge/:p/sources/:p': {
    request: (x) => ({ url: `/v1/knowledge/${x.kb}/sources/${x.source}` }),
    mixed: foreignSource,
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body, x) => obj(body).id === x.source && obj(body).state === 'ready',
  },
  'DELETE /v1/knowledge/:p/sources/:p': {
    request: (x) => ({ url: `/v1/knowledge/${x.kb}/sources/${x.source}` }),
    mixed: foreignSource,
    fresh: 'source',
    own: TENANT_GONE,
    foreign: TENANT_NO_WRITE,
  },
  'POST /v1/knowledge/:p/sources/:p/resync': {
    request: (x) => ({ url: `/v1/knowledge/${x.kb}/sources/${x.source}/resync` }),
    mixed: foreignSource,
    fresh: 'source',
    own: TENANT_CHANGED,
    foreign: TENANT_NO_WRITE,
  },
  'PUT /v1/knowledge/:p/sources/:p/sync': {
    request: (x) => ({
      url: `/v1/knowledge/${x.kb}/sources/${x.source}/sync`,
      payload: { frequency: 'off' },
    }),
    mixed: foreignSource,
    own: TENANT_CHANGED,
    foreign: TENANT_NO_WRITE,
  },
  'GET /v1/knowledge/:p/sources/:p/chunks': {
    request: (x) => ({ url: `/v1/knowledge/${x.kb}/sources/${x.source}/chunks?page_size=200` }),
    mixed: foreignSource,
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body, x) =>
      x.chunks.length > 0 && [...itemIds(body)].sort().join() === [...x.chunks].sort().join(),
  },
  'POST /v1/knowledge/:p/sources/bulk': {
    request: (x, n) => ({
      url: `/v1/knowledge/${x.kb}/sources/bulk`,
      payload: { sources: [{ type: 'text', title: `Bulk ${n}`, text: 'The shop opens at nine.' }] },
    }),
    own: TENANT_MADE,
    foreign: TENANT_NO_WRITE,
  },

  // Indexes: every role of an omnirag tenant reads and searches its own; all but agents write them, over its own
  // knowledge bases only.
  'GET /v1/indexes': {
    request: () => ({ url: '/v1/indexes?page_size=100' }),
    own: TENANT_READ,
    shows: (body, x) => lists(body, x.index),
  },
  'POST /v1/indexes': {
    request: (x, n) => ({
      url: '/v1/indexes',
      payload: { name: `Made ${n}`, knowledge_ids: [x.kb], mode: 'keyword' },
    }),
    own: TENANT_MADE,
    foreign: BODY_MISS,
    refusals: ['index/unknown-knowledge'],
  },
  'GET /v1/indexes/:p': {
    request: (x) => ({ url: `/v1/indexes/${x.index}` }),
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body, x) => obj(body).id === x.index && (obj(body).knowledge_ids as string[]).join() === x.kb,
  },
  'PATCH /v1/indexes/:p': {
    request: (x, n) => ({
      url: `/v1/indexes/${x.index}`,
      payload: { top_k: 5 + (n % 3), knowledge_ids: [x.kb] },
    }),
    // The caller's own index over another tenant's knowledge base.
    mixed: (own, foreign) => ({ ...own, kb: foreign.kb }),
    mixedStatuses: BODY_MISS,
    refusals: ['index/unknown-knowledge'],
    own: TENANT_CHANGED,
    foreign: TENANT_NO_WRITE,
  },
  'DELETE /v1/indexes/:p': {
    request: (x) => ({ url: `/v1/indexes/${x.index}` }),
    fresh: 'index',
    own: TENANT_GONE,
    foreign: TENANT_NO_WRITE,
  },
  'POST /v1/indexes/:p/search': {
    request: (x) => ({ url: `/v1/indexes/${x.index}/search`, payload: { query: CHUNK_QUESTION } }),
    own: TENANT_READ,
    foreign: TENANT_MISS,
    pure: true,
    shows: (body, x) => ownHits(obj(body).items as Array<{ id: string }>, x),
  },

  // RAGs: every role of an omnirag tenant reads and asks its own; all but agents write them, over its own index and
  // prompt only.
  'GET /v1/rags': {
    request: (x) => ({ url: `/v1/rags?page_size=100&index_id=${x.index}&prompt_id=${x.prompt}` }),
    own: TENANT_READ,
    foreign: TENANT_READ,
    filter: true,
    shows: (body, x) =>
      lists(body, x.rag) &&
      (obj(body).items as Array<{ index_id: string; prompt_id: string }>).every(
        (item) => item.index_id === x.index && item.prompt_id === x.prompt,
      ),
  },
  'POST /v1/rags': {
    request: (x, n) => ({
      url: '/v1/rags',
      payload: { name: `Made ${n}`, index_id: x.index, prompt_id: x.prompt, model_id: x.model },
    }),
    // The caller's own index with another tenant's prompt.
    mixed: (own, foreign) => ({ ...own, prompt: foreign.prompt }),
    mixedStatuses: BODY_MISS,
    refusals: ['rag/unknown-index', 'rag/unknown-prompt'],
    own: TENANT_MADE,
    foreign: BODY_MISS,
  },
  'GET /v1/rags/:p': {
    request: (x) => ({ url: `/v1/rags/${x.rag}` }),
    own: TENANT_READ,
    foreign: TENANT_MISS,
    shows: (body, x) =>
      obj(body).id === x.rag && obj(body).index_id === x.index && obj(body).prompt_id === x.prompt,
  },
  'PATCH /v1/rags/:p': {
    request: (x, n) => ({
      url: `/v1/rags/${x.rag}`,
      payload: {
        fallback_text: `Ask us again ${n}.`,
        index_id: x.index,
        prompt_id: x.prompt,
        model_id: x.model,
      },
    }),
    // The caller's own RAG given a chat model offered to another tenant only.
    mixed: (own, foreign) => ({ ...own, model: foreign.model }),
    mixedStatuses: BODY_MISS,
    refusals: ['rag/unknown-model'],
    own: TENANT_CHANGED,
    foreign: TENANT_NO_WRITE,
  },
  // Bots: every role of a tenant reads its own, all but agents write them; a RAG named in a body must be the caller's.
  'GET /v1/bots': {
    request: () => ({ url: '/v1/bots?page_size=100' }),
    //     adm usr agt key noR mst ano bad
    own: '200 200 200 200 200 200 401 401',
    // The caller without omnirag has no bot at all; every other caller sees its own.
    shows: (body, x) => lists(body, x.bot) || itemIds(body).length === 0,
  },
  'POST /v1/bots': {
    request: (x, n) => ({
      url: '/v1/bots',
      payload: { name: `Made ${n}`, config: { engines: { rag_id: x.rag } } },
    }),
    // A builtin bot over a RAG needs omnirag: without it the RAG is refused before it is looked up.
    //     adm usr agt key noR mst ano bad
    own: '201 201 403 201 403 201 401 401',
    foreign: '400 400 403 400 403 400 401 401',
    refusals: ['bot/unknown-rag'],
  },
  'GET /v1/bots/:p': {
    request: (x) => ({ url: `/v1/bots/${x.bot}` }),
    own: BOT_READ,
    foreign: BOT_MISS,
    shows: (body, x) => obj(body).id === x.bot,
  },
  'PATCH /v1/bots/:p': {
    request: (x, n) => ({
      url: `/v1/bots/${x.bot}`,
      payload: { config: { identity: { displayName: `Desk ${n}` }, engines: { rag_id: x.rag } } },
    }),
    // The caller's own bot with another tenant's RAG.
    mixed: (own, foreign) => ({ ...own, rag: foreign.rag }),
    mixedStatuses: BOT_BODY_MISS,
    refusals: ['bot/unknown-rag'],
    own: BOT_CHANGED,
    foreign: BOT_NO_WRITE,
  },
  'DELETE /v1/bots/:p': {
    request: (x) => ({ url: `/v1/bots/${x.bot}` }),
    fresh: 'bot',
    own: BOT_GONE,
    foreign: BOT_NO_WRITE,
  },
  'POST /v1/bots/:p/duplicate': {
    request: (x, n) => ({ url: `/v1/bots/${x.bot}/duplicate`, payload: { name: `Copy ${n}` } }),
    own: BOT_MADE,
    foreign: BOT_NO_WRITE,
  },
  'GET /v1/bots/:p/origins': {
    request: (x) => ({ url: `/v1/bots/${x.bot}/origins` }),
    own: BOT_READ,
    foreign: BOT_MISS,
    shows: (body) => Array.isArray(obj(body).items),
  },
  // Trying a bot's translator changes nothing, yet only those who configure bots may make it call out.
  'POST /v1/bots/:p/services/test': {
    request: (x) => ({ url: `/v1/bots/${x.bot}/services/test`, payload: { service: 'translate' } }),
    own: BOT_CHANGED,
    foreign: BOT_NO_WRITE,
    pure: true,
    shows: (body) => typeof obj(body).ok === 'boolean',
  },

  'DELETE /v1/rags/:p': {
    request: (x) => ({ url: `/v1/rags/${x.rag}` }),
    fresh: 'rag',
    own: TENANT_GONE,
    foreign: TENANT_NO_WRITE,
  },
  'POST /v1/rags/:p/answer': {
    request: (x) => ({ url: `/v1/rags/${x.rag}/answer`, payload: { question: CHUNK_QUESTION } }),
    streamed: true,
    own: TENANT_READ,
    foreign: TENANT_MISS,
    // Extractive until the PATCH row gives the RAG its chat model, whose test answer cites passage [1].
    shows: (body, x) =>
      ['extractive', 'model'].includes(String(obj(body).kind)) &&
      ownHits(obj(body).sources as Array<{ chunk_id: string }>, x) &&
      (obj(body).sources as Array<{ knowledge_id: string }>).every((source) => source.knowledge_id === x.kb),
  },

  // The bot playground: any signed-in caller of the bot's tenant; test suites: all but agents change them.
  'POST /v1/bots/:p/chat': {
    request: (x) => ({ url: `/v1/bots/${x.bot}/chat`, payload: { text: CHUNK_QUESTION } }),
    own: BOT_READ,
    foreign: BOT_MISS,
    shows: (body, x) => {
      const trace = obj(obj(body).trace);
      const chunks = (trace.chunks ?? []) as Array<{ chunk_id: string }>;
      return (
        trace.engine === 'builtin' && chunks.length > 0 && chunks.every((c) => x.chunks.includes(c.chunk_id))
      );
    },
  },
  'GET /v1/bots/:p/test-cases': {
    request: (x) => ({ url: `/v1/bots/${x.bot}/test-cases` }),
    own: BOT_READ,
    foreign: BOT_MISS,
    shows: (body, x) => lists(body, x.botCase),
  },
  'POST /v1/bots/:p/test-cases': {
    request: (x, n) => ({
      url: `/v1/bots/${x.bot}/test-cases`,
      payload: { question: `Question ${n}?`, expected_source_id: x.source },
    }),
    own: BOT_MADE,
    foreign: BOT_NO_WRITE,
    mixed: foreignCaseSource,
    mixedStatuses: BOT_BODY_MISS,
    refusals: ['bot-test/unknown-source'],
  },
  'PATCH /v1/bots/:p/test-cases/:p': {
    request: (x, n) => ({
      url: `/v1/bots/${x.bot}/test-cases/${x.botCase}`,
      payload: { expected_text: `Text ${n}` },
    }),
    own: BOT_CHANGED,
    foreign: BOT_NO_WRITE,
    mixed: foreignCase,
  },
  'DELETE /v1/bots/:p/test-cases/:p': {
    request: (x) => ({ url: `/v1/bots/${x.bot}/test-cases/${x.botCase}` }),
    fresh: 'botCase',
    own: BOT_GONE,
    foreign: BOT_NO_WRITE,
    mixed: foreignCase,
  },
  'GET /v1/bots/:p/test-sources': {
    request: (x) => ({ url: `/v1/bots/${x.bot}/test-sources` }),
    own: BOT_READ,
    foreign: BOT_MISS,
    shows: (body, x) => lists(body, x.source, x.qa),
  },
  'POST /v1/bots/:p/test-runs': {
    request: (x) => ({ url: `/v1/bots/${x.bot}/test-runs` }),
    fresh: 'bot',
    //     adm usr agt key noR mst ano bad
    own: '202 202 403 202 404 202 401 401',
    foreign: BOT_NO_WRITE,
  },
  'GET /v1/bots/:p/test-runs': {
    request: (x) => ({ url: `/v1/bots/${x.bot}/test-runs` }),
    own: BOT_READ,
    foreign: BOT_MISS,
    shows: (body, x) => lists(body, x.botRun),
  },
  'GET /v1/test-runs/:p': {
    request: (x) => ({ url: `/v1/test-runs/${x.botRun}` }),
    own: BOT_READ,
    foreign: BOT_MISS,
    shows: (body, x) => obj(body).id === x.botRun && obj(body).status === 'done',
  },
};

/** Tables whose rows carry `id` and `tenant_id`: their ids must never reach another tenant. */
const TENANT_TABLES = [
  'knowledge_bases',
  'knowledge_sources',
  'knowledge_chunks',
  'knowledge_qa',
  'prompts',
  'prompt_versions',
  'models',
  'indexes',
  'rags',
  'rag_answers',
  'bots',
  'bot_test_cases',
  'bot_test_runs',
];
/** Every table the Omni RAG routes write: equal digests mean nothing changed. */
const FINGERPRINTED = [
  ...TENANT_TABLES,
  'knowledge_postings',
  'knowledge_base_stats',
  'model_shares',
  'index_knowledge_bases',
  'chunk_embeddings',
  'audit_log',
];

/** The events of a Server-Sent Events body, in order. */
const eventsOf = (body: string) =>
  body
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const field = (name: string) =>
        block
          .split('\n')
          .find((line) => line.startsWith(`${name}: `))
          ?.slice(name.length + 2) ?? '';
      return { event: field('event'), data: JSON.parse(field('data')) as unknown };
    });

/** A JSON body, or of an event stream the whole answer its one `sources` event carries. */
const parse = (body: string): unknown =>
  !body
    ? null
    : body.startsWith('event: ')
      ? eventsOf(body).find((event) => event.event === 'sources')?.data
      : JSON.parse(body);

/** The walk's calls: each principal on each route, once per target and per answer format (JSON, event stream). */
const WALK_CALLS =
  PRINCIPALS.length *
  Object.values(ROUTES).reduce(
    (sum, row) => sum + (1 + (row.foreign ? 2 : 0) + (row.mixed ? 2 : 0)) * (row.streamed ? 2 : 1),
    0,
  );
const READ_ROUTES = Object.keys(ROUTES).filter((key) => key.startsWith('GET ')).length;
/** The reads walk's calls: five viewers on each read, of their own, unknown and two other tenants' ids. */
const READS_CALLS = 5 * READ_ROUTES * 4;
/** The answers walk's calls: six viewers searching twice and answering twice in JSON and twice streamed. */
const ANSWER_CALLS = 6 * (2 + 4);

describe('Omni RAG authorisation matrix and tenant isolation', () => {
  let t: TestApp;
  let served: ServedRoute[] = [];
  const tenantIds = {} as Record<TenantKey | 'P' | 'N', string>;
  const resources = {} as Record<TenantKey, Resources>;
  const callers = {} as Record<PrincipalName, Caller>;
  /** Who makes a tenant's throwaway resources and models (the model of B comes from its partner P). */
  const makers = {} as Record<TenantKey, { knowledge: Caller; models: Caller; shareWith: string[] }>;
  let bAdmin: Caller = {};
  let n = 0;

  const call = (
    method: Method,
    url: string,
    caller: Caller,
    payload?: unknown,
    headers?: Record<string, string>,
  ) => injectAs(t, method, url, caller, payload, headers);
  const fingerprint = () => tablesFingerprint(t, FINGERPRINTED);

  async function made<T extends { id: string }>(
    method: Method,
    url: string,
    caller: Caller,
    payload: unknown,
  ) {
    const response = await call(method, url, caller, payload);
    if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
    return response.json<T>();
  }

  async function ingest(tenant: string, sourceId: string) {
    await runIngestion(
      {
        db: t.database.db,
        env: t.env,
        storage: t.app.files.storage,
        fetch: createGuardedFetch({ allowAddresses: t.env.FETCH_ALLOW_ADDRESSES }),
        log: t.app.log,
      },
      { tenantId: tenant, sourceId },
    );
  }

  /**
   * The same knowledge (a text source and a Q&A pair), prompt, keyword index over the knowledge base and RAG over
   * the index with the prompt in a tenant, the text read into chunks.
   */
  async function seedTenant(key: TenantKey): Promise<Resources> {
    const maker = makers[key];
    const kb = await made('POST', '/v1/knowledge', maker.knowledge, { name: 'Handbook', language: 'en' });
    const source = await made('POST', `/v1/knowledge/${kb.id}/sources`, maker.knowledge, {
      type: 'text',
      title: 'Opening hours',
      text: 'The bakery on Quayside opens at seven and sells sourdough until noon. '.repeat(40),
    });
    const qa = await made('POST', `/v1/knowledge/${kb.id}/sources`, maker.knowledge, {
      type: 'qa',
      question: 'When does the bakery open?',
      answer: 'At seven.',
    });
    const prompt = await made('POST', '/v1/prompts', maker.knowledge, {
      name: 'Support',
      template: 'Answer {{question}} from {{context}}',
    });
    const tenant = tenantIds[key];
    await ingest(tenant, source.id);
    await ingest(tenant, qa.id);
    const chunks = rowsOf<{ id: string }>(
      await t.database.db.execute(
        sql`select id::text as id from knowledge_chunks where tenant_id = ${tenant} and source_id = ${source.id}`,
      ),
    ).map((row) => row.id);
    const index = await made('POST', '/v1/indexes', maker.knowledge, {
      name: 'Handbook index',
      knowledge_ids: [kb.id],
      mode: 'keyword',
    });
    const rag = await made('POST', '/v1/rags', maker.knowledge, {
      name: 'Support RAG',
      index_id: index.id,
      prompt_id: prompt.id,
    });
    const bot = await made('POST', '/v1/bots', maker.knowledge, {
      name: 'Support bot',
      config: { engines: { rag_id: rag.id } },
    });
    const botCase = await made('POST', `/v1/bots/${bot.id}/test-cases`, maker.knowledge, {
      question: CHUNK_QUESTION,
      expected_source_id: source.id,
    });
    const [botRun] = await t.database.db
      .insert(botTestRuns)
      .values({ tenantId: tenant, botId: bot.id, status: 'done', total: 1, passed: 1 })
      .returning({ id: botTestRuns.id });
    return {
      kb: kb.id,
      source: source.id,
      qa: qa.id,
      prompt: prompt.id,
      model: '',
      chunks,
      index: index.id,
      rag: rag.id,
      bot: bot.id,
      botCase: botCase.id,
      botRun: defined(botRun).id,
    };
  }

  /** A throwaway of `kind` in `key`'s tenant, for a call that consumes it. */
  async function makeFresh(kind: FreshKind, key: TenantKey, x: Resources): Promise<Resources> {
    const maker = makers[key];
    n += 1;
    switch (kind) {
      case 'knowledge':
        return {
          ...x,
          kb: (
            await made('POST', '/v1/knowledge', maker.knowledge, { name: `Throwaway ${n}`, language: 'en' })
          ).id,
        };
      case 'source':
        return {
          ...x,
          source: (
            await made('POST', `/v1/knowledge/${x.kb}/sources`, maker.knowledge, {
              type: 'text',
              title: `Throwaway ${n}`,
              text: 'Gone soon.',
            })
          ).id,
        };
      case 'prompt':
        return {
          ...x,
          prompt: (
            await made('POST', '/v1/prompts', maker.knowledge, { name: `Throwaway ${n}`, template: 'x' })
          ).id,
        };
      case 'model':
        return {
          ...x,
          model: (
            await made('POST', '/v1/models', maker.models, chatModel(n, modelServer.baseUrl, maker.shareWith))
          ).id,
        };
      case 'index':
        // No RAG uses it, so that a delete may take it.
        return {
          ...x,
          index: (
            await made('POST', '/v1/indexes', maker.knowledge, {
              name: `Throwaway ${n}`,
              knowledge_ids: [x.kb],
              mode: 'keyword',
            })
          ).id,
        };
      case 'rag':
        return {
          ...x,
          rag: (
            await made('POST', '/v1/rags', maker.knowledge, { name: `Throwaway ${n}`, index_id: x.index })
          ).id,
        };
      case 'bot': {
        // A bot with a case and no run, so that a run may start.
        const bot = await made('POST', '/v1/bots', maker.knowledge, { name: `Throwaway ${n}` });
        await made('POST', `/v1/bots/${bot.id}/test-cases`, maker.knowledge, {
          question: 'Anything?',
          expected_text: 'x',
        });
        return { ...x, bot: bot.id };
      }
      case 'botCase':
        return {
          ...x,
          botCase: (
            await made('POST', `/v1/bots/${x.bot}/test-cases`, maker.knowledge, {
              question: `Throwaway ${n}?`,
              expected_text: 'x',
            })
          ).id,
        };
    }
  }

  const unknownResources = (): Resources => ({
    kb: randomUUID(),
    source: randomUUID(),
    qa: randomUUID(),
    prompt: randomUUID(),
    model: randomUUID(),
    chunks: [],
    index: randomUUID(),
    rag: randomUUID(),
    bot: randomUUID(),
    botCase: randomUUID(),
    botRun: randomUUID(),
  });

  /** Ids of rows of other tenants, except the model offered to `key`: none of them may reach `key`'s callers. */
  async function idsKeptFrom(key: TenantKey): Promise<Set<string>> {
    const ids = await idsOfOtherTenants(t, TENANT_TABLES, tenantIds[key]);
    ids.delete(resources[key].model);
    return ids;
  }

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        RATE_LIMIT_MAX: '100000',
        RAG_ANSWER_RATE_LIMIT: '100000',
        BOT_CHAT_RATE_LIMIT: '100000',
        FETCH_ALLOW_ADDRESSES: TEST_FETCH_ALLOW,
      },
    });
    modelServer = await startOpenAICompatibleServer({ dimensions: 32 });
    const platform = await platformTenantId(t);
    Object.assign(tenantIds, { platform, A: 'rag-a', B: 'rag-b', P: 'rag-p', N: 'rag-n' });
    await makeTenant(t, { tenantId: tenantIds.P, parent: platform, type: '2', domain: 'p.matrix.test' });
    await makeTenant(t, { tenantId: tenantIds.A, parent: platform, type: '3', domain: 'a.matrix.test' });
    await makeTenant(t, { tenantId: tenantIds.B, parent: tenantIds.P, type: '3', domain: 'b.matrix.test' });
    await makeTenant(t, {
      tenantId: tenantIds.N,
      parent: platform,
      type: '3',
      domain: 'n.matrix.test',
      codes: ['casesummary'],
    });
    const cookie = async (tenant: string, email: string, role: string) => ({
      cookie: (await makeSignedInUser(t, tenant, email, role)).cookie,
    });
    const aCredential = await basicCredential(t, tenantIds.A);
    callers['omnirag administrator'] = await cookie(tenantIds.A, 'admin@a.matrix.test', 'administrator');
    callers['omnirag user'] = await cookie(tenantIds.A, 'user@a.matrix.test', 'user');
    callers['omnirag agent'] = await cookie(tenantIds.A, 'agent@a.matrix.test', 'agent');
    callers['omnirag API credential'] = { authorization: aCredential };
    callers['administrator without omnirag'] = await cookie(
      tenantIds.N,
      'admin@n.matrix.test',
      'administrator',
    );
    callers['platform master'] = { cookie: await sessionCookie(t, 'admin@example.com', TEST_ADMIN_PASSWORD) };
    callers.anonymous = {};
    callers['wrong API credential'] = { authorization: withWrongSecret(aCredential) };
    bAdmin = await cookie(tenantIds.B, 'admin@b.matrix.test', 'administrator');
    const partnerMaster = await cookie(tenantIds.P, 'boss@p.matrix.test', 'master');
    const master = callers['platform master'];
    makers.A = { knowledge: callers['omnirag administrator'], models: master, shareWith: [tenantIds.A] };
    makers.B = { knowledge: bAdmin, models: partnerMaster, shareWith: [tenantIds.B] };
    makers.platform = { knowledge: master, models: master, shareWith: [] };

    for (const key of ['A', 'B', 'platform'] as const) resources[key] = await seedTenant(key);
    // The platform's model is offered to A (and is the platform's own); P's model is offered to B.
    const platformModel = await made(
      'POST',
      '/v1/models',
      master,
      chatModel(0, modelServer.baseUrl, [tenantIds.A]),
    );
    const partnerModel = await made(
      'POST',
      '/v1/models',
      partnerMaster,
      chatModel(0, modelServer.baseUrl, [tenantIds.B]),
    );
    resources.A.model = platformModel.id;
    resources.platform.model = platformModel.id;
    resources.B.model = partnerModel.id;

    served = servedRoutes(t, underPrefixes(PREFIXES, ELSEWHERE));
  });
  afterAll(async () => {
    await modelServer.close();
    await t.close();
  });

  it('has an expectation row for every Omni RAG route of the server, and no row without a route', () => {
    expectRowForEveryRoute(served, ROUTES);
    expectOneColumnPerPrincipal(
      Object.values(ROUTES).flatMap((row) => [row.own, row.foreign, row.mixedStatuses]),
      PRINCIPALS,
    );
  });

  it(
    'keeps identical knowledge and prompts of two tenants apart on every read',
    async () => {
      // The content is the same in A and B (same names, texts and Q&A pair), only the ids differ.
      const names = async (caller: Caller) => {
        const listed: string[] = [];
        for (const url of ['/v1/knowledge', '/v1/prompts']) {
          const body = (await call('GET', url, caller)).json<{ items: Array<{ name: string }> }>();
          listed.push(...body.items.map((item) => `${url} ${item.name}`));
        }
        return listed;
      };
      expect(await names(bAdmin)).toEqual(['/v1/knowledge Handbook', '/v1/prompts Support']);
      expect(await names(callers['omnirag administrator'])).toEqual(await names(bAdmin));
      expect(resources.A.chunks.length).toBeGreaterThan(1);
      expect(resources.B.chunks).toHaveLength(resources.A.chunks.length);

      const viewers: Array<{ name: string; caller: Caller; own: TenantKey; others: TenantKey[] }> = [
        {
          name: 'A administrator',
          caller: callers['omnirag administrator'],
          own: 'A',
          others: ['B', 'platform'],
        },
        { name: 'A agent', caller: callers['omnirag agent'], own: 'A', others: ['B', 'platform'] },
        {
          name: 'A API credential',
          caller: callers['omnirag API credential'],
          own: 'A',
          others: ['B', 'platform'],
        },
        { name: 'B administrator', caller: bAdmin, own: 'B', others: ['A', 'platform'] },
        { name: 'platform master', caller: callers['platform master'], own: 'platform', others: ['A', 'B'] },
      ];
      const reads = served.filter((route) => route.method === 'GET');
      expect(reads.length).toBeGreaterThan(0);
      const problems: string[] = [];
      for (const viewer of viewers) {
        const keptFrom = await idsKeptFrom(viewer.own);
        const mine = resources[viewer.own];
        for (const route of reads) {
          const row = defined(ROUTES[route.key]);
          const own = await call('GET', row.request(mine, 0).url, viewer.caller);
          const label = `${viewer.name} × ${route.key}`;
          const body = parse(own.body);
          if (own.statusCode === 200 && row.shows && !row.shows(body, mine))
            problems.push(`${label}: own not shown`);
          const leaked = stringsIn(body).filter((value) => keptFrom.has(value));
          if (leaked.length > 0) problems.push(`${label}: shows ids of others ${leaked.join(', ')}`);
          if (!row.foreign) continue;
          const unknown = await call('GET', row.request(unknownResources(), 0).url, viewer.caller);
          for (const other of viewer.others) {
            const url = row.request(resources[other], 0).url;
            // A model the platform offers to A is the platform's own: that URL names nothing of another tenant.
            if (url === row.request(mine, 0).url) continue;
            const theirs = await call('GET', url, viewer.caller);
            const answer = parse(theirs.body);
            // A list filtered by another tenant's ids lists nothing; any other read of them is refused.
            if (theirs.statusCode < 400 && !(row.filter && itemIds(answer).length === 0))
              problems.push(`${label} of ${other}: ${theirs.statusCode}`);
            if (
              theirs.statusCode !== unknown.statusCode ||
              obj(answer).code !== obj(parse(unknown.body)).code
            ) {
              problems.push(`${label} of ${other}: ${theirs.body} but unknown ids: ${unknown.body}`);
            }
            if (stringsIn(answer).some((value) => keptFrom.has(value)))
              problems.push(`${label} of ${other}: ids`);
          }
        }
      }
      expect(problems).toEqual([]);
      // The other tenant's chunk listing answers like an unknown source, for the administrator and the key.
      for (const caller of [callers['omnirag administrator'], callers['omnirag API credential']]) {
        const chunks = await call(
          'GET',
          ROUTES['GET /v1/knowledge/:p/sources/:p/chunks']?.request(resources.B, 0).url ?? '',
          caller,
        );
        expect(chunks.statusCode).toBe(404);
        expect(chunks.json()).toMatchObject({ code: 'not_found' });
      }
    },
    timeLimit({ calls: READS_CALLS }),
  );

  it(
    "searches and answers from the caller's own knowledge only, in JSON and streamed, with identical content",
    async () => {
      const viewers: Array<{ name: string; caller: Caller; own: TenantKey }> = [
        { name: 'A administrator', caller: callers['omnirag administrator'], own: 'A' },
        { name: 'A user', caller: callers['omnirag user'], own: 'A' },
        { name: 'A agent', caller: callers['omnirag agent'], own: 'A' },
        { name: 'A API credential', caller: callers['omnirag API credential'], own: 'A' },
        { name: 'B administrator', caller: bAdmin, own: 'B' },
        { name: 'platform master', caller: callers['platform master'], own: 'platform' },
      ];
      const problems: string[] = [];
      for (const viewer of viewers) {
        const mine = resources[viewer.own];
        const keptFrom = await idsKeptFrom(viewer.own);
        // Every id of another tenant, anywhere in the raw text of the answer (event streams included).
        const leaks = (label: string, raw: string) => {
          const leaked = [...keptFrom].filter((id) => raw.includes(id));
          if (leaked.length > 0)
            problems.push(`${viewer.name} × ${label}: ids of others ${leaked.join(', ')}`);
        };
        for (const query of [CHUNK_QUESTION, QA_QUESTION]) {
          const search = await call('POST', `/v1/indexes/${mine.index}/search`, viewer.caller, { query });
          const hits = obj(parse(search.body)).items as Array<{
            id: string;
            source: { knowledge_id: string };
          }>;
          if (search.statusCode !== 200 || hits.length === 0)
            problems.push(`${viewer.name} × search ${query}`);
          else if (hits.some((hit) => hit.source.knowledge_id !== mine.kb))
            problems.push(`${viewer.name} × search ${query}: not its knowledge base`);
          leaks(`search ${query}`, search.body);
        }
        for (const stream of [false, true]) {
          for (const [question, kind, shown] of [
            [CHUNK_QUESTION, 'extractive', mine.chunks],
            [QA_QUESTION, 'qa', [mine.qa]],
          ] as const) {
            const label = `answer ${question}${stream ? ' (stream)' : ''}`;
            const response = await call(
              'POST',
              `/v1/rags/${mine.rag}/answer`,
              viewer.caller,
              { question },
              stream ? { accept: 'text/event-stream' } : undefined,
            );
            const body = obj(parse(response.body));
            const sources = (body.sources ?? []) as Array<{
              chunk_id: string;
              source_id: string;
              knowledge_id: string;
            }>;
            if (response.statusCode !== 200 || body.kind !== kind || sources.length === 0)
              problems.push(
                `${viewer.name} × ${label}: ${response.statusCode} ${response.body.slice(0, 200)}`,
              );
            if (stream && !response.headers['content-type']?.toString().startsWith('text/event-stream'))
              problems.push(`${viewer.name} × ${label}: not an event stream`);
            for (const source of sources) {
              const where = kind === 'qa' ? source.source_id : source.chunk_id;
              if (source.knowledge_id !== mine.kb || !shown.includes(where))
                problems.push(`${viewer.name} × ${label}: cites ${JSON.stringify(source)}`);
            }
            leaks(label, response.body);
          }
        }
        // What was recorded of the answers names the tenant's own chunks only.
        await t.app.ragAnswers.flush();
        const recorded = rowsOf<{ chunks: string }>(
          await t.database.db.execute(
            sql`select chunks::text as chunks from rag_answers where tenant_id = ${tenantIds[viewer.own]}`,
          ),
        );
        leaks('recorded answers', recorded.map((row) => row.chunks).join());
      }
      expect(problems).toEqual([]);
    },
    timeLimit({ calls: ANSWER_CALLS }),
  );

  it('refuses to delete an index a RAG uses with 409 for every allowed caller, and changes nothing', async () => {
    const before = await fingerprint();
    for (const principal of PRINCIPALS) {
      const expected = expectedStatus(TENANT_CHANGED, PRINCIPALS.indexOf(principal));
      const response = await call(
        'DELETE',
        `/v1/indexes/${resources[TARGETS[principal].own].index}`,
        callers[principal],
      );
      expect(response.statusCode).toBe(expected === 200 ? 409 : expected);
      if (expected === 200) expect(response.json()).toMatchObject({ code: 'index/in-use' });
      // Another tenant's index in use answers like an unknown one.
      const theirs = await call('DELETE', `/v1/indexes/${resources.B.index}`, callers[principal]);
      const unknown = await call('DELETE', `/v1/indexes/${randomUUID()}`, callers[principal]);
      expect(`${theirs.statusCode} ${theirs.body}`).toBe(`${unknown.statusCode} ${unknown.body}`);
    }
    expect(await fingerprint()).toBe(before);
  });

  it(
    'answers every principal as written, foreign ids like unknown ones, and changes nothing it refuses',
    async () => {
      let before = await fingerprint();
      // Answers are compared with the ids of the call masked (a message may name the id it did not find).
      const mask = (body: string, x: Resources) =>
        Object.values(x)
          .filter((id): id is string => typeof id === 'string' && id.length > 0)
          .reduce((text, id) => text.replaceAll(id, '<id>'), body);

      const walk = await walkMatrix(PRINCIPALS, served, async ({ principal, column, route, wrong }) => {
        const caller = callers[principal];
        const row = defined(ROUTES[route.key]);
        let calls = 0;
        // Unknown ids first: another tenant's ids, alone or under the caller's own parent, must be answered alike.
        const targets: Array<[Target, string]> = [['own', row.own]];
        if (row.foreign) targets.push(['unknown', row.foreign], ['foreign', row.foreign]);
        if (row.mixed) {
          const statuses = row.mixedStatuses ?? row.foreign ?? row.own;
          targets.push(['own parent, unknown child', statuses], ['own parent, foreign child', statuses]);
        }
        for (const streamed of row.streamed ? [false, true] : [false]) {
          let unknownAnswer = '';
          for (const [target, statuses] of targets) {
            const expected = expectedStatus(statuses, column);
            const { own, foreign } = TARGETS[principal];
            const unknown = target === 'unknown' || target === 'own parent, unknown child';
            let x = target === 'own' ? resources[own] : unknown ? unknownResources() : resources[foreign];
            if (row.fresh && !unknown) x = await makeFresh(row.fresh, target === 'own' ? own : foreign, x);
            if (target.startsWith('own parent')) x = defined(row.mixed)(resources[own], x);
            if (row.fresh) before = await fingerprint();
            const request = row.request(x, ++n);
            const headers = streamed ? { accept: 'text/event-stream' } : undefined;
            const response = await call(route.method, request.url, caller, request.payload, headers);
            calls += 1;
            const label = `${principal} × ${target} × ${route.key}${streamed ? ' (stream)' : ''}: ${response.statusCode} ${response.body.slice(0, 160)}`;
            const body = parse(response.body);
            const after = await fingerprint();
            if (response.statusCode !== expected) wrong.push(`${label} (expected ${expected})`);
            if (response.statusCode >= 400) {
              if (after !== before) wrong.push(`${label}: refused but changed the database`);
              if (!isKnownRefusal(response.statusCode, body, row.refusals))
                wrong.push(`${label}: not a known refusal`);
            } else {
              if ((route.method === 'GET' || row.pure) && after !== before)
                wrong.push(`${label}: a read wrote`);
              if (target === 'own' && row.shows && !row.shows(body, x))
                wrong.push(`${label}: does not show it`);
              if (row.filter && target !== 'own' && itemIds(body).length > 0)
                wrong.push(`${label}: lists by ids the caller does not own`);
            }
            const answer = `${response.statusCode} ${mask(response.body, x)}`;
            if (unknown) unknownAnswer = answer;
            else if (target !== 'own' && answer !== unknownAnswer) {
              wrong.push(`${label}: unknown ids were answered ${unknownAnswer}`);
            }
            before = after;
          }
        }
        return calls;
      });
      expectNothingWrong('Omni RAG', walk, served.length, PRINCIPALS.length);
      expect(walk.attempts).toBeGreaterThan(served.length * PRINCIPALS.length);
      // Its time limit counts these calls.
      expect(walk.attempts).toBe(WALK_CALLS);
    },
    timeLimit({ calls: WALK_CALLS }),
  );
});
