import { WIDGET_ERRORS, type WidgetConfig } from '@omnibot/contracts';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { hitCounter } from '../../lib/rate-limit-store';
import { type BotSecrets, originListedBySomeBot, servableBot, type StoredBot } from '../bots/bots.service';
import { type ConversationTokens, createConversationTokens } from './conversation-token';
import { conversationOf } from './visitor.service';

const RATE_WINDOW_MS = 60_000;
/**
 * Reports of sites a bot is not allowed on that one client address may make a minute: a real visitor loads a few
 * pages a minute, and a script naming made-up sites from one address cannot churn the bot's list of sites.
 */
export const SIGHTINGS_PER_ADDRESS = 10;
const PREFLIGHT_MAX_AGE_SECONDS = 600;

const widgetBotNotFound = () =>
  new AppError(404, 'widget/bot-not-found', WIDGET_ERRORS['widget/bot-not-found']);
const widgetOriginNotAllowed = () =>
  new AppError(403, 'widget/origin-not-allowed', WIDGET_ERRORS['widget/origin-not-allowed']);
export const widgetRateLimited = (ttlMs: number) =>
  new AppError(429, 'widget/rate-limited', WIDGET_ERRORS['widget/rate-limited'], {
    'retry-after': String(Math.max(1, Math.ceil(ttlMs / 1000))),
  });

/** What a public widget route knows about where a request came from. */
export interface WidgetOrigin {
  /** The page origin the browser named (Origin, else the origin of Referer); null for non-browser clients. */
  origin: string | null;
  /** True when that origin is this server's own (the widget iframe, /demo, the console). */
  own: boolean;
}

/** The access rules every public widget route shares: which bot, from which site, how often. */
export interface WidgetAccess {
  /** The bot with its configuration opened, or 404 `widget/bot-not-found` (unknown, disabled, tenant not usable). */
  resolveWidgetBot(botId: string): Promise<StoredBot>;
  /**
   * Sends `Vary: Origin` and, for a foreign origin the bot lists, the CORS headers. With `refuse` (the POST routes)
   * a request from a site that is neither ours nor listed is refused with 403 `widget/origin-not-allowed`.
   */
  applyWidgetCors(
    request: FastifyRequest,
    reply: FastifyReply,
    config: WidgetConfig,
    options?: { refuse?: boolean },
  ): WidgetOrigin;
  /** Answers a CORS preflight: 204 for our own origin or one a servable bot lists, else 403. */
  answerPreflight(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  /** Counts a request against the per-address budget of `scope` (429 `widget/rate-limited` over it). */
  limitAddress(request: FastifyRequest, scope: string): Promise<void>;
  /** Counts a report of a site the bot is not allowed on against its address's budget (429 over it). */
  limitSightings(request: FastifyRequest): Promise<void>;
  /** The page the browser names in the Origin header alone (what a request without CORS still carries). */
  namedOrigin(request: FastifyRequest): WidgetOrigin;
  /** Counts a request against the per-visitor budget of `scope`: the conversation, or the address before one. */
  limitVisitor(request: FastifyRequest, scope: string, conversationId: string | null): Promise<void>;
  /** Signs and checks conversation tokens (each bound to one bot). */
  tokens: ConversationTokens;
  /** The id of the bot's conversation a token names; 403 `widget/invalid-conversation` otherwise. */
  visitorConversation(bot: StoredBot, token: string): Promise<string>;
}

/** The origin of a URL-ish header value, or null when it is not an http(s) URL. */
function originOf(value: string | undefined): string | null {
  if (value === undefined || value === 'null') return null;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/** The page origin of a request: its Origin header, else the origin of its Referer. */
function requestPageOrigin(request: FastifyRequest): string | null {
  const origin = request.headers.origin;
  if (origin !== undefined) return originOf(origin) ?? origin;
  return originOf(request.headers.referer);
}

export function createWidgetAccess(deps: {
  db: Db;
  env: Env;
  /** Opens bots' sealed settings. */
  botSecrets: BotSecrets;
  /** Keys the conversation tokens (a key derived for that purpose alone). */
  installationSecret: string;
  log: FastifyBaseLogger;
}): WidgetAccess {
  const { db, env, log } = deps;
  const secrets = deps.botSecrets;
  const tokens = createConversationTokens(deps.installationSecret);
  const publicOrigin = new URL(env.PUBLIC_URL).origin;

  const isOwn = (request: FastifyRequest, origin: string) =>
    origin === publicOrigin || origin === originOf(`${request.protocol}://${request.host}`);

  const listedBySomeBot = (origin: string) => originListedBySomeBot(db, origin);

  async function limit(bucket: string, key: string, max: number) {
    let hit;
    try {
      hit = await hitCounter(db, bucket, key, RATE_WINDOW_MS);
    } catch (error) {
      // An outage of the counters must not turn every visitor message into an error.
      log.warn({ bucket, error: (error as Error).message }, 'widget rate limit unavailable: let through');
      return;
    }
    if (hit.current > max) throw widgetRateLimited(hit.ttl);
  }

  return {
    tokens,
    namedOrigin(request) {
      const origin = originOf(request.headers.origin);
      return { origin, own: origin !== null && isOwn(request, origin) };
    },
    visitorConversation: async (bot, token) => (await conversationOf(db, tokens, bot, token)).id,

    async resolveWidgetBot(botId) {
      const row = await servableBot(db, botId);
      if (!row) throw widgetBotNotFound();
      return { row, config: secrets.open(row.config) };
    },

    applyWidgetCors(request, reply, config, options = {}) {
      reply.header('vary', 'Origin');
      const origin = requestPageOrigin(request);
      if (origin === null) return { origin: null, own: false };
      if (isOwn(request, origin)) return { origin, own: true };
      if (config.install.allowedOrigins.includes(origin)) {
        if (request.headers.origin === origin) {
          reply.header('access-control-allow-origin', origin);
          reply.header('access-control-expose-headers', 'retry-after');
        }
        return { origin, own: false };
      }
      if (options.refuse) throw widgetOriginNotAllowed();
      return { origin: null, own: false };
    },

    async answerPreflight(request, reply) {
      reply.header('vary', 'Origin');
      const origin = request.headers.origin;
      if (origin === undefined || !(isOwn(request, origin) || (await listedBySomeBot(origin)))) {
        throw widgetOriginNotAllowed();
      }
      await reply
        .status(204)
        .header('access-control-allow-origin', origin)
        .header('access-control-allow-methods', 'POST')
        .header('access-control-allow-headers', 'content-type, accept')
        .header('access-control-max-age', String(PREFLIGHT_MAX_AGE_SECONDS))
        .send();
    },

    limitAddress: (request, scope) => limit(`widget:${scope}:address`, request.ip, env.WIDGET_RATE_LIMIT_IP),

    limitSightings: (request) => limit('widget:sightings:address', request.ip, SIGHTINGS_PER_ADDRESS),

    limitVisitor: (request, scope, conversationId) =>
      limit(
        `widget:${scope}:visitor`,
        conversationId === null ? `address:${request.ip}` : `conversation:${conversationId}`,
        env.WIDGET_RATE_LIMIT_CONVERSATION,
      ),
  };
}
