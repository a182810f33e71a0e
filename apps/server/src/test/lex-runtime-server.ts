/**
 * A local Amazon Lex V2 runtime for tests. It speaks the Lex V2 runtime's REST-JSON API (service `lex`, every request
 * SigV4-signed, the signature VERIFIED with @smithy/signature-v4 through aws-sigv4.ts against the test's key):
 *
 * - `POST /bots/{botId}/botAliases/{botAliasId}/botLocales/{localeId}/sessions/{sessionId}/text` (RecognizeText):
 *   `{text, sessionState?, requestAttributes?}` in, `{messages, sessionState, interpretations, sessionId}` out;
 * - `DELETE /bots/{botId}/botAliases/{botAliasId}/botLocales/{localeId}/sessions/{sessionId}` (DeleteSession).
 *
 * Errors are AWS's: status, the `x-amzn-ErrorType` header and a `{"message"}` body (403 for a bad signature or an
 * unknown key, 404 ResourceNotFoundException for another bot, alias or locale, 400 ValidationException). Like Lex,
 * it keeps each session's state (intent, slots, session attributes) and uses the request's `sessionState` when one is
 * sent; `forgetSessions()` plays Lex's idle timeout.
 *
 * The scripted bot (a flower shop): Greeting answers with two PlainText messages; OrderFlowers elicits FlowerType
 * with an ImageResponseCard, then PickupDate, then closes with PlainText, a CustomPayload and an SSML message and
 * remembers the order in the session attributes; WhatDidIOrder reads them back; WhichLanguage reads the
 * `omnibot_language` session attribute; TalkToAgent asks for a person; anything else is FallbackIntent. A control API
 * makes the next calls fail (401, 403, 429, 500, a hang, a malformed body) and records every request.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AwsHttpError, type AwsTestKeys, createSigV4Verifier } from './aws-sigv4';

export type LexFakeFailure = 401 | 403 | 429 | 500 | 'hang' | 'malformed';

interface Slot {
  value: { originalValue: string; interpretedValue: string; resolvedValues: string[] };
}

interface FakeSessionState {
  dialogAction?: { type: string; slotToElicit?: string };
  intent?: { name: string; state: string; confirmationState: string; slots: Record<string, Slot | null> };
  sessionAttributes?: Record<string, string>;
  originatingRequestId?: string;
}

export interface LexFakeRequest {
  method: string;
  path: string;
  sessionId: string | null;
  text: string | null;
  /** Whether the request carried a session state of its own. */
  sentSessionState: boolean;
  sessionAttributes: Record<string, string>;
  status: number;
}

export interface LexRuntimeServer {
  baseUrl: string;
  region: string;
  botId: string;
  botAliasId: string;
  localeId: string;
  keys: AwsTestKeys;
  requests: LexFakeRequest[];
  /** The state the fake holds for each session. */
  sessions: Map<string, FakeSessionState>;
  /** Plays Lex's session idle timeout: every stored session is gone. */
  forgetSessions(): void;
  failNext(failure: LexFakeFailure, times?: number): void;
  clearFailures(): void;
  close(): Promise<void>;
}

const FAILURE_TYPES: Record<401 | 403 | 429 | 500, string> = {
  401: 'UnrecognizedClientException',
  403: 'AccessDeniedException',
  429: 'ThrottlingException',
  500: 'InternalServerException',
};

const FLOWERS = ['roses', 'tulips', 'lilies'];

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

const plain = (content: string) => ({ contentType: 'PlainText', content });
const slotOf = (value: string): Slot => ({
  value: { originalValue: value, interpretedValue: value, resolvedValues: [value] },
});

/** The scripted bot's turn: the messages and the session state after it. */
function converse(text: string, state: FakeSessionState): { messages: unknown[]; state: FakeSessionState } {
  const said = text.trim().toLowerCase();
  const attributes = { ...(state.sessionAttributes ?? {}) };
  const inOrder = state.intent?.name === 'OrderFlowers' && state.intent.state === 'InProgress';
  const eliciting = inOrder ? state.dialogAction?.slotToElicit : undefined;
  const intent = (name: string, intentState: string, slots: Record<string, Slot | null> = {}) => ({
    name,
    state: intentState,
    confirmationState: 'None',
    slots,
  });
  if (eliciting === 'FlowerType' && FLOWERS.includes(said)) {
    return {
      messages: [plain(`When would you like to pick up the ${said}?`)],
      state: {
        dialogAction: { type: 'ElicitSlot', slotToElicit: 'PickupDate' },
        intent: intent('OrderFlowers', 'InProgress', { FlowerType: slotOf(said), PickupDate: null }),
        sessionAttributes: attributes,
      },
    };
  }
  if (eliciting === 'PickupDate' && /^(today|tomorrow|monday|friday)$/u.test(said)) {
    const flower = state.intent?.slots.FlowerType?.value.interpretedValue ?? 'flowers';
    return {
      messages: [
        plain(`Your ${flower} will be ready ${said}.`),
        { contentType: 'CustomPayload', content: '{"kind":"receipt","channel":"kiosk"}' },
        {
          contentType: 'SSML',
          content: '<speak>Thank you <break time="300ms"/> for your order &amp; see you!</speak>',
        },
      ],
      state: {
        dialogAction: { type: 'Close' },
        intent: intent('OrderFlowers', 'Fulfilled', {
          FlowerType: slotOf(flower),
          PickupDate: slotOf(said),
        }),
        sessionAttributes: { ...attributes, lastOrder: `${flower} ${said}` },
      },
    };
  }
  if (/^(hello|hi|hey)\b/u.test(said)) {
    return {
      messages: [plain('Hello! I am the flower shop bot.'), plain('What can I do for you?')],
      state: {
        dialogAction: { type: 'Close' },
        intent: intent('Greeting', 'Fulfilled'),
        sessionAttributes: attributes,
      },
    };
  }
  if (said.includes('order flowers')) {
    return {
      messages: [
        {
          contentType: 'ImageResponseCard',
          imageResponseCard: {
            title: 'Which flowers would you like?',
            subtitle: 'Fresh every morning',
            buttons: FLOWERS.map((flower) => ({
              text: flower.charAt(0).toUpperCase() + flower.slice(1),
              value: flower,
            })),
          },
        },
      ],
      state: {
        dialogAction: { type: 'ElicitSlot', slotToElicit: 'FlowerType' },
        intent: intent('OrderFlowers', 'InProgress', { FlowerType: null, PickupDate: null }),
        sessionAttributes: attributes,
      },
    };
  }
  if (said.includes('what did i order')) {
    const order = attributes.lastOrder;
    return {
      messages: [plain(order ? `You ordered ${order}.` : 'You have not ordered yet.')],
      state: {
        dialogAction: { type: 'Close' },
        intent: intent('WhatDidIOrder', 'Fulfilled'),
        sessionAttributes: attributes,
      },
    };
  }
  if (said.includes('which language')) {
    return {
      messages: [plain(`We are speaking ${attributes.omnibot_language ?? 'nothing known'}.`)],
      state: {
        dialogAction: { type: 'Close' },
        intent: intent('WhichLanguage', 'Fulfilled'),
        sessionAttributes: attributes,
      },
    };
  }
  if (said.includes('agent') || said.includes('person')) {
    return {
      messages: [plain('Let me find a person for you.')],
      state: {
        dialogAction: { type: 'Close' },
        intent: intent('TalkToAgent', 'Fulfilled'),
        sessionAttributes: attributes,
      },
    };
  }
  if (said === 'silence') {
    return {
      messages: [{ contentType: 'CustomPayload', content: '{"only":"payload"}' }],
      state: {
        dialogAction: { type: 'Close' },
        intent: intent('Silent', 'Fulfilled'),
        sessionAttributes: attributes,
      },
    };
  }
  return {
    messages: [plain('Sorry, I did not understand.')],
    state: {
      dialogAction: { type: 'ElicitIntent' },
      intent: intent('FallbackIntent', 'Failed'),
      sessionAttributes: attributes,
    },
  };
}

export async function startLexRuntimeServer(
  options: { region?: string; keys?: AwsTestKeys } = {},
): Promise<LexRuntimeServer> {
  const region = options.region ?? 'us-west-2';
  const keys = options.keys ?? {
    accessKeyId: 'AKIALEXTESTKEY000001',
    secretAccessKey: 'lex-test-secret-access-key-0123456789abcd',
  };
  const botId = 'FLOWERBOT1';
  const botAliasId = 'TSTALIASID';
  const localeId = 'en_US';
  const signature = createSigV4Verifier({ keys, region, service: 'lex' });
  const requests: LexFakeRequest[] = [];
  const sessions = new Map<string, FakeSessionState>();
  const failures: { failure: LexFakeFailure; times: number }[] = [];
  const hanging = new Set<ServerResponse>();
  let baseUrl = '';

  function answerError(response: ServerResponse, error: AwsHttpError): void {
    response.writeHead(error.status, {
      'content-type': 'application/json',
      'x-amzn-errortype': `${error.type}:http://internal.amazon.com/coral/com.amazonaws.deepsense.runtimeservice.v2/`,
      'x-amzn-requestid': randomUUID(),
    });
    response.end(JSON.stringify({ message: error.message }));
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', baseUrl);
    const body = await readBody(request);
    const route =
      /^\/bots\/([^/]+)\/botAliases\/([^/]+)\/botLocales\/([^/]+)\/sessions\/([^/]+)(\/text)?$/u.exec(
        url.pathname,
      );
    const record: LexFakeRequest = {
      method: request.method ?? 'GET',
      path: url.pathname,
      sessionId: route?.[4] ? decodeURIComponent(route[4]) : null,
      text: null,
      sentSessionState: false,
      sessionAttributes: {},
      status: 200,
    };
    requests.push(record);
    const failure = failures[0];
    if (failure) {
      failure.times -= 1;
      if (failure.times <= 0) failures.shift();
      if (failure.failure === 'hang') {
        record.status = 0;
        hanging.add(response);
        return;
      }
      if (failure.failure === 'malformed') {
        response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() });
        response.end('{"messages": [{"contentType": "PlainText", "content": "cut');
        return;
      }
      record.status = failure.failure;
      answerError(
        response,
        new AwsHttpError(
          failure.failure,
          FAILURE_TYPES[failure.failure],
          `Refused by the test (${failure.failure}).`,
        ),
      );
      return;
    }
    try {
      await signature.verify(request, url, body);
      if (!route) throw new AwsHttpError(404, 'UnknownOperationException', 'Unknown operation.');
      const [, bot = '', alias = '', locale = '', , isText] = route;
      if (bot !== botId || alias !== botAliasId || locale !== localeId) {
        throw new AwsHttpError(404, 'ResourceNotFoundException', 'Could not find the bot, alias or locale.');
      }
      const sessionId = record.sessionId ?? '';
      if (!/^[0-9a-zA-Z._:-]{2,100}$/u.test(sessionId)) {
        throw new AwsHttpError(400, 'ValidationException', 'sessionId does not match the allowed pattern.');
      }
      let answer: unknown;
      if (request.method === 'DELETE' && !isText) {
        sessions.delete(sessionId);
        answer = { botId, botAliasId, localeId, sessionId };
      } else if (request.method === 'POST' && isText) {
        let parsed: { text?: unknown; sessionState?: FakeSessionState };
        try {
          parsed = JSON.parse(body || '{}') as typeof parsed;
        } catch {
          throw new AwsHttpError(400, 'SerializationException', 'The body is not JSON.');
        }
        if (typeof parsed.text !== 'string' || parsed.text.length < 1 || parsed.text.length > 1024) {
          throw new AwsHttpError(400, 'ValidationException', 'text must be 1 to 1024 characters.');
        }
        record.text = parsed.text;
        const sent = parsed.sessionState;
        record.sentSessionState =
          sent !== undefined && (sent.intent !== undefined || sent.dialogAction !== undefined);
        record.sessionAttributes = { ...(sent?.sessionAttributes ?? {}) };
        // As Lex does: a session state sent with the request is the dialog's state; otherwise the stored one.
        const current: FakeSessionState = record.sentSessionState
          ? { ...sent }
          : {
              ...(sessions.get(sessionId) ?? {}),
              sessionAttributes: {
                ...(sessions.get(sessionId)?.sessionAttributes ?? {}),
                ...(sent?.sessionAttributes ?? {}),
              },
            };
        const turn = converse(parsed.text, current);
        const state = { ...turn.state, originatingRequestId: randomUUID() };
        sessions.set(sessionId, state);
        answer = {
          messages: turn.messages,
          sessionState: state,
          interpretations: [
            {
              intent: state.intent,
              nluConfidence: state.intent?.name === 'FallbackIntent' ? undefined : { score: 0.93 },
            },
          ],
          sessionId,
        };
      } else throw new AwsHttpError(404, 'UnknownOperationException', 'Unknown operation.');
      response.writeHead(200, { 'content-type': 'application/json', 'x-amzn-requestid': randomUUID() });
      response.end(JSON.stringify(answer));
    } catch (error) {
      const failed =
        error instanceof AwsHttpError
          ? error
          : new AwsHttpError(500, 'InternalServerException', String(error));
      record.status = failed.status;
      answerError(response, failed);
    }
  }

  const httpServer: Server = createServer((request, response) => {
    void handle(request, response);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
  return {
    baseUrl,
    region,
    botId,
    botAliasId,
    localeId,
    keys,
    requests,
    sessions,
    forgetSessions: () => sessions.clear(),
    failNext(failure, times = 1) {
      failures.push({ failure, times });
    },
    clearFailures: () => failures.splice(0),
    async close() {
      for (const response of hanging) response.destroy();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}
