import { createHash, createPrivateKey, createSign, type KeyObject } from 'node:crypto';
import {
  type DialogflowAgent,
  type DialogflowCxSettings,
  dialogflowApiBaseOf,
  type ServiceAccountKey,
} from '@omnibot/contracts';
import { FetchError, type GuardedWebFetch } from '../../../lib/guarded-http/guarded-fetch';

/**
 * A client of the Dialogflow CX v3 REST API (detectIntent, agents.get) with Google's OAuth2 JWT-bearer grant
 * (RFC 7523): a JWT signed RS256 with the service account's private key is exchanged at the key's token_uri for an
 * access token, cached until shortly before it expires. Written with node:crypto and the guarded fetch so every
 * call obeys the address policy and can be pointed at a regional, private or local server.
 */

const SCOPE = 'https://www.googleapis.com/auth/cloud-platform https://www.googleapis.com/auth/dialogflow';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const ASSERTION_LIFETIME_S = 3600;
/** A token is renewed this long before Google says it expires, so none expires in flight. */
const TOKEN_MARGIN_MS = 60_000;
const TOKEN_CACHE_MAX = 500;
/** A Dialogflow session id is at most 36 characters. */
export const DIALOGFLOW_SESSION_MAX = 36;

/** Why a call failed: a stable code and a reason in plain words, never with the key or a token in it. */
export class DialogflowError extends Error {
  constructor(
    readonly code: string,
    readonly reason: string,
    /** The guarded client's code when it refused the address (fetch/blocked-address...). */
    readonly fetchCode: string | null = null,
  ) {
    super(reason);
    this.name = 'DialogflowError';
  }
}

/** A parsed key with its private key ready to sign. */
export interface DialogflowCredentials {
  key: ServiceAccountKey;
  signer: KeyObject;
}

/** The private key of a service-account key, or a DialogflowError when it is not an RSA key. */
export function credentialsOf(key: ServiceAccountKey): DialogflowCredentials {
  let signer: KeyObject;
  try {
    signer = createPrivateKey({ key: key.private_key, format: 'pem' });
  } catch {
    throw new DialogflowError('dialogflow/invalid-key', 'The private_key of the key file cannot be read.');
  }
  if (signer.asymmetricKeyType !== 'rsa') {
    throw new DialogflowError('dialogflow/invalid-key', 'The private_key of the key file is not an RSA key.');
  }
  return { key, signer };
}

interface CachedToken {
  token: string;
  expiresAt: number;
}
const tokens = new Map<string, CachedToken>();

const cacheKeyOf = ({ key }: DialogflowCredentials) =>
  createHash('sha256')
    .update(`${key.client_email}\n${key.private_key_id}\n${key.token_uri}\n${key.private_key}`)
    .digest('base64url');

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

/** The signed JWT of the JWT-bearer grant. */
export function signedAssertion({ key, signer }: DialogflowCredentials, now = Date.now()): string {
  const iat = Math.floor(now / 1000);
  const header = { alg: 'RS256', typ: 'JWT', ...(key.private_key_id ? { kid: key.private_key_id } : {}) };
  const claims = {
    iss: key.client_email,
    sub: key.client_email,
    scope: SCOPE,
    aud: key.token_uri,
    iat,
    exp: iat + ASSERTION_LIFETIME_S,
  };
  const unsigned = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(claims))}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(signer);
  return `${unsigned}.${base64url(signature)}`;
}

export interface CallOptions {
  fetch: GuardedWebFetch;
  timeoutMs: number;
  signal?: AbortSignal;
}

/** One HTTP call within the time limit, its body parsed as JSON; transport failures as DialogflowErrors. */
async function call(
  options: CallOptions,
  url: string,
  init: { method: 'GET' | 'POST'; headers: Record<string, string>; body?: string },
  what: string,
): Promise<{ status: number; json: unknown }> {
  const timer = new AbortController();
  const timeout = setTimeout(() => timer.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timer.signal]) : timer.signal;
  try {
    const response = await options.fetch(url, { ...init, signal });
    const text = await response.text();
    let json: unknown = null;
    try {
      json = text === '' ? null : JSON.parse(text);
    } catch {
      if (response.ok) {
        throw new DialogflowError('provider/bad-response', `${what} sent an answer that is not JSON.`);
      }
    }
    return { status: response.status, json };
  } catch (error) {
    if (error instanceof DialogflowError) throw error;
    if (timer.signal.aborted) {
      throw new DialogflowError(
        'provider/timeout',
        `${what} did not answer within ${Math.round(options.timeoutMs / 100) / 10} s.`,
      );
    }
    if (error instanceof FetchError) {
      const code = error.code === 'fetch/timeout' ? 'provider/timeout' : 'provider/unreachable';
      throw new DialogflowError(code, `${what} could not be reached: ${error.reason}`, error.code);
    }
    if (options.signal?.aborted) throw error;
    throw new DialogflowError('provider/unreachable', `${what} could not be reached.`);
  } finally {
    clearTimeout(timeout);
  }
}

const record = (value: unknown): Record<string, unknown> | null =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;

/** The first line of a provider's message, short, for a reason shown to people. */
const firstLine = (value: unknown) =>
  typeof value === 'string' ? (value.split('\n')[0] ?? '').slice(0, 300) : '';

/** A Google API error (`{error: {code, message, status}}`) or a bare status as a DialogflowError. */
function googleError(status: number, json: unknown, what: string): DialogflowError {
  const body = record(record(json)?.error);
  const detail = [typeof body?.status === 'string' ? body.status : '', firstLine(body?.message)]
    .filter((part) => part !== '')
    .join(': ');
  const said = detail === '' ? `HTTP ${status}` : `${status} ${detail}`;
  if (status === 401) {
    return new DialogflowError('provider/unauthorized', `${what} refused the access token (${said}).`);
  }
  if (status === 403) {
    return new DialogflowError(
      'dialogflow/forbidden',
      `${what} refused the service account (${said}); give it the Dialogflow API Client role on the project.`,
    );
  }
  if (status === 404) {
    return new DialogflowError(
      'dialogflow/not-found',
      `${what} does not know this agent or environment (${said}).`,
    );
  }
  if (status === 429) {
    return new DialogflowError('provider/rate-limited', `${what} is limiting requests (${said}).`);
  }
  if (status >= 500) return new DialogflowError('provider/error', `${what} failed (${said}).`);
  return new DialogflowError('provider/error', `${what} refused the request (${said}).`);
}

/**
 * An access token for the key: the cached one while it lasts, else a fresh one from the token endpoint. The
 * cache is keyed by a hash of the key, so a changed key never uses another key's token.
 */
export async function accessToken(
  credentials: DialogflowCredentials,
  options: CallOptions,
  now = Date.now,
): Promise<string> {
  const cacheKey = cacheKeyOf(credentials);
  const cached = tokens.get(cacheKey);
  if (cached && cached.expiresAt - TOKEN_MARGIN_MS > now()) return cached.token;
  const what = 'The Google token endpoint';
  const { status, json } = await call(
    options,
    credentials.key.token_uri,
    {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: GRANT_TYPE,
        assertion: signedAssertion(credentials, now()),
      }).toString(),
    },
    what,
  );
  const body = record(json);
  if (status !== 200) {
    if (typeof body?.error === 'string') {
      const description = firstLine(body.error_description);
      const code =
        status === 429 ? 'provider/rate-limited' : status >= 500 ? 'provider/error' : 'provider/unauthorized';
      throw new DialogflowError(
        code,
        `${what} refused the service account key (${status} ${body.error}${description ? `: ${description}` : ''}).`,
      );
    }
    throw googleError(status, json, what);
  }
  const token = body?.access_token;
  const expiresIn = body?.expires_in;
  if (typeof token !== 'string' || token === '' || typeof expiresIn !== 'number') {
    throw new DialogflowError('provider/bad-response', `${what} sent no access token.`);
  }
  if (tokens.size >= TOKEN_CACHE_MAX) tokens.delete(tokens.keys().next().value ?? '');
  tokens.set(cacheKey, { token, expiresAt: now() + expiresIn * 1000 });
  return token;
}

/** Forgets the cached token of a key (after the API refused it). */
export const forgetToken = (credentials: DialogflowCredentials) => tokens.delete(cacheKeyOf(credentials));

/** The agent's resource path, with the environment when one is set. */
export function agentPathOf(agent: DialogflowAgent, environment = ''): string {
  const path = `projects/${encodeURIComponent(agent.projectId)}/locations/${encodeURIComponent(agent.location)}/agents/${encodeURIComponent(agent.agentId)}`;
  return environment === '' ? path : `${path}/environments/${encodeURIComponent(environment)}`;
}

/** A call with the access token; a 401 drops the cached token and tries once more with a fresh one. */
async function authorised(
  credentials: DialogflowCredentials,
  options: CallOptions,
  url: string,
  init: { method: 'GET' | 'POST'; body?: string },
  what: string,
): Promise<unknown> {
  for (let attempt = 0; ; attempt += 1) {
    const token = await accessToken(credentials, options);
    const { status, json } = await call(
      options,
      url,
      {
        ...init,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(init.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }),
        },
      },
      what,
    );
    if (status === 200) return json;
    if (status === 401 && attempt === 0) {
      forgetToken(credentials);
      continue;
    }
    throw googleError(status, json, what);
  }
}

/** The rich content a payload may carry that the widget can show: links. */
export interface DialogflowLink {
  label: string;
  url: string;
}

/** One turn's answer, every response message read. */
export interface DetectIntentResult {
  /** The text messages in order; a payload with links becomes a message of its own (markdown links). */
  texts: string[];
  /** Whether the agent matched nothing (NO_MATCH or NO_INPUT). */
  noMatch: boolean;
  /** The agent asked for a person (liveAgentHandoff). */
  liveAgentHandoff: boolean;
  /** The agent ended the conversation (endInteraction). */
  endInteraction: boolean;
  /** The language the agent answered in. */
  languageCode: string | null;
  /** Chips without a link: a payload the widget cannot show, counted only. */
  ignoredPayloads: number;
}

const LINK_SCHEMES = new Set(['https:', 'http:', 'mailto:', 'tel:']);

function linkOf(label: unknown, url: unknown): DialogflowLink | null {
  if (typeof label !== 'string' || typeof url !== 'string' || label.trim() === '') return null;
  if (!URL.canParse(url) || !LINK_SCHEMES.has(new URL(url).protocol)) return null;
  return { label: label.trim().replace(/[[\]]/gu, ''), url: new URL(url).href };
}

/**
 * The links of a Dialogflow Messenger payload (`richContent`: button, chips with a link, info with an actionLink);
 * other custom payloads carry nothing the widget can show.
 */
export function payloadLinks(payload: unknown): DialogflowLink[] {
  const rich = record(payload)?.richContent;
  if (!Array.isArray(rich)) return [];
  const links: DialogflowLink[] = [];
  for (const group of rich) {
    if (!Array.isArray(group)) continue;
    for (const item of group) {
      const element = record(item);
      if (!element) continue;
      if (element.type === 'button') {
        const link = linkOf(element.text, element.link);
        if (link) links.push(link);
      } else if (element.type === 'info') {
        const link = linkOf(element.title, element.actionLink);
        if (link) links.push(link);
      } else if (element.type === 'chips' && Array.isArray(element.options)) {
        for (const option of element.options) {
          const link = linkOf(record(option)?.text, record(option)?.link);
          if (link) links.push(link);
        }
      }
    }
  }
  return links;
}

/** Reads a detectIntent answer; a body without queryResult is malformed. */
export function readDetectIntent(json: unknown): DetectIntentResult {
  const result = record(record(json)?.queryResult);
  if (!result)
    throw new DialogflowError('provider/bad-response', 'Dialogflow sent an answer without a queryResult.');
  const messages = Array.isArray(result.responseMessages) ? result.responseMessages : [];
  const read: DetectIntentResult = {
    texts: [],
    noMatch: false,
    liveAgentHandoff: false,
    endInteraction: false,
    languageCode: typeof result.languageCode === 'string' ? result.languageCode : null,
    ignoredPayloads: 0,
  };
  for (const entry of messages) {
    const message = record(entry);
    if (!message) continue;
    const text = record(message.text);
    if (text && Array.isArray(text.text)) {
      for (const part of text.text)
        if (typeof part === 'string' && part.trim() !== '') read.texts.push(part.trim());
    } else if (record(message.outputAudioText) && typeof record(message.outputAudioText)?.text === 'string') {
      const spoken = (record(message.outputAudioText)?.text as string).trim();
      if (spoken !== '') read.texts.push(spoken);
    } else if ('payload' in message) {
      const links = payloadLinks(message.payload);
      if (links.length > 0) read.texts.push(links.map((link) => `[${link.label}](${link.url})`).join('\n'));
      else read.ignoredPayloads += 1;
    } else if ('liveAgentHandoff' in message) {
      read.liveAgentHandoff = true;
    } else if ('endInteraction' in message) {
      read.endInteraction = true;
    }
  }
  const matchType = record(result.match)?.matchType;
  read.noMatch = matchType === 'NO_MATCH' || matchType === 'NO_INPUT';
  return read;
}

export interface DetectIntentInput {
  agent: DialogflowAgent;
  settings: Pick<DialogflowCxSettings, 'environment' | 'endpoint'>;
  /** At most 36 characters, the same for every turn of a conversation. */
  sessionId: string;
  text: string;
  languageCode: string;
  /** Session parameters: what the widget knows of the visitor (language, country). */
  parameters: Record<string, string>;
}

/** One turn: detectIntent on the agent's (or the environment's) session. */
export async function detectIntent(
  credentials: DialogflowCredentials,
  options: CallOptions,
  input: DetectIntentInput,
): Promise<DetectIntentResult> {
  const base = dialogflowApiBaseOf(input.agent, input.settings.endpoint);
  const session = `${agentPathOf(input.agent, input.settings.environment)}/sessions/${encodeURIComponent(input.sessionId)}`;
  const json = await authorised(
    credentials,
    options,
    `${base}/v3/${session}:detectIntent`,
    {
      method: 'POST',
      body: JSON.stringify({
        queryInput: { text: { text: input.text }, languageCode: input.languageCode },
        queryParams: { parameters: input.parameters },
      }),
    },
    'Dialogflow',
  );
  return readDetectIntent(json);
}

/** The agent as Dialogflow describes it (agents.get): a harmless call that proves the key and the agent. */
export async function getAgent(
  credentials: DialogflowCredentials,
  options: CallOptions,
  agent: DialogflowAgent,
  endpoint: string,
): Promise<{ displayName: string; defaultLanguageCode: string }> {
  const base = dialogflowApiBaseOf(agent, endpoint);
  const json = record(
    await authorised(
      credentials,
      options,
      `${base}/v3/${agentPathOf(agent)}`,
      { method: 'GET' },
      'Dialogflow',
    ),
  );
  if (!json || typeof json.name !== 'string') {
    throw new DialogflowError('provider/bad-response', 'Dialogflow sent an agent without a name.');
  }
  return {
    displayName: typeof json.displayName === 'string' ? json.displayName : agent.agentId,
    defaultLanguageCode: typeof json.defaultLanguageCode === 'string' ? json.defaultLanguageCode : '',
  };
}

/** A session id of at most 36 characters, the same for every turn of a conversation. */
export function sessionIdOf(conversationId: string): string {
  if (/^[A-Za-z0-9_-]{1,36}$/u.test(conversationId)) return conversationId;
  return createHash('sha256').update(conversationId).digest('base64url').slice(0, DIALOGFLOW_SESSION_MAX);
}
