import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  FeedbackBodySchema,
  IntentBodySchema,
  TtsBodySchema,
  WidgetConfigSchema,
  publicWidgetConfig,
  type IntentBody,
  type IntentReply,
  type IntentSource,
  type WidgetConfigInput,
  type WidgetServices,
  mapWidgetTexts,
  primaryLanguageOf,
  widgetTextsOf,
} from '@omnibot/contracts';

/** How the server answers one visitor message. */
export type Answer =
  /** Streams `deltas` (when the client asks for SSE), then the reply; `gate` holds the stream after the first delta. */
  | {
      kind: 'answer';
      deltas: string[];
      messages: string[];
      sources?: IntentSource[];
      handoverOffered?: boolean;
      fallback?: boolean;
      language?: string;
      /** Streamed text to discard (a `reset` event) before the deltas. */
      discarded?: string;
      gate?: Promise<void>;
      /** Answer JSON even when the client asks for a stream. */
      jsonOnly?: boolean;
      /** Bytes per network write, to cut events, lines and characters apart. */
      chunkBytes?: number;
    }
  /** A refusal as a plain HTTP response. */
  | { kind: 'refuse'; status: number; code: string; message: string }
  /** A refusal inside the stream (an `error` event after the conversation). */
  | { kind: 'stream-error'; code: string; message: string };

export interface TestBot {
  config: WidgetConfigInput;
  services?: WidgetServices;
  /** The next answers, in order; when empty, the bot echoes "You said: <text>". */
  answers?: Answer[];
  /** Refuse feedback with this status (429, say) instead of checking and accepting it. */
  feedbackRefusal?: number;
  /** Status of POST /v1/tts (200 gives a few bytes of audio). */
  ttsStatus?: number;
}

interface RecordedCall {
  method: string;
  path: string;
  accept: string;
  body: unknown;
}

export interface WidgetServer {
  origin: string;
  calls: RecordedCall[];
  bots: Record<string, TestBot>;
  close: () => Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const pause = () => new Promise((resolve) => setTimeout(resolve, 2));

/**
 * A local server speaking the widget API as documented in @omnibot/contracts widget-api.ts: the public config,
 * POST /v1/intent (SSE events conversation/delta/reset/reply/error with `Accept: text/event-stream`, JSON
 * otherwise), POST /v1/feedback and POST /v1/tts. Bodies are validated with the contract's schemas (400 otherwise),
 * conversation tokens are issued by the server and bound to one bot, and feedback must name a bot message of that
 * conversation, as the real endpoints require.
 */
export async function startWidgetServer(bots: Record<string, TestBot>): Promise<WidgetServer> {
  const calls: RecordedCall[] = [];
  const conversations = new Map<string, { botId: string; botMessages: Set<string> }>();

  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = request.url ?? '';
      const accept = request.headers.accept ?? '';
      const body = request.method === 'POST' ? await readBody(request).catch(() => null) : undefined;
      calls.push({ method: request.method ?? '', path, accept, body });
      const json = (status: number, value: unknown) => {
        response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      };

      const config = /^\/v1\/widget\/([^/]+)\/config$/.exec(path);
      if (request.method === 'GET' && config?.[1] !== undefined) {
        const bot = bots[decodeURIComponent(config[1])];
        if (bot === undefined) return json(404, { code: 'widget/bot-not-found', message: 'No such bot.' });
        return json(200, publicWidgetConfig(WidgetConfigSchema.parse(bot.config), bot.services));
      }

      // The widget's own texts, "translated" by marking each with the target language, as the real route does with
      // the bot's translator while it translates automatically.
      const texts = /^\/v1\/widget\/([^/]+)\/texts\?language=([\w-]+)$/.exec(path);
      if (request.method === 'GET' && texts?.[1] !== undefined && texts[2] !== undefined) {
        const bot = bots[decodeURIComponent(texts[1])];
        if (bot === undefined) return json(404, { code: 'widget/bot-not-found', message: 'No such bot.' });
        const config = publicWidgetConfig(WidgetConfigSchema.parse(bot.config), bot.services);
        const own = widgetTextsOf(config);
        const language = texts[2];
        const translating =
          config.services.translate &&
          config.language.autoTranslate &&
          primaryLanguageOf(language) !== primaryLanguageOf(config.language.default_language);
        return translating
          ? json(200, {
              language,
              translated: true,
              texts: mapWidgetTexts(own, (text) => (text === '' ? '' : `[${language}] ${text}`)),
            })
          : json(200, { language: config.language.default_language, translated: false, texts: own });
      }

      if (request.method === 'POST' && path === '/v1/intent') {
        const parsed = IntentBodySchema.safeParse(body);
        if (!parsed.success) return json(400, { code: 'validation', message: parsed.error.message });
        const intent: IntentBody = parsed.data;
        const bot = bots[intent.botId];
        if (bot === undefined) return json(404, { code: 'widget/bot-not-found', message: 'No such bot.' });
        let token = intent.conversationToken;
        if (token !== undefined && conversations.get(token)?.botId !== intent.botId)
          return json(403, { code: 'widget/invalid-conversation', message: 'Not your conversation.' });
        const answer: Answer = bot.answers?.shift() ?? {
          kind: 'answer',
          deltas: [`You said: ${intent.text}`],
          messages: [`You said: ${intent.text}`],
        };
        if (answer.kind === 'refuse')
          return json(answer.status, { code: answer.code, message: answer.message });
        if (token === undefined) {
          token = `conv-${randomUUID()}`;
          conversations.set(token, { botId: intent.botId, botMessages: new Set() });
        }
        const conversation = conversations.get(token);
        const visitorMessage = { id: randomUUID(), text: intent.text };
        const streaming =
          accept.includes('text/event-stream') && !(answer.kind === 'answer' && answer.jsonOnly);
        if (answer.kind === 'stream-error') {
          response.writeHead(200, { 'content-type': 'text/event-stream' });
          response.write(sse('conversation', { conversationToken: token, visitorMessage }));
          return response.end(sse('error', { code: answer.code, message: answer.message }));
        }
        const messages = answer.messages.map((text) => ({ id: randomUUID(), text }));
        for (const message of messages) conversation?.botMessages.add(message.id);
        const reply: IntentReply = {
          conversationToken: token,
          visitorMessage,
          messages,
          sources: answer.sources ?? [],
          fallback: answer.fallback ?? false,
          handoverOffered: answer.handoverOffered ?? false,
          language: answer.language ?? intent.language ?? 'en',
        };
        if (!streaming) return json(200, reply);
        const events = [
          sse('conversation', { conversationToken: token, visitorMessage }),
          ...(answer.discarded === undefined
            ? []
            : [sse('delta', { text: answer.discarded }), sse('reset', {})]),
          ...answer.deltas.map((text) => sse('delta', { text })),
          sse('reply', reply),
        ];
        response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8' });
        const firstDelta = answer.discarded === undefined ? 1 : 3;
        for (const [index, event] of events.entries()) {
          const bytes = Buffer.from(event, 'utf8');
          const size = answer.chunkBytes ?? bytes.length;
          for (let offset = 0; offset < bytes.length; offset += size) {
            response.write(bytes.subarray(offset, offset + size));
            await pause();
          }
          if (index === firstDelta && answer.gate !== undefined) await answer.gate;
        }
        return response.end();
      }

      if (request.method === 'POST' && path === '/v1/feedback') {
        const parsed = FeedbackBodySchema.safeParse(body);
        if (!parsed.success) return json(400, { code: 'validation', message: parsed.error.message });
        const refusal = bots[parsed.data.botId]?.feedbackRefusal;
        if (refusal !== undefined)
          return json(refusal, { code: 'widget/rate-limited', message: 'Slow down.' });
        const conversation = conversations.get(parsed.data.conversationToken);
        if (conversation?.botId !== parsed.data.botId)
          return json(403, { code: 'widget/invalid-conversation', message: 'Not your conversation.' });
        if (!conversation.botMessages.has(parsed.data.messageId))
          return json(404, { code: 'widget/unknown-message', message: 'No such message.' });
        return json(200, { ok: true });
      }

      if (request.method === 'POST' && path === '/v1/tts') {
        const parsed = TtsBodySchema.safeParse(body);
        if (!parsed.success) return json(400, { code: 'validation', message: parsed.error.message });
        const status = bots[parsed.data.botId]?.ttsStatus ?? 501;
        if (status !== 200) return json(status, { code: 'tts/not-configured', message: 'No server voice.' });
        response.writeHead(200, { 'content-type': 'audio/mpeg' }).end(Buffer.from([0xff, 0xfb, 0x90, 0x00]));
        return;
      }

      json(404, { code: 'not-found', message: 'Not found.' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    calls,
    bots,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
