import {
  BedrockRuntimeClient,
  type ContentBlock,
  ConverseCommand,
  ConverseStreamCommand,
  type Message,
} from '@aws-sdk/client-bedrock-runtime';
import { type BedrockSettings, bedrockEndpointOf } from '@omnibot/contracts';
import type { GuardedWebFetch } from '../../../lib/guarded-http/guarded-fetch';
import { type ChatModel, type ChatRequest, ProviderError } from '../../models/providers';
import { awsEngineFailure } from './aws-engine-failure';
import { GuardedSmithyHandler } from './guarded-smithy-handler';

/**
 * Amazon Bedrock through the official runtime client: Converse for a whole answer, ConverseStream for an answer
 * streamed as event-stream frames. Requests are signed with the access key (SigV4) or carry the Bedrock API key as a
 * bearer token, and every one goes through the guarded HTTP client to the region's runtime or the settings' override,
 * one attempt.
 */

const SERVICE = 'Amazon Bedrock';
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

export interface BedrockRuntime extends ChatModel {
  /** A harmless real call: a one-token Converse. */
  probe(): Promise<{ latencyMs: number; detail: string }>;
}

/**
 * The conversation as Converse takes it: it starts with the visitor and alternates, so leading bot turns are dropped
 * and consecutive turns of one side are joined.
 */
export function converseMessagesOf(messages: ChatRequest['messages']): Message[] {
  const out: Message[] = [];
  for (const message of messages) {
    const text = message.content.trim();
    if (text === '') continue;
    if (out.length === 0 && message.role !== 'user') continue;
    const last = out[out.length - 1];
    if (last?.role === message.role) {
      last.content = [{ text: `${textOf(last.content)}\n\n${text}` }];
    } else {
      out.push({ role: message.role, content: [{ text }] });
    }
  }
  return out;
}

const textOf = (blocks: ContentBlock[] | undefined) =>
  (blocks ?? [])
    .map((block) => ('text' in block && typeof block.text === 'string' ? block.text : ''))
    .join('');

export function createBedrockRuntime(
  settings: BedrockSettings,
  fetch: GuardedWebFetch,
  options: { requestTimeoutMs: number },
): BedrockRuntime {
  const handler = new GuardedSmithyHandler(fetch, {
    requestTimeoutMs: options.requestTimeoutMs,
    maxBytes: MAX_ANSWER_BYTES,
  });
  const auth =
    settings.auth === 'api_key'
      ? { token: { token: settings.api_key }, authSchemePreference: ['httpBearerAuth'] }
      : {
          credentials: {
            accessKeyId: settings.access_key_id,
            secretAccessKey: settings.secret_access_key,
          },
          authSchemePreference: ['sigv4'],
        };
  // One attempt: the visitor waits, and a hang must not be multiplied by the SDK's retries.
  const client = new BedrockRuntimeClient({
    region: settings.region,
    endpoint: bedrockEndpointOf(settings),
    requestHandler: handler,
    maxAttempts: 1,
    ...auth,
  });
  const secrets = [settings.secret_access_key, settings.api_key];

  const commandInput = (request: ChatRequest) => {
    const messages = converseMessagesOf(request.messages);
    if (messages.length === 0) {
      throw new ProviderError('provider/bad-response', 'There is no visitor message to answer.');
    }
    return {
      modelId: settings.model,
      messages,
      ...(request.system ? { system: [{ text: request.system }] } : {}),
      inferenceConfig: {
        maxTokens: request.maxTokens ?? settings.max_tokens,
        temperature: request.temperature ?? settings.temperature,
      },
    };
  };
  const sendOptions = (request: ChatRequest) => (request.signal ? { abortSignal: request.signal } : {});

  async function generate(request: ChatRequest) {
    let answer;
    try {
      answer = await client.send(new ConverseCommand(commandInput(request)), sendOptions(request));
    } catch (error) {
      throw awsEngineFailure(SERVICE, error, secrets, request.signal);
    }
    const message = answer.output && 'message' in answer.output ? answer.output.message : undefined;
    if (!message || !Array.isArray(message.content)) {
      throw new ProviderError('provider/bad-response', `${SERVICE} sent an answer without a message.`);
    }
    return {
      text: textOf(message.content),
      usage: {
        inputTokens: answer.usage?.inputTokens ?? null,
        outputTokens: answer.usage?.outputTokens ?? null,
      },
    };
  }

  async function* stream(request: ChatRequest): AsyncGenerator<string> {
    let stopped = false;
    let receiving = false;
    try {
      const answer = await client.send(
        new ConverseStreamCommand(commandInput(request)),
        sendOptions(request),
      );
      receiving = true;
      if (!answer.stream) {
        throw new ProviderError('provider/bad-response', `${SERVICE} sent no event stream.`);
      }
      for await (const event of answer.stream) {
        const text =
          event.contentBlockDelta?.delta && 'text' in event.contentBlockDelta.delta
            ? event.contentBlockDelta.delta.text
            : undefined;
        if (typeof text === 'string' && text !== '') yield text;
        if (event.messageStop) stopped = true;
      }
    } catch (error) {
      const failure = awsEngineFailure(SERVICE, error, secrets, request.signal);
      // The connection closing under an answer half read shows as a bare error of the body's reader.
      if (receiving && failure.code === 'provider/bad-response' && !request.signal?.aborted) {
        throw new ProviderError(
          'provider/bad-response',
          `${SERVICE} ended the stream mid-answer (the connection closed).`,
        );
      }
      throw failure;
    }
    // A stream that ends before messageStop was cut off: what came is not the whole answer.
    if (!stopped) throw new ProviderError('provider/bad-response', `${SERVICE} ended the stream mid-answer.`);
  }

  return {
    generate,
    stream,
    async probe() {
      const started = performance.now();
      await generate({ messages: [{ role: 'user', content: 'Reply with OK.' }], maxTokens: 1 });
      const latencyMs = Math.round(performance.now() - started);
      return { latencyMs, detail: `${settings.model} on Amazon Bedrock answered in ${latencyMs} ms.` };
    },
  };
}
