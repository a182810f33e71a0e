import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** The encodings the server sends, preferred first; a client accepting neither gets the identity. */
const ENCODINGS = ['br', 'gzip'] as const;
export type ContentEncoding = (typeof ENCODINGS)[number];

/** Answers shorter than this gain too little from compression for its cost. */
const COMPRESSION_THRESHOLD = 1024;

/**
 * Text, JSON, JavaScript, XML and SVG answers are compressed; a server-sent event stream never is, since a
 * compressor holds events back until its buffer fills instead of letting each reach the client when written.
 */
const COMPRESSIBLE_TYPES =
  /^text\/(?!event-stream)|^application\/(?:[\w.-]+\+)?(?:json|xml)(?:;|$)|^(?:application|text)\/javascript(?:;|$)|^image\/svg\+xml(?:;|$)/u;

/**
 * Compresses answers above the threshold on the fly (br, else gzip) with Vary: Accept-Encoding; answers that already
 * carry a Content-Encoding (precompressed files, cached generated texts) pass untouched. Request bodies are never
 * decompressed: the body limits apply to what the client sends. Registered before the routes it applies to.
 */
export async function registerCompression(app: FastifyInstance) {
  await app.register(compress, {
    encodings: [...ENCODINGS],
    threshold: COMPRESSION_THRESHOLD,
    customTypes: COMPRESSIBLE_TYPES,
    globalDecompression: false,
  });
}

/**
 * Serves the built files under `root` at `prefix`, each as its brotli or gzip copy written at build time when the
 * client accepts one (scripts/precompress.mjs), else as is: Vary: Accept-Encoding, the original's Content-Type, the
 * copy's own length and ETag, and Range and HEAD as for any file. The copies are not routes of their own.
 */
export async function registerBuiltFiles(
  app: FastifyInstance,
  options: { root: string; prefix: string; wildcard?: boolean; cacheControl: (filePath: string) => string },
) {
  await app.register(fastifyStatic, {
    root: options.root,
    prefix: options.prefix,
    wildcard: options.wildcard ?? true,
    globIgnore: ['**/*.br', '**/*.gz'],
    index: false,
    decorateReply: false,
    preCompressed: true,
    setHeaders(reply, filePath) {
      reply.header('cache-control', options.cacheControl(filePath));
    },
  });
}

/** Routes of the content-hashed build output: the console's and the chat app's scripts, styles and fonts. */
const HASHED_ASSET_ROUTE = /^\/(?:widget\/)?assets\//u;

/**
 * Whether a request reads a content-hashed built file through its route (a missing file under the same path is no
 * such route). These are never rate limited: a browser fetches each once and caches it for good, and a first visit
 * loads a hundred of them, which a whole office behind one address would otherwise spend its budget on.
 */
export function readsHashedAsset(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    HASHED_ASSET_ROUTE.test(request.routeOptions.url ?? '')
  );
}

/** The encoding to send a generated answer in: br, else gzip, else null (the identity). */
export function acceptedEncoding(request: FastifyRequest): ContentEncoding | null {
  const header = request.headers['accept-encoding'];
  return typeof header === 'string' ? negotiate(header.toLowerCase(), [...ENCODINGS]) : null;
}

/** The ETag of one encoding of a representation: a strong validator differs between encodings. */
export function encodedEtag(etag: string, encoding: ContentEncoding | null): string {
  return encoding === null ? etag : etag.replace(/"$/u, `-${encoding}"`);
}

/** Adds Accept-Encoding to the reply's Vary header, once. */
export function varyOnEncoding(reply: FastifyReply): FastifyReply {
  const current = reply.getHeader('vary');
  const names = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.includes('*') || names.some((name) => name.toLowerCase() === 'accept-encoding')) return reply;
  return reply.header('vary', [...names, 'Accept-Encoding'].join(', '));
}

const ENCODED_CACHE_SIZE = 500;
/** Encoded generated texts by digest and encoding, the oldest dropped first. */
const encodedCache = new Map<string, Buffer>();

function encode(text: string, encoding: ContentEncoding): Buffer {
  const key = `${encoding}:${createHash('sha256').update(text).digest('base64')}`;
  const cached = encodedCache.get(key);
  if (cached) return cached;
  const encoded =
    encoding === 'br'
      ? brotliCompressSync(text, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          },
        })
      : gzipSync(text, { level: constants.Z_BEST_COMPRESSION });
  if (encodedCache.size >= ENCODED_CACHE_SIZE) {
    const oldest = encodedCache.keys().next().value;
    if (oldest !== undefined) encodedCache.delete(oldest);
  }
  encodedCache.set(key, encoded);
  return encoded;
}

/**
 * Sends a text generated per request (a bot's loader) in `encoding` (from acceptedEncoding), compressed once at the
 * highest level and kept for the next request with the same text. The caller sets the ETag from encodedEtag and
 * Vary with varyOnEncoding, so that a 304 carries them too.
 */
export function sendEncoded(reply: FastifyReply, text: string, encoding: ContentEncoding | null) {
  if (encoding === null || Buffer.byteLength(text) < COMPRESSION_THRESHOLD) return reply.send(text);
  return reply.header('content-encoding', encoding).send(encode(text, encoding));
}
