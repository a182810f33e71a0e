/**
 * A local Google Cloud for tests. One HTTP server speaks:
 *
 * - Google's OAuth 2.0 token endpoint, `POST /token` with the JWT bearer grant (RFC 7523,
 *   `grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer&assertion=...`): the RS256 assertion is VERIFIED with
 *   the test service account's public key (signature, `iss` = client_email, `aud` = this token address, the
 *   cloud-platform scope, `exp` in the future); it answers `{access_token, expires_in, token_type}`, else 400
 *   `{error: 'invalid_grant', error_description}` as Google does;
 * - Cloud Translation v3: `POST /v3/projects/{project}/locations/{location}:translateText` (`contents`,
 *   `targetLanguageCode`, optional `sourceLanguageCode`) answering `{translations: [{translatedText,
 *   detectedLanguageCode}]}` and `:detectLanguage` (`content`) answering `{languages: [{languageCode, confidence}]}`,
 *   with `Authorization: Bearer` of a token it issued;
 * - Cloud Translation v2: `POST /language/translate/v2` (`q`, `target`, `source`, `format`) answering
 *   `{data: {translations: [{translatedText, detectedSourceLanguage}]}}` and `/language/translate/v2/detect`
 *   answering `{data: {detections: [[{language, confidence, isReliable}]]}}`, with an API key (`X-Goog-Api-Key` or
 *   `?key=`);
 * - Text-to-Speech v1: `POST /v1/text:synthesize` (`input.text`, `voice.languageCode`, `voice.name`,
 *   `audioConfig.audioEncoding` MP3) answering `{audioContent: base64}`, with a bearer token or an API key.
 *
 * Errors are Google's `{error: {code, message, status}}` (401 UNAUTHENTICATED, 403 PERMISSION_DENIED, 429
 * RESOURCE_EXHAUSTED, 500 INTERNAL). Languages en, fr, es, de are told apart by a few words; translations come from a
 * small phrase table, else the text marked with the target (`[fr] text`). `failure` makes the next calls fail (401,
 * 403, 429, 500, hang, an answer that is not JSON, JSON of the wrong shape); every request is recorded.
 */
import { createPublicKey, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type GoogleFailureMode = 'none' | 401 | 403 | 429 | 500 | 'hang' | 'not-json' | 'malformed';

export interface GoogleRecordedRequest {
  path: string;
  auth: 'bearer' | 'api-key' | 'none';
  body: Record<string, unknown>;
}

export interface GoogleCloudServer {
  url: string;
  /** The service-account key file (JSON) of the test, its token_uri this server's. */
  serviceAccountKey: string;
  /** A key file whose private key the server does not know. */
  foreignServiceAccountKey: string;
  apiKey: string;
  requests: GoogleRecordedRequest[];
  /** How many tokens the server issued. */
  tokensIssued: number;
  failure: GoogleFailureMode;
  /** When set, `failure` applies to this path only (a translation failing while detection works). */
  failurePath: string | null;
  close(): Promise<void>;
}

const PROJECT = 'omnibot-test-project';
const CLIENT_EMAIL = 'speech@omnibot-test-project.iam.gserviceaccount.com';
const SCOPE = 'https://www.googleapis.com/auth/cloud-platform';

type Language = 'en' | 'fr' | 'es' | 'de';
const MARKERS: Record<Exclude<Language, 'en'>, string[]> = {
  fr: ['bonjour', 'merci', 'je', 'vous', 'est', 'livraison', 'où', 'commande'],
  es: ['hola', 'gracias', 'yo', 'usted', 'dónde', 'pedido'],
  de: ['hallo', 'danke', 'ich', 'sie', 'ist', 'bestellung'],
};
const PHRASES: Array<Record<Language, string>> = [
  { en: 'hello', fr: 'bonjour', es: 'hola', de: 'hallo' },
  { en: 'thank you', fr: 'merci', es: 'gracias', de: 'danke' },
  {
    en: 'where is my order?',
    fr: 'où est ma commande ?',
    es: '¿dónde está mi pedido?',
    de: 'wo ist meine bestellung?',
  },
];

export function detectLanguage(text: string): Language {
  const words = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  for (const language of ['fr', 'es', 'de'] as const) {
    if (words.some((word) => MARKERS[language].includes(word))) return language;
  }
  return 'en';
}

export function translatePhrase(text: string, source: string, target: string): string {
  if (source.split('-')[0] === target.split('-')[0]) return text;
  const phrase = PHRASES.find((entry) => entry[source as Language] === text.trim().toLowerCase());
  return phrase?.[target as Language] ?? `[${target}] ${text}`;
}

/** The audio the fake "speaks": a few MP3-looking bytes that name the voice and the text. */
export const fakeAudio = (voice: string, text: string) =>
  Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.from(`${voice}|${text}`)]);

const STATUS_NAMES: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
};

function sendJson(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
  response.end(JSON.stringify(body));
}

const googleError = (response: ServerResponse, code: number, message: string) =>
  sendJson(response, code, { error: { code, message, status: STATUS_NAMES[code] ?? 'UNKNOWN' } });

function keyFile(privateKey: string, tokenUri: string) {
  return JSON.stringify({
    type: 'service_account',
    project_id: PROJECT,
    private_key_id: randomBytes(8).toString('hex'),
    private_key: privateKey,
    client_email: CLIENT_EMAIL,
    client_id: '1234567890',
    token_uri: tokenUri,
  });
}

async function readText(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startGoogleCloudServer(
  options: { apiKey?: string; tokenLifetimeS?: number } = {},
): Promise<GoogleCloudServer> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const foreignPem = foreign.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const verifyKey = createPublicKey(publicKey.export({ type: 'spki', format: 'pem' }));
  const tokens = new Set<string>();
  const hanging = new Set<ServerResponse>();
  let tokenUri = '';

  const state: GoogleCloudServer = {
    url: '',
    serviceAccountKey: '',
    foreignServiceAccountKey: '',
    apiKey: options.apiKey ?? `AIza-test-${randomBytes(8).toString('hex')}`,
    requests: [],
    tokensIssued: 0,
    failure: 'none',
    failurePath: null,
    close: () => Promise.resolve(),
  };

  function checkAssertion(assertion: string): string | null {
    const [header, claims, signature] = assertion.split('.');
    if (header === undefined || claims === undefined || signature === undefined) return 'Malformed JWT.';
    const verified = createVerify('RSA-SHA256')
      .update(`${header}.${claims}`)
      .verify(verifyKey, Buffer.from(signature, 'base64url'));
    if (!verified) return 'Invalid JWT Signature.';
    const parsedHeader = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: string };
    if (parsedHeader.alg !== 'RS256') return 'Invalid JWT algorithm.';
    const body = JSON.parse(Buffer.from(claims, 'base64url').toString('utf8')) as Record<string, unknown>;
    if (body.iss !== CLIENT_EMAIL) return 'Invalid issuer.';
    if (body.aud !== tokenUri) return 'Invalid audience.';
    if (body.scope !== SCOPE) return 'Invalid scope.';
    const now = Date.now() / 1000;
    if (
      typeof body.exp !== 'number' ||
      body.exp < now ||
      typeof body.iat !== 'number' ||
      body.iat > now + 60
    ) {
      return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
    }
    return null;
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const text = await readText(request);
    const authorization = request.headers.authorization ?? '';
    const apiKey = request.headers['x-goog-api-key'] ?? url.searchParams.get('key');
    const auth = authorization.startsWith('Bearer ') ? 'bearer' : apiKey ? 'api-key' : 'none';
    let body: Record<string, unknown> = {};
    if (url.pathname !== '/token') {
      try {
        body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        googleError(response, 400, 'Invalid JSON payload received.');
        return;
      }
    }
    state.requests.push({ path: url.pathname, auth, body });

    const failure = state.failurePath === null || state.failurePath === url.pathname ? state.failure : 'none';
    if (failure === 'hang') {
      hanging.add(response);
      return;
    }
    if (typeof failure === 'number') {
      googleError(response, failure, `The fake answers ${String(failure)}.`);
      return;
    }
    if (failure === 'not-json') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html>gateway</html>');
      return;
    }

    if (request.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(text);
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
        sendJson(response, 400, {
          error: 'unsupported_grant_type',
          error_description: 'Invalid grant_type.',
        });
        return;
      }
      const problem = checkAssertion(form.get('assertion') ?? '');
      if (problem !== null) {
        sendJson(response, 400, { error: 'invalid_grant', error_description: problem });
        return;
      }
      const token = `ya29.test-${randomBytes(12).toString('hex')}`;
      tokens.add(token);
      state.tokensIssued += 1;
      sendJson(response, 200, {
        access_token: token,
        expires_in: options.tokenLifetimeS ?? 3599,
        token_type: 'Bearer',
      });
      return;
    }

    const bearerOk = auth === 'bearer' && tokens.has(authorization.slice('Bearer '.length));
    const keyOk = auth === 'api-key' && apiKey === state.apiKey;
    const v3 = /^\/v3\/projects\/([^/]+)\/locations\/([^/:]+):(translateText|detectLanguage)$/u.exec(
      url.pathname,
    );
    const v2 = url.pathname.startsWith('/language/translate/v2');
    const tts = url.pathname === '/v1/text:synthesize';
    if (request.method !== 'POST' || (!v3 && !v2 && !tts)) {
      googleError(response, 404, 'Requested entity was not found.');
      return;
    }
    if (v3 ? !bearerOk : v2 ? !keyOk : !(bearerOk || keyOk)) {
      if (auth === 'api-key') googleError(response, 400, 'API key not valid. Please pass a valid API key.');
      else
        googleError(
          response,
          401,
          'Request had invalid authentication credentials. Expected OAuth 2 access token.',
        );
      return;
    }
    if (v3 && v3[1] !== PROJECT) {
      googleError(response, 403, `Permission denied on resource project ${v3[1] ?? ''}.`);
      return;
    }
    const malformed = failure === 'malformed';

    if (v3?.[3] === 'detectLanguage') {
      const content = typeof body.content === 'string' ? body.content : '';
      sendJson(
        response,
        200,
        malformed
          ? { languages: [] }
          : { languages: [{ languageCode: detectLanguage(content), confidence: 1 }] },
      );
      return;
    }
    if (v3) {
      const contents = Array.isArray(body.contents) ? (body.contents as unknown[]) : [];
      const target = typeof body.targetLanguageCode === 'string' ? body.targetLanguageCode : '';
      if (contents.length === 0 || target === '') {
        googleError(response, 400, 'Target language and contents are required.');
        return;
      }
      const source = typeof body.sourceLanguageCode === 'string' ? body.sourceLanguageCode : null;
      sendJson(
        response,
        200,
        malformed
          ? { translations: [{ translated: 'x' }] }
          : {
              translations: contents.map((content) => {
                const one = String(content);
                const from = source ?? detectLanguage(one);
                return {
                  translatedText: translatePhrase(one, from, target),
                  ...(source === null ? { detectedLanguageCode: from } : {}),
                };
              }),
            },
      );
      return;
    }
    if (v2 && url.pathname.endsWith('/detect')) {
      const q = typeof body.q === 'string' ? body.q : '';
      sendJson(
        response,
        200,
        malformed
          ? { data: {} }
          : { data: { detections: [[{ language: detectLanguage(q), confidence: 1, isReliable: true }]] } },
      );
      return;
    }
    if (v2) {
      const q = typeof body.q === 'string' ? body.q : '';
      const target = typeof body.target === 'string' ? body.target : '';
      if (target === '') {
        googleError(response, 400, 'Missing required field target.');
        return;
      }
      const source = typeof body.source === 'string' ? body.source : null;
      const from = source ?? detectLanguage(q);
      sendJson(
        response,
        200,
        malformed
          ? { data: { translations: 'none' } }
          : {
              data: {
                translations: [
                  {
                    translatedText: translatePhrase(q, from, target),
                    ...(source === null ? { detectedSourceLanguage: from } : {}),
                  },
                ],
              },
            },
      );
      return;
    }
    const input = body.input as { text?: unknown } | undefined;
    const voice = body.voice as { languageCode?: unknown; name?: unknown } | undefined;
    const audioConfig = body.audioConfig as { audioEncoding?: unknown } | undefined;
    if (typeof input?.text !== 'string' || typeof voice?.languageCode !== 'string') {
      googleError(response, 400, 'Either `input.text` or `voice.languageCode` is missing.');
      return;
    }
    if (audioConfig?.audioEncoding !== 'MP3') {
      googleError(response, 400, 'This fake only speaks MP3.');
      return;
    }
    const name = typeof voice.name === 'string' ? voice.name : `${voice.languageCode}-Standard-A`;
    sendJson(
      response,
      200,
      malformed ? { audio: 'x' } : { audioContent: fakeAudio(name, input.text).toString('base64') },
    );
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) googleError(response, 500, 'Internal error encountered.');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${String(port)}`;
  tokenUri = `${state.url}/token`;
  state.serviceAccountKey = keyFile(pem, tokenUri);
  state.foreignServiceAccountKey = keyFile(foreignPem, tokenUri);
  state.close = async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
