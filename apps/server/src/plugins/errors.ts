import { AUTH_MESSAGES } from '@omnibot/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
}

/** Paths that belong to the API: they answer JSON 404s and never fall back to the console. */
const API_PREFIXES = ['/v1', '/api', '/docs', '/healthz', '/readyz', '/metrics'];
export const isApiPath = (url: string) =>
  API_PREFIXES.some(
    (prefix) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`),
  );

function describeValidation(error: FastifyError): string {
  const issues = (error.validation ?? []) as ValidationIssue[];
  const first = issues[0];
  const where = error.validationContext ?? 'body';
  const field = first?.instancePath?.replace(/^\//, '').replaceAll('/', '.') ?? '';
  const name = field ? `${where}.${field}` : where;
  return `${name}: ${first?.message ?? 'is invalid'}`;
}

interface SerializedError {
  [field: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

// Fields of an error that describe it without quoting submitted values (pg's `detail`, `where` and Drizzle's
// `params` do quote them, so they are never logged).
const LOGGED_ERROR_FIELDS = ['code', 'statusCode', 'severity', 'constraint', 'table', 'column', 'routine'];

/**
 * The log serializer for `err`: type, message, stack, descriptive fields and causes, without the values a
 * failed query was given (Drizzle writes them into its message after "params:").
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) return { type: typeof error, message: '', stack: '' };
  const message = error.message.split('\nparams:')[0] ?? '';
  const frames = error.stack?.indexOf('\n    at ') ?? -1;
  const stack = error.stack && frames >= 0 ? `${error.name}: ${message}${error.stack.slice(frames)}` : '';
  const serialized: SerializedError = { type: error.constructor.name, message, stack };
  const fields = error as unknown as Record<string, unknown>;
  for (const field of LOGGED_ERROR_FIELDS) {
    const value = fields[field];
    if (typeof value === 'string' || typeof value === 'number') serialized[field] = value;
  }
  if (error.cause !== undefined && depth < 5) serialized.cause = serializeError(error.cause, depth + 1);
  return serialized;
}

/** Every error becomes `{ code, message }` with the right status; no stack trace ever leaves the server. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return reply
        .status(error.statusCode)
        .headers(error.headers)
        .send({ code: error.code, message: error.message });
    }
    if (error.validation) {
      return reply.status(400).send({ code: 'invalid_argument', message: describeValidation(error) });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      if (status === 429) request.log.warn({ url: request.url }, 'rate limited');
      return reply.status(status).send({ code: clientCode(error), message: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({
      code: 'internal',
      message: AUTH_MESSAGES.internal,
      requestId: request.id,
    });
  });
}

function clientCode(error: FastifyError): string {
  if (error.statusCode === 429) return 'too_many_requests';
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'invalid_json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'payload_too_large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'unsupported_media_type';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'invalid_content_length';
    default:
      return typeof error.code === 'string' && /^[a-z_/-]+$/.test(error.code) ? error.code : 'bad_request';
  }
}
