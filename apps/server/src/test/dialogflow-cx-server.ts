/**
 * A local Dialogflow CX server for tests. It speaks the Dialogflow CX v3 REST protocol and Google's OAuth2
 * JWT-bearer token exchange (RFC 7523), on one address:
 *
 * - `POST /token` (application/x-www-form-urlencoded `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer`,
 *   `assertion`): the assertion is a JWT signed RS256 whose signature is verified with the public key registered
 *   for its `iss` (the service account's client_email); `aud` must be this token URI, `iat`/`exp` current and at
 *   most an hour apart, `scope` must include cloud-platform or dialogflow. Answers `{access_token, expires_in,
 *   token_type: "Bearer"}`, refusals `{error: "invalid_grant", error_description}` with 400 as Google does.
 * - `GET /v3/projects/{project}/locations/{location}/agents/{agent}` (agents.get): the agent.
 * - `POST /v3/projects/{project}/locations/{location}/agents/{agent}[/environments/{environment}]/sessions/
 *   {session}:detectIntent` with `Authorization: Bearer {token}` and `{queryInput: {text: {text}, languageCode},
 *   queryParams: {parameters}}`: `{responseId, queryResult: {text, languageCode, parameters, responseMessages,
 *   match: {matchType, confidence}, currentPage}}`. A session id over 36 characters is INVALID_ARGUMENT.
 *
 * Errors have Google's shape `{error: {code, message, status}}`: 401 UNAUTHENTICATED (a token it did not issue or
 * that expired), 403 PERMISSION_DENIED (an agent of a project the account may not use), 404 NOT_FOUND (an unknown
 * agent, or an agent asked for under another location). Per agent it can be switched into failure modes (401,
 * 403, 404, 429, 500, 503, hang, an answer that is not JSON, an answer without queryResult).
 *
 * The scripted agent (by the visitor's text, in the query's language en or fr): "hello" -> two text messages;
 * "my name is X" keeps `name` in the session parameters and "what is my name" reads it back; "where is my order"
 * -> text and a Dialogflow Messenger payload (a button with a link, chips with and without links); "options" ->
 * chips without links only, and a text; "custom" -> a custom payload and a text; "which agent" names the agent;
 * "what do you know" reads the session parameters (language, country); "audio" -> outputAudioText; "agent" or
 * "human" -> a text and liveAgentHandoff; "bye" -> a text and endInteraction, which ends the session (its
 * parameters are forgotten); "silence" -> a match without any message; anything else NO_MATCH with the agent's own
 * "sorry" text. Every session counts its turns in the parameter `turns`.
 */
import { createVerify, type KeyObject, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type DialogflowFailureMode =
  | 'none'
  | 'unauthenticated'
  | 'permission-denied'
  | 'not-found'
  | 'rate-limited'
  | 'internal'
  | 'unavailable'
  | 'hang'
  | 'not-json'
  | 'no-query-result';

export interface DialogflowFakeAgent {
  projectId: string;
  location: string;
  agentId: string;
  displayName: string;
  defaultLanguageCode?: string;
}

export interface DialogflowRecordedRequest {
  method: string;
  path: string;
  authorization: string;
  body: Record<string, unknown>;
  /** The claims of a token request's assertion, once verified. */
  claims?: Record<string, unknown>;
}

export interface DialogflowCxServer {
  /** The API base and token host, e.g. http://127.0.0.1:1234. */
  url: string;
  /** The token endpoint a service-account key names as its token_uri. */
  tokenUri: string;
  requests: DialogflowRecordedRequest[];
  /** Failure modes by agent id (`*` for every agent). */
  failures: Map<string, DialogflowFailureMode>;
  /** A token request is refused with this OAuth2 error while set (invalid_grant...). */
  tokenFailure: string | null;
  /** How long every answer waits first (the bench measures the server's own latency with it). */
  delayMs: number;
  /** Access tokens issued so far. */
  tokensIssued: number;
  /** The seconds a new token lives. */
  tokenLifetimeS: number;
  /** Session parameters by session path. */
  sessions: Map<string, Record<string, unknown>>;
  /** Registers a service account: its email and the public key its JWT assertions are verified with. */
  registerAccount(email: string, publicKey: KeyObject, projects: string[]): void;
  close(): Promise<void>;
}

interface Account {
  publicKey: KeyObject;
  projects: Set<string>;
}

const SESSION_PATH =
  /^\/v3\/projects\/([^/]+)\/locations\/([^/]+)\/agents\/([^/]+)(?:\/environments\/([^/]+))?\/sessions\/([^/:]+):detectIntent$/u;
const AGENT_PATH = /^\/v3\/projects\/([^/]+)\/locations\/([^/]+)\/agents\/([^/:]+)$/u;
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const STATUS_OF: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

const FAILURE_STATUS: Partial<Record<DialogflowFailureMode, number>> = {
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  'rate-limited': 429,
  internal: 500,
  unavailable: 503,
};

function send(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

function googleError(response: ServerResponse, code: number, message: string) {
  send(response, code, { error: { code, message, status: STATUS_OF[code] ?? 'UNKNOWN' } });
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const decodePart = (part: string): Record<string, unknown> | null => {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

const text = (...lines: string[]) => ({ text: { text: lines, allowPlaybackInterruption: false } });

const SAY: Record<'en' | 'fr', { hello: string; help: string; sorry: string }> = {
  en: {
    hello: 'Hello! I am the shop assistant.',
    help: 'How can I help you today?',
    sorry: "Sorry, I didn't get that. Can you say it again?",
  },
  fr: {
    hello: 'Bonjour ! Je suis l’assistant de la boutique.',
    help: 'Comment puis-je vous aider ?',
    sorry: 'Désolé, je n’ai pas compris. Pouvez-vous répéter ?',
  },
};

interface Turn {
  messages: unknown[];
  matchType: 'INTENT' | 'NO_MATCH';
  page: string;
}

/** The scripted agent's answer to one message. */
function script(
  agent: DialogflowFakeAgent,
  input: string,
  language: string,
  params: Record<string, unknown>,
): Turn & { ended: boolean } {
  const say = SAY[language.startsWith('fr') ? 'fr' : 'en'];
  const lower = input.trim().toLowerCase();
  const intent = (messages: unknown[], page = 'Start Page') => ({
    messages,
    matchType: 'INTENT' as const,
    page,
    ended: false,
  });
  const named = /^my name is (.+)$/u.exec(lower);
  if (lower === 'hello' || lower === 'hi' || lower === 'bonjour')
    return intent([text(say.hello), text(say.help)]);
  if (named?.[1]) {
    const name = input.trim().slice('my name is '.length);
    params.name = name;
    return intent([text(`Nice to meet you, ${name}.`)]);
  }
  if (lower === 'what is my name') {
    return intent([
      text(typeof params.name === 'string' ? `Your name is ${params.name}.` : 'I do not know your name yet.'),
    ]);
  }
  if (lower === 'where is my order') {
    return intent(
      [
        text('Your order ships tomorrow.'),
        {
          payload: {
            richContent: [
              [
                { type: 'button', text: 'Track the parcel', link: 'https://shop.example.com/track/42' },
                {
                  type: 'chips',
                  options: [
                    { text: 'Returns', link: 'https://shop.example.com/returns' },
                    { text: 'Talk to us' },
                    { text: 'Bad link', link: 'javascript:alert(1)' },
                  ],
                },
              ],
            ],
          },
        },
      ],
      'Order Status',
    );
  }
  if (lower === 'options') {
    return intent([
      text('Choose one of these.'),
      {
        payload: { richContent: [[{ type: 'chips', options: [{ text: 'Shipping' }, { text: 'Returns' }] }]] },
      },
    ]);
  }
  if (lower === 'custom') {
    return intent([{ payload: { crm: { ticket: 7 } } }, text('Noted in your file.')]);
  }
  if (lower === 'which agent') return intent([text(`You are talking to ${agent.displayName}.`)]);
  if (lower === 'what do you know') {
    return intent([
      text(
        `language=${textOf(params.language)} country=${textOf(params.country)} turns=${String(params.turns)}`,
      ),
    ]);
  }
  if (lower === 'audio') return intent([{ outputAudioText: { text: 'Spoken and written.' } }]);
  if (lower === 'agent' || lower === 'human') {
    return intent([
      text('Let me find a person for you.'),
      { liveAgentHandoff: { metadata: { reason: 'asked' } } },
    ]);
  }
  if (lower === 'bye') {
    return { ...intent([text('Goodbye!'), { endInteraction: {} }], 'End Session'), ended: true };
  }
  if (lower === 'silence') return intent([]);
  return { messages: [text(say.sorry)], matchType: 'NO_MATCH', page: 'Start Page', ended: false };
}

/** Starts the server with the agents it knows. */
export async function startDialogflowCxServer(agents: DialogflowFakeAgent[]): Promise<DialogflowCxServer> {
  const accounts = new Map<string, Account>();
  const issued = new Map<string, { email: string; expiresAt: number }>();
  const hanging = new Set<ServerResponse>();
  let tokenUri = '';

  const state: Omit<DialogflowCxServer, 'url' | 'tokenUri' | 'close' | 'registerAccount'> = {
    requests: [],
    failures: new Map(),
    tokenFailure: null,
    delayMs: 0,
    tokensIssued: 0,
    tokenLifetimeS: 3599,
    sessions: new Map(),
  };

  const refuseGrant = (response: ServerResponse, description: string) =>
    send(response, 400, { error: 'invalid_grant', error_description: description });

  /** Verifies the assertion as Google's token endpoint does; the claims, or null after answering a refusal. */
  function verifiedClaims(response: ServerResponse, assertion: string): Record<string, unknown> | null {
    const parts = assertion.split('.');
    const [headerPart, claimsPart, signaturePart] = parts;
    if (parts.length !== 3 || !headerPart || !claimsPart || !signaturePart) {
      refuseGrant(response, 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.');
      return null;
    }
    const header = decodePart(headerPart);
    const claims = decodePart(claimsPart);
    if (header?.alg !== 'RS256' || claims === null) {
      refuseGrant(response, 'Invalid JWT header or claims.');
      return null;
    }
    const account = typeof claims.iss === 'string' ? accounts.get(claims.iss) : undefined;
    if (!account) {
      send(response, 401, { error: 'invalid_client', error_description: 'The OAuth client was not found.' });
      return null;
    }
    const signed = createVerify('RSA-SHA256')
      .update(`${headerPart}.${claimsPart}`)
      .verify(account.publicKey, Buffer.from(signaturePart, 'base64url'));
    if (!signed) {
      refuseGrant(response, 'Invalid JWT Signature.');
      return null;
    }
    const now = Math.floor(Date.now() / 1000);
    const iat = Number(claims.iat);
    const exp = Number(claims.exp);
    if (!(iat <= now + 60 && exp > now && exp - iat <= 3600)) {
      refuseGrant(response, 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.');
      return null;
    }
    if (claims.aud !== tokenUri) {
      refuseGrant(response, 'Invalid JWT: Failed audience check.');
      return null;
    }
    const scope = typeof claims.scope === 'string' ? claims.scope.split(' ') : [];
    if (!scope.some((entry) => /\/auth\/(cloud-platform|dialogflow)$/u.test(entry))) {
      refuseGrant(response, 'Invalid OAuth scope or ID token audience provided.');
      return null;
    }
    return claims;
  }

  function handleToken(response: ServerResponse, body: string, recorded: DialogflowRecordedRequest) {
    const form = new URLSearchParams(body);
    recorded.body = Object.fromEntries(form.entries());
    if (form.get('grant_type') !== GRANT_TYPE) {
      send(response, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' });
      return;
    }
    if (state.tokenFailure !== null) {
      send(response, 400, { error: state.tokenFailure, error_description: 'Account has been deleted' });
      return;
    }
    const claims = verifiedClaims(response, form.get('assertion') ?? '');
    if (claims === null) return;
    recorded.claims = claims;
    const token = `ya29.fake-${randomBytes(24).toString('base64url')}`;
    issued.set(token, { email: String(claims.iss), expiresAt: Date.now() + state.tokenLifetimeS * 1000 });
    state.tokensIssued += 1;
    send(response, 200, { access_token: token, expires_in: state.tokenLifetimeS, token_type: 'Bearer' });
  }

  /** The account behind a request's bearer token, or null after answering 401. */
  function bearer(request: IncomingMessage, response: ServerResponse): Account | null {
    const match = /^Bearer (\S+)$/u.exec(request.headers.authorization ?? '');
    const grant = match?.[1] ? issued.get(match[1]) : undefined;
    const account = grant && grant.expiresAt > Date.now() ? accounts.get(grant.email) : undefined;
    if (!account) {
      googleError(
        response,
        401,
        'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
      );
      return null;
    }
    return account;
  }

  /** The agent a path names, or null after answering 403/404. */
  function agentOf(
    response: ServerResponse,
    account: Account,
    project: string,
    location: string,
    agentId: string,
  ): DialogflowFakeAgent | null {
    if (!account.projects.has(project)) {
      googleError(
        response,
        403,
        `Permission 'dialogflow.sessions.detectIntent' denied on resource 'projects/${project}' (or it may not exist).`,
      );
      return null;
    }
    const agent = agents.find(
      (candidate) =>
        candidate.projectId === project && candidate.location === location && candidate.agentId === agentId,
    );
    if (!agent) {
      googleError(
        response,
        404,
        `com.google.apps.framework.request.NotFoundException: Agent 'projects/${project}/locations/${location}/agents/${agentId}' does not exist.`,
      );
      return null;
    }
    return agent;
  }

  /** Answers with the agent's failure mode; true when one was answered. */
  function failed(response: ServerResponse, agentId: string): boolean {
    const mode = state.failures.get(agentId) ?? state.failures.get('*') ?? 'none';
    if (mode === 'none') return false;
    if (mode === 'hang') {
      hanging.add(response);
      return true;
    }
    if (mode === 'not-json') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"queryResult": {"responseMessages": [');
      return true;
    }
    if (mode === 'no-query-result') {
      send(response, 200, { responseId: randomUUID() });
      return true;
    }
    const status = FAILURE_STATUS[mode] ?? 500;
    googleError(
      response,
      status,
      status === 429
        ? "Quota exceeded for quota metric 'Session requests' and limit 'Session requests per minute'."
        : `The scripted failure ${mode}.`,
    );
    return true;
  }

  function handleDetectIntent(
    request: IncomingMessage,
    response: ServerResponse,
    match: RegExpExecArray,
    body: Record<string, unknown>,
  ) {
    const [, project = '', location = '', agentId = '', environment, session = ''] = match.map((part) =>
      part === undefined ? undefined : decodeURIComponent(part),
    );
    const account = bearer(request, response);
    if (!account || failed(response, agentId)) return;
    const agent = agentOf(response, account, project, location, agentId);
    if (!agent) return;
    if (session.length > 36) {
      googleError(response, 400, `Session id '${session}' is longer than 36 characters.`);
      return;
    }
    const queryInput = (body.queryInput ?? {}) as { text?: { text?: unknown }; languageCode?: unknown };
    const input = typeof queryInput.text?.text === 'string' ? queryInput.text.text : null;
    const language = typeof queryInput.languageCode === 'string' ? queryInput.languageCode : '';
    if (input === null || language === '') {
      googleError(response, 400, 'queryInput.text.text and queryInput.languageCode are required.');
      return;
    }
    const key = `projects/${project}/locations/${location}/agents/${agentId}${environment ? `/environments/${environment}` : ''}/sessions/${session}`;
    const params = state.sessions.get(key) ?? { turns: 0 };
    const given = ((body.queryParams ?? {}) as { parameters?: Record<string, unknown> }).parameters ?? {};
    Object.assign(params, given);
    params.turns = Number(params.turns ?? 0) + 1;
    const turn = script(agent, input, language, params);
    if (turn.ended) state.sessions.delete(key);
    else state.sessions.set(key, params);
    send(response, 200, {
      responseId: randomUUID(),
      queryResult: {
        text: input,
        languageCode: language,
        parameters: { ...params },
        responseMessages: turn.messages,
        match: { matchType: turn.matchType, confidence: turn.matchType === 'INTENT' ? 1 : 0.3 },
        currentPage: { name: `${key}/pages/x`, displayName: turn.page },
      },
    });
  }

  function handleGetAgent(request: IncomingMessage, response: ServerResponse, match: RegExpExecArray) {
    const [, project = '', location = '', agentId = ''] = match.map((part) =>
      part === undefined ? undefined : decodeURIComponent(part),
    );
    const account = bearer(request, response);
    if (!account || failed(response, agentId)) return;
    const agent = agentOf(response, account, project, location, agentId);
    if (!agent) return;
    send(response, 200, {
      name: `projects/${project}/locations/${location}/agents/${agentId}`,
      displayName: agent.displayName,
      defaultLanguageCode: agent.defaultLanguageCode ?? 'en',
      timeZone: 'Europe/Paris',
    });
  }

  const server: Server = createServer((request, response) => {
    void (async () => {
      const raw = await readText(request);
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const recorded: DialogflowRecordedRequest = {
        method: request.method ?? 'GET',
        path,
        authorization: request.headers.authorization ?? '',
        body: {},
      };
      state.requests.push(recorded);
      if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
      if (request.method === 'POST' && path === '/token') {
        handleToken(response, raw, recorded);
        return;
      }
      let body: Record<string, unknown> = {};
      if (raw !== '') {
        try {
          body = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          googleError(response, 400, 'Invalid JSON payload received.');
          return;
        }
      }
      recorded.body = body;
      const session = SESSION_PATH.exec(path);
      if (request.method === 'POST' && session) {
        handleDetectIntent(request, response, session, body);
        return;
      }
      const agent = AGENT_PATH.exec(path);
      if (request.method === 'GET' && agent) {
        handleGetAgent(request, response, agent);
        return;
      }
      googleError(response, 404, `The requested URL ${path} was not found on this server.`);
    })();
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tokenUri = `${url}/token`;
  return Object.assign(state, {
    url,
    tokenUri,
    registerAccount(email: string, publicKey: KeyObject, projects: string[]) {
      accounts.set(email, { publicKey, projects: new Set(projects) });
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** A service-account key file as Google issues it, for the test's own key pair. */
export function serviceAccountKeyFile(input: {
  email: string;
  projectId: string;
  privateKeyPem: string;
  tokenUri: string;
  keyId?: string;
}): string {
  return JSON.stringify(
    {
      type: 'service_account',
      project_id: input.projectId,
      private_key_id: input.keyId ?? randomBytes(20).toString('hex'),
      private_key: input.privateKeyPem,
      client_email: input.email,
      client_id: '100000000000000000001',
      auth_uri: 'https://accounts.google.com/o/oauth2/auth',
      token_uri: input.tokenUri,
      auth_provider_x509_cert_url: 'https://www.googleapis.com/oauth2/v1/certs',
      universe_domain: 'googleapis.com',
    },
    null,
    2,
  );
}
