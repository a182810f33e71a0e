import { FetchError } from '../../../lib/guarded-http/guarded-fetch';
import { ProviderError, type ProviderErrorCode } from '../../models/providers';
import { RequestTimeoutError, ResponseTooLargeError } from './guarded-smithy-handler';

interface ServiceErrorLike {
  name: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
}

const isServiceError = (error: unknown): error is ServiceErrorLike =>
  error instanceof Error && '$metadata' in error && typeof error.$metadata === 'object';

/** What AWS's exception names mean, in words a tenant's staff can act on. */
const PLAIN_WORDS: Record<string, string> = {
  AccessDeniedException: 'the access key is not allowed to do this',
  UnrecognizedClientException: 'the access key id is not known to AWS',
  InvalidSignatureException: 'the request signature does not match: the secret access key is wrong',
  MissingAuthenticationTokenException: 'the request carried no credentials',
  ExpiredTokenException: 'the credentials have expired',
  ThrottlingException: 'too many requests for now',
  TooManyRequestsException: 'too many requests for now',
  ServiceQuotaExceededException: 'a service quota is reached',
  ModelNotReadyException: 'the model is not ready yet',
  ModelTimeoutException: 'the model took too long',
  ModelErrorException: 'the model failed to answer',
  ModelStreamErrorException: 'the model failed while streaming',
  ServiceUnavailableException: 'the service is unavailable for now',
  InternalServerException: 'an internal error at AWS',
  BadGatewayException: 'an upstream error at AWS',
  DependencyFailedException: 'a dependency of the bot (such as its Lambda) failed',
  ResourceNotFoundException: 'the bot, alias, locale or model was not found',
  ValidationException: 'the request was refused as invalid',
  ConflictException: 'the session is busy with another request',
};

const codeOfStatus = (status: number): ProviderErrorCode => {
  if (status === 401 || status === 403) return 'provider/unauthorized';
  if (status === 429) return 'provider/rate-limited';
  if (status === 408 || status === 504) return 'provider/timeout';
  return 'provider/error';
};

/**
 * An AWS engine call's failure as a ProviderError in plain words: the service, the HTTP status and AWS's exception
 * named, the first line of AWS's message (a signature mismatch appends the string it signed) with every secret
 * masked. Timeouts, refused addresses and oversized answers are named as such.
 */
export function awsEngineFailure(
  service: string,
  error: unknown,
  secrets: readonly string[],
  signal?: AbortSignal,
): ProviderError {
  if (error instanceof ProviderError) return error;
  const scrub = (text: string) =>
    secrets.reduce((out, secret) => (secret.length >= 8 ? out.split(secret).join('[hidden]') : out), text);
  if (error instanceof RequestTimeoutError) {
    return new ProviderError(
      'provider/timeout',
      `${service} did not answer within ${error.timeoutMs / 1000} s.`,
    );
  }
  if (error instanceof ResponseTooLargeError) {
    return new ProviderError('provider/bad-response', `The answer of ${service} was larger than expected.`);
  }
  if (error instanceof FetchError) {
    return new ProviderError(
      'provider/unreachable',
      `${service} could not be reached: ${scrub(error.reason)}`,
      error.code,
    );
  }
  if (signal?.aborted) return new ProviderError('provider/error', `The call to ${service} was stopped.`);
  if (isServiceError(error)) {
    const status = error.$metadata?.httpStatusCode;
    const words = PLAIN_WORDS[error.name];
    const said = scrub((error.message ?? '').split('\n')[0]?.trim().slice(0, 200) ?? '');
    if (status === undefined || (words === undefined && status < 300)) {
      // No HTTP status: the SDK could not read what came back (a cut stream, a body that is not the protocol's).
      return new ProviderError(
        'provider/bad-response',
        `${service} sent an answer that cannot be read${said ? `: ${said}` : '.'}`,
      );
    }
    const detail =
      `${service} answered HTTP ${status} ${error.name}, ${words ?? 'an error'}` +
      (said && said !== error.name && said !== 'UnknownError' ? `: ${said}` : '.');
    return new ProviderError(codeOfStatus(status), detail);
  }
  const message = error instanceof Error ? error.message : String(error);
  const name = error instanceof Error ? `${error.name.charAt(0).toUpperCase()}${error.name.slice(1)}` : '';
  const words = PLAIN_WORDS[name];
  if (words !== undefined) {
    // An exception AWS sent inside an event stream: named, without an HTTP status of its own.
    const said = scrub(message.split('\n')[0]?.trim().slice(0, 200) ?? '');
    return new ProviderError(
      /Throttling|TooManyRequests|ServiceQuota/u.test(name) ? 'provider/rate-limited' : 'provider/error',
      `${service} stopped the answer with ${name}, ${words}${said ? `: ${said}` : '.'}`,
    );
  }
  return new ProviderError(
    'provider/bad-response',
    `${service} failed: ${scrub(message.split('\n')[0] ?? '').slice(0, 200)}`,
  );
}
