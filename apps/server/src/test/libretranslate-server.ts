/**
 * A local translation server for tests. It speaks the LibreTranslate HTTP protocol: `POST /detect` ({q, api_key})
 * answers `[{language, confidence}]`; `POST /translate` ({q, source, target, format, api_key}) answers
 * `{translatedText}` with `detectedLanguage` when the source is `auto`; refusals are `{error}` with 400 (missing
 * or unsupported parameter), 403 (API key) or 429. Languages: en, fr, es, de, told apart by a few words;
 * translations come from a small phrase table, else the text marked with the target (`[de] text`). It records every
 * request and can be switched into failure modes (500, hang, an answer that is not JSON, an older server that
 * does not report the detected language).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type LibreFailureMode = 'none' | 'server-error' | 'hang' | 'not-json' | 'no-detected-language';

export interface LibreRecordedRequest {
  method: string;
  path: string;
  body: Record<string, unknown>;
}

export interface LibreTranslateServer {
  /** The address a bot is configured with, e.g. http://127.0.0.1:1234. */
  url: string;
  requests: LibreRecordedRequest[];
  failure: LibreFailureMode;
  close(): Promise<void>;
}

const LANGUAGES = ['en', 'fr', 'es', 'de'] as const;
type Language = (typeof LANGUAGES)[number];

const MARKERS: Record<Exclude<Language, 'en'>, string[]> = {
  fr: ['bonjour', 'merci', 'je', 'vous', 'est', 'livraison'],
  es: ['hola', 'gracias', 'yo', 'usted', 'envío', 'dónde'],
  de: ['hallo', 'danke', 'ich', 'sie', 'ist', 'lieferung'],
};

/** Phrases the server knows in every language, keyed by their English text. */
const PHRASES: Array<Record<Language, string>> = [
  { en: 'hello', fr: 'bonjour', es: 'hola', de: 'hallo' },
  { en: 'thank you', fr: 'merci', es: 'gracias', de: 'danke' },
  {
    en: 'where is my order?',
    fr: 'où est ma commande ?',
    es: '¿dónde está mi pedido?',
    de: 'wo ist meine bestellung?',
  },
  {
    en: 'how long does delivery of parcels take?',
    fr: 'combien de temps prend la livraison des colis ?',
    es: '¿cuánto tarda el envío de paquetes?',
    de: 'wie lange dauert die lieferung von paketen?',
  },
];

/** The language of a text by its marker words; English when none is found. */
function libreDetect(text: string): Language {
  const words = text.toLowerCase().match(/[\p{L}]+/gu) ?? [];
  for (const language of ['fr', 'es', 'de'] as const) {
    if (words.some((word) => MARKERS[language].includes(word))) return language;
  }
  return 'en';
}

/** The server's translation of `text` from `source` into `target`. */
function libreTranslate(text: string, source: Language, target: Language): string {
  if (source === target) return text;
  const phrase = PHRASES.find((entry) => entry[source] === text.trim().toLowerCase());
  return phrase ? phrase[target] : `[${target}] ${text}`;
}

const isLanguage = (value: unknown): value is Language =>
  typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  if (!text) return {};
  if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
    return Object.fromEntries(new URLSearchParams(text));
  }
  try {
    const parsed = JSON.parse(text) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/** Starts the server; with `apiKey`, every call must carry it as `api_key`. */
export async function startLibreTranslateServer(
  options: { apiKey?: string } = {},
): Promise<LibreTranslateServer> {
  const hanging = new Set<ServerResponse>();
  const state: LibreTranslateServer = {
    url: '',
    requests: [],
    failure: 'none',
    close: () => Promise.resolve(),
  };

  const server: Server = createServer((request, response) => {
    void (async () => {
      const body = await readBody(request);
      const path = (request.url ?? '').split('?')[0] ?? '';
      state.requests.push({ method: request.method ?? '', path, body });

      if (state.failure === 'server-error') return json(response, 500, { error: 'Internal server error' });
      if (state.failure === 'hang') {
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      }
      if (state.failure === 'not-json') {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<html><body>Welcome</body></html>');
        return;
      }
      if (request.method !== 'POST' || (path !== '/detect' && path !== '/translate')) {
        return json(response, 404, { error: 'Not Found' });
      }
      if (options.apiKey !== undefined && body.api_key !== options.apiKey) {
        return json(response, 403, { error: 'Invalid API key' });
      }
      const q = body.q;
      if (typeof q !== 'string' || q === '') {
        return json(response, 400, { error: 'Invalid request: missing q parameter' });
      }
      const detected = libreDetect(q);
      if (path === '/detect') return json(response, 200, [{ confidence: 90.0, language: detected }]);

      const { source, target } = body;
      if (!isLanguage(target)) return json(response, 400, { error: `${String(target)} is not supported` });
      if (source !== 'auto' && !isLanguage(source)) {
        return json(response, 400, { error: `${String(source)} is not supported` });
      }
      const from = source === 'auto' || !isLanguage(source) ? detected : source;
      const translatedText = libreTranslate(q, from, target);
      if (source === 'auto' && state.failure !== 'no-detected-language') {
        return json(response, 200, {
          detectedLanguage: { confidence: 90.0, language: detected },
          translatedText,
        });
      }
      return json(response, 200, { translatedText });
    })();
  });

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${port}`;
  state.close = async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
