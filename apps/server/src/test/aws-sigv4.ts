/**
 * AWS Signature Version 4, checked the way AWS checks it, for the local servers that speak AWS protocols (Amazon
 * Connect, Lex V2, Bedrock, Translate, Polly): the request is signed again with the known test key by
 * @smithy/signature-v4 and the signatures compared. Errors carry the status and `__type` AWS answers with: a missing
 * Authorization header 403 MissingAuthenticationTokenException, an unknown key 403 UnrecognizedClientException, a
 * wrong scope, date or signature 403 InvalidSignatureException, a body that is not the signed one 400
 * XAmzContentSHA256Mismatch.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SignatureV4 } from '@smithy/signature-v4';
import type { Checksum, QueryParameterBag, SourceData } from '@smithy/types';

export interface AwsTestKeys {
  accessKeyId: string;
  secretAccessKey: string;
}

/** An error as an AWS service answers it: an HTTP status and the exception's type name. */
export class AwsHttpError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

/** How far a request's X-Amz-Date may be from the server's clock. */
const SIGNATURE_SKEW_MS = 15 * 60_000;

/** SHA-256 and HMAC-SHA-256 for the signer, from node:crypto. */
class Sha256 implements Checksum {
  private hash;
  constructor(private readonly secret?: SourceData) {
    this.hash = this.fresh();
  }
  private fresh() {
    return this.secret === undefined
      ? createHash('sha256')
      : createHmac(
          'sha256',
          typeof this.secret === 'string' ? this.secret : Buffer.from(this.secret as Uint8Array),
        );
  }
  update(data: Uint8Array | string): void {
    this.hash.update(typeof data === 'string' ? data : Buffer.from(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(new Uint8Array(this.hash.digest()));
  }
  reset(): void {
    this.hash = this.fresh();
  }
}

export function headerOf(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
}

/**
 * A checker of SigV4-signed requests for one service in one region with one key. `verify` resolves when the
 * request is signed with the key for this region and service, and throws AwsHttpError otherwise.
 */
export function createSigV4Verifier(options: { keys: AwsTestKeys; region: string; service: string }) {
  const { keys, region, service } = options;
  const signer = new SignatureV4({
    credentials: { accessKeyId: keys.accessKeyId, secretAccessKey: keys.secretAccessKey },
    region,
    service,
    sha256: Sha256,
    applyChecksum: false,
  });
  return {
    async verify(request: IncomingMessage, url: URL, body: string | Buffer): Promise<void> {
      const authorization = headerOf(request, 'authorization') ?? '';
      const parsed =
        /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/u.exec(
          authorization,
        );
      if (!parsed) {
        throw new AwsHttpError(403, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
      }
      const [, accessKeyId, , scopeRegion, scopeService, signedList = '', signature = ''] = parsed;
      if (accessKeyId !== keys.accessKeyId) {
        throw new AwsHttpError(
          403,
          'UnrecognizedClientException',
          'The security token included in the request is invalid.',
        );
      }
      if (scopeRegion !== region || scopeService !== service) {
        throw new AwsHttpError(
          403,
          'InvalidSignatureException',
          'Credential should be scoped to a valid region and service.',
        );
      }
      const amzDate = headerOf(request, 'x-amz-date') ?? '';
      const dated = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/u.exec(amzDate);
      if (!dated)
        throw new AwsHttpError(403, 'InvalidSignatureException', 'The request has no valid X-Amz-Date.');
      const signingDate = new Date(
        `${dated[1]}-${dated[2]}-${dated[3]}T${dated[4]}:${dated[5]}:${dated[6]}Z`,
      );
      if (Math.abs(signingDate.getTime() - Date.now()) > SIGNATURE_SKEW_MS) {
        throw new AwsHttpError(403, 'InvalidSignatureException', 'Signature expired.');
      }
      const declaredHash = headerOf(request, 'x-amz-content-sha256');
      if (
        declaredHash &&
        declaredHash !== 'UNSIGNED-PAYLOAD' &&
        declaredHash !== createHash('sha256').update(body).digest('hex')
      ) {
        throw new AwsHttpError(
          400,
          'XAmzContentSHA256Mismatch',
          'The provided x-amz-content-sha256 header does not match.',
        );
      }
      const signedHeaders = signedList.split(';');
      const headers: Record<string, string> = {};
      for (const name of signedHeaders) {
        const value = headerOf(request, name);
        if (value !== undefined) headers[name] = value;
      }
      const query: QueryParameterBag = {};
      for (const [name, value] of url.searchParams) {
        const existing = query[name];
        query[name] = existing === undefined || existing === null ? value : [...[existing].flat(), value];
      }
      const signed = await signer.sign(
        {
          method: request.method ?? 'GET',
          protocol: 'http:',
          hostname: url.hostname,
          port: Number(url.port),
          path: url.pathname,
          query,
          headers,
          body,
        },
        { signingDate, signableHeaders: new Set(signedHeaders) },
      );
      const expected = /Signature=([0-9a-f]{64})$/u.exec(String(signed.headers.authorization))?.[1] ?? '';
      if (
        expected.length !== signature.length ||
        !timingSafeEqual(Buffer.from(expected), Buffer.from(signature))
      ) {
        throw new AwsHttpError(
          403,
          'InvalidSignatureException',
          'The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method.',
        );
      }
    },
  };
}
