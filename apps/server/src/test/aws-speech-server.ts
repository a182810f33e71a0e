/**
 * A local Amazon Translate and Amazon Polly for tests, one server per service as AWS has one endpoint per service:
 *
 * - Amazon Translate (service `translate`, the AWS JSON 1.1 protocol): `POST /` with
 *   `X-Amz-Target: AWSShineFrontendService_20170701.TranslateText` and `{Text, SourceLanguageCode ('auto' detects),
 *   TargetLanguageCode, Settings: {Formality, Profanity}}`, answering `{TranslatedText, SourceLanguageCode,
 *   TargetLanguageCode, AppliedSettings}`; errors are `{__type, message}`;
 * - Amazon Polly (service `polly`, REST-JSON): `POST /v1/speech` with `{Text, OutputFormat: mp3, VoiceId, Engine}`,
 *   answering the audio bytes (`Content-Type: audio/mpeg`, `x-amzn-RequestCharacters`); errors are the
 *   `x-amzn-ErrorType` header with a `{message}` body.
 *
 * Every request is SigV4-signed and the signature VERIFIED with @smithy/signature-v4 against the test's key
 * (test/aws-sigv4.ts): an unknown key is 403 UnrecognizedClientException, a wrong secret 403
 * InvalidSignatureException, as AWS answers. `failure` makes the next calls fail (401, 403 AccessDeniedException, 429
 * ThrottlingException, 500, hang, an answer that is not what the protocol says); every request is recorded.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AwsTestKeys, AwsHttpError, createSigV4Verifier, headerOf } from './aws-sigv4';
import { detectLanguage, fakeAudio, translatePhrase } from './google-cloud-server';

export type AwsSpeechFailureMode = 'none' | 401 | 403 | 429 | 500 | 'hang' | 'malformed';

export interface AwsSpeechRequest {
  target: string | undefined;
  path: string;
  body: Record<string, unknown>;
}

export interface AwsSpeechServer {
  url: string;
  service: 'translate' | 'polly';
  requests: AwsSpeechRequest[];
  failure: AwsSpeechFailureMode;
  close(): Promise<void>;
}

const FAILURES: Record<401 | 403 | 429 | 500, [string, string]> = {
  401: ['UnrecognizedClientException', 'The security token included in the request is invalid.'],
  403: ['AccessDeniedException', 'User is not authorized to perform this action.'],
  429: ['ThrottlingException', 'Rate exceeded'],
  500: ['InternalServerException', 'An internal error occurred.'],
};

const TRANSLATE_TARGET = 'AWSShineFrontendService_20170701.TranslateText';

export async function startAwsSpeechServer(options: {
  service: 'translate' | 'polly';
  keys: AwsTestKeys;
  region: string;
}): Promise<AwsSpeechServer> {
  const verifier = createSigV4Verifier(options);
  const hanging = new Set<ServerResponse>();
  const state: AwsSpeechServer = {
    url: '',
    service: options.service,
    requests: [],
    failure: 'none',
    close: () => Promise.resolve(),
  };

  function answerError(response: ServerResponse, error: AwsHttpError) {
    if (options.service === 'translate') {
      response.writeHead(error.status, {
        'content-type': 'application/x-amz-json-1.1',
        'x-amzn-requestid': randomUUID(),
      });
      response.end(JSON.stringify({ __type: error.type, message: error.message }));
      return;
    }
    response.writeHead(error.status, {
      'content-type': 'application/json',
      'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/com.amazonaws.polly/`,
      'x-amzn-requestid': randomUUID(),
    });
    response.end(JSON.stringify({ message: error.message }));
  }

  function translate(response: ServerResponse, body: Record<string, unknown>, malformed: boolean) {
    const text = typeof body.Text === 'string' ? body.Text : '';
    const source = typeof body.SourceLanguageCode === 'string' ? body.SourceLanguageCode : '';
    const target = typeof body.TargetLanguageCode === 'string' ? body.TargetLanguageCode : '';
    if (text === '' || source === '' || target === '') {
      throw new AwsHttpError(400, 'ValidationException', '1 validation error detected.');
    }
    const settings = (body.Settings ?? {}) as Record<string, unknown>;
    const from = source === 'auto' ? detectLanguage(text) : source;
    response.writeHead(200, {
      'content-type': 'application/x-amz-json-1.1',
      'x-amzn-requestid': randomUUID(),
    });
    response.end(
      JSON.stringify(
        malformed
          ? { Translated: 1 }
          : {
              TranslatedText: translatePhrase(text, from, target),
              SourceLanguageCode: from,
              TargetLanguageCode: target,
              AppliedSettings: settings,
            },
      ),
    );
  }

  function synthesize(response: ServerResponse, body: Record<string, unknown>, malformed: boolean) {
    const text = typeof body.Text === 'string' ? body.Text : '';
    const voice = typeof body.VoiceId === 'string' ? body.VoiceId : '';
    if (text === '' || voice === '' || body.OutputFormat !== 'mp3') {
      throw new AwsHttpError(400, 'ValidationException', '1 validation error detected.');
    }
    const engine = typeof body.Engine === 'string' ? body.Engine : 'standard';
    if (!['standard', 'neural', 'long-form', 'generative'].includes(engine)) {
      throw new AwsHttpError(
        400,
        'EngineNotSupportedException',
        'This voice does not support the selected engine.',
      );
    }
    const audio = malformed ? Buffer.alloc(0) : fakeAudio(`${voice}/${engine}`, text);
    response.writeHead(200, {
      'content-type': 'audio/mpeg',
      'x-amzn-requestcharacters': String(text.length),
      'x-amzn-requestid': randomUUID(),
    });
    response.end(audio);
  }

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', state.url);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const target = headerOf(request, 'x-amz-target');
    let body: Record<string, unknown> = {};
    try {
      body = raw.length === 0 ? {} : (JSON.parse(raw.toString('utf8')) as Record<string, unknown>);
    } catch {
      answerError(response, new AwsHttpError(400, 'SerializationException', 'Malformed request body.'));
      return;
    }
    state.requests.push({ target, path: url.pathname, body });
    try {
      await verifier.verify(request, url, raw);
      const failure = state.failure;
      if (failure === 'hang') {
        hanging.add(response);
        return;
      }
      if (typeof failure === 'number') {
        const [type, message] = FAILURES[failure];
        throw new AwsHttpError(failure, type, message);
      }
      if (options.service === 'translate') {
        if (request.method !== 'POST' || url.pathname !== '/' || target !== TRANSLATE_TARGET) {
          throw new AwsHttpError(400, 'UnknownOperationException', 'Unknown operation.');
        }
        translate(response, body, failure === 'malformed');
        return;
      }
      if (request.method !== 'POST' || url.pathname !== '/v1/speech') {
        throw new AwsHttpError(404, 'UnknownOperationException', 'Unknown operation.');
      }
      synthesize(response, body, failure === 'malformed');
    } catch (error) {
      if (error instanceof AwsHttpError) answerError(response, error);
      else answerError(response, new AwsHttpError(500, 'InternalServerException', 'Internal error.'));
    }
  }

  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  state.url = `http://127.0.0.1:${String(port)}`;
  state.close = async () => {
    for (const response of hanging) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}
