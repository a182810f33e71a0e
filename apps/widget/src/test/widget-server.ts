import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ConversationEventsBodySchema,
  FeedbackBodySchema,
  HandoverBodySchema,
  IntentBodySchema,
  TtsBodySchema,
  VisitorTypingBodySchema,
  WidgetConfigSchema,
  publicWidgetConfig,
  type IntentBody,
  type IntentReply,
  type IntentSource,
  type ConversationState,
  type ConversationStatus,
  type LiveMessage,
  type WidgetConfigInput,
  type WidgetServices,
  mapWidgetTexts,
  offersHandover,
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
      /** The engine asks for a person with this answer: the conversation is queued (a bot with live agents). */
      handsOver?: boolean;
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
  /**
   * Whether the bot hands over to people (otherwise POST /v1/handover answers 409 handover/not-offered); by default
   * as its configuration says (offersHandover), false for a bot whose live agents were turned off since it loaded.
   */
  liveAgents?: boolean;
  /** Within its business hours (true by default); outside them the configuration and POST /v1/handover say so. */
  inHours?: boolean;
  /** Its conversations store no system message before a change of state (the real server stores one). */
  silentChanges?: boolean;
  /** Statuses to refuse the next openings of a conversation's event stream with, in order. */
  eventsRefusals?: number[];
}

interface RecordedCall {
  method: string;
  path: string;
  accept: string;
  body: unknown;
}

/** The people's side of live conversations, as a test plays it. */
export interface LiveControls {
  /** The tokens of a bot's conversations, oldest first. */
  tokens: (botId: string) => string[];
  /** A person claims the conversation. */
  join: (token: string, name: string) => void;
  /**
   * A person's message; with `cut`, every open stream breaks off in the middle of it; with `translation`, the text
   * the visitor reads (as a bot that translates for its agents sends it), `text` in `language` being the original.
   */
  say: (
    token: string,
    author: string,
    text: string,
    options?: { cut?: boolean; language?: string; translation?: { text: string; language: string } },
  ) => LiveMessage;
  /** The person is typing (not stored, so not sent again to a stream opened later). */
  typing: (token: string, name: string) => void;
  /** The person hands the conversation back to the bot. */
  handBack: (token: string) => void;
  /** The person closes the conversation. */
  end: (token: string, reason?: string) => void;
  /** Ends the conversation's open event streams, as a server restart or a proxy's timeout would. */
  drop: (token: string) => void;
  /** How many event streams of the conversation are open. */
  listeners: (token: string) => number;
  /** The id of the conversation's newest stored event ('0' before any). */
  lastEventId: (token: string) => string;
}

export interface WidgetServer {
  origin: string;
  calls: RecordedCall[];
  bots: Record<string, TestBot>;
  live: LiveControls;
  close: () => Promise<void>;
}

interface StoredEvent {
  id: number;
  event: 'message' | 'status' | 'ended';
  data: unknown;
}

interface Conversation {
  botId: string;
  botMessages: Set<string>;
  state: ConversationState;
  agent: string | null;
  events: StoredEvent[];
  streams: Set<ServerResponse>;
}

async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text === '' ? undefined : (JSON.parse(text) as unknown);
}

const sse = (event: string, data: unknown, id?: number) =>
  `${id === undefined ? '' : `id: ${String(id)}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
const pause = () => new Promise((resolve) => setTimeout(resolve, 2));

/**
 * A local server speaking the widget API as documented in @omnibot/contracts widget-api.ts: the public config,
 * POST /v1/intent (SSE events conversation/delta/reset/reply/error with `Accept: text/event-stream`, JSON
 * otherwise), POST /v1/feedback and POST /v1/tts, and the hand-over to a person of live-agents.ts: POST /v1/handover,
 * POST /v1/conversation/events (the status, then the stored events after `after` or Last-Event-ID with their ids,
 * then new ones as they come, typing without an id, `: ping` comments) and POST /v1/conversation/typing. Bodies are
 * validated with the contract's schemas (400 otherwise), conversation tokens are issued by the server and bound to
 * one bot, feedback must name a bot message of that conversation, and while a person answers (or is awaited) the bot
 * does not: an intent's reply has no messages and the conversation's status, as the real endpoints require. As on
 * the real server, only what happens once a person is involved is stored as events (the visitor's messages to them,
 * theirs, the system message and status of each change, the end), with ids from one sequence.
 */
export async function startWidgetServer(bots: Record<string, TestBot>): Promise<WidgetServer> {
  const calls: RecordedCall[] = [];
  const conversations = new Map<string, Conversation>();
  const queue: string[] = [];
  // Event ids are one sequence across all conversations, as the real server's are.
  let lastEventId = 0;

  const statusOf = (token: string, conversation: Conversation): ConversationStatus => ({
    state: conversation.state,
    // Each bot (its organisation, on the real server) has a queue of its own.
    position:
      conversation.state === 'queued'
        ? queue.filter((queued) => conversations.get(queued)?.botId === conversation.botId).indexOf(token) + 1
        : null,
    agent: conversation.agent === null ? null : { name: conversation.agent },
  });

  const push = (conversation: Conversation, event: StoredEvent['event'], data: unknown, cut = false) => {
    lastEventId += 1;
    const stored = { id: lastEventId, event, data };
    conversation.events.push(stored);
    const text = sse(event, data, stored.id);
    for (const stream of conversation.streams) {
      if (!cut) {
        stream.write(text);
        continue;
      }
      stream.write(text.slice(0, Math.floor(text.length / 2)));
      // Let the half reach the client before the connection breaks.
      setTimeout(() => stream.destroy(), 20);
    }
  };

  const message = (role: LiveMessage['role'], text: string, author: string | null, id = randomUUID()) => ({
    id,
    role,
    text,
    author,
    at: new Date().toISOString(),
  });

  /** Moves a conversation to `state`, after the system message that says so (unless its bot is silent). */
  const move = (token: string, state: ConversationState, agent: string | null, said?: string) => {
    const conversation = conversationOf(token);
    if (said !== undefined && bots[conversation.botId]?.silentChanges !== true)
      push(conversation, 'message', message('system', said, null));
    conversation.state = state;
    conversation.agent = agent;
    const inQueue = queue.indexOf(token);
    if (state !== 'queued' && inQueue !== -1) queue.splice(inQueue, 1);
    if (state === 'queued' && inQueue === -1) queue.push(token);
    push(conversation, 'status', statusOf(token, conversation));
    return conversation;
  };

  const handsOverToPeople = (botId: string) => {
    const bot = bots[botId];
    return bot?.liveAgents ?? (bot !== undefined && offersHandover(WidgetConfigSchema.parse(bot.config)));
  };

  function conversationOf(token: string): Conversation {
    const conversation = conversations.get(token);
    if (conversation === undefined) throw new Error(`No conversation ${token}`);
    return conversation;
  }

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
        return json(
          200,
          publicWidgetConfig(WidgetConfigSchema.parse(bot.config), bot.services, bot.inHours ?? true),
        );
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
        const existing = token === undefined ? undefined : conversations.get(token);
        if (token !== undefined && existing?.botId !== intent.botId)
          return json(403, { code: 'widget/invalid-conversation', message: 'Not your conversation.' });
        if (existing?.state === 'closed')
          return json(409, {
            code: 'handover/closed',
            message: 'This conversation has ended; start a new one.',
          });
        if (existing !== undefined && existing.state !== 'bot' && token !== undefined) {
          // A person holds the conversation: the visitor's message goes to them, and the bot does not answer.
          const visitor = message('visitor', intent.text, null);
          push(existing, 'message', visitor);
          return json(200, {
            conversationToken: token,
            visitorMessage: { id: visitor.id, text: visitor.text },
            messages: [],
            sources: [],
            fallback: false,
            handoverOffered: false,
            language: intent.language ?? 'en',
            handover: statusOf(token, existing),
          } satisfies IntentReply);
        }
        const answer: Answer = bot.answers?.shift() ?? {
          kind: 'answer',
          deltas: [`You said: ${intent.text}`],
          messages: [`You said: ${intent.text}`],
        };
        if (answer.kind === 'refuse')
          return json(answer.status, { code: answer.code, message: answer.message });
        if (token === undefined) {
          token = `conv-${randomUUID()}`;
          conversations.set(token, {
            botId: intent.botId,
            botMessages: new Set(),
            state: 'bot',
            agent: null,
            events: [],
            streams: new Set(),
          });
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
        for (const answered of messages) conversation?.botMessages.add(answered.id);
        const handsOver = answer.handsOver === true && handsOverToPeople(intent.botId);
        if (handsOver) move(token, 'queued', null);
        const reply: IntentReply = {
          conversationToken: token,
          visitorMessage,
          messages,
          sources: answer.sources ?? [],
          fallback: answer.fallback ?? false,
          handoverOffered: handsOver ? false : (answer.handoverOffered ?? false),
          language: answer.language ?? intent.language ?? 'en',
          ...(handsOver && conversation !== undefined ? { handover: statusOf(token, conversation) } : {}),
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

      if (request.method === 'POST' && path === '/v1/handover') {
        const parsed = HandoverBodySchema.safeParse(body);
        if (!parsed.success) return json(400, { code: 'validation', message: parsed.error.message });
        const { botId, conversationToken } = parsed.data;
        const conversation = conversations.get(conversationToken);
        if (conversation?.botId !== botId)
          return json(403, { code: 'widget/invalid-conversation', message: 'Not your conversation.' });
        if (!handsOverToPeople(botId))
          return json(409, {
            code: 'handover/not-offered',
            message: 'This bot does not hand over to a person.',
          });
        if (bots[botId]?.inHours === false)
          return json(409, {
            code: 'handover/out-of-hours',
            message: WidgetConfigSchema.parse(bots[botId]?.config).engines.offlineText,
          });
        if (conversation.state === 'closed')
          return json(409, {
            code: 'handover/closed',
            message: 'This conversation has ended; start a new one.',
          });
        if (conversation.state === 'bot') move(conversationToken, 'queued', null);
        return json(200, statusOf(conversationToken, conversation));
      }

      if (request.method === 'POST' && path === '/v1/conversation/events') {
        const parsed = ConversationEventsBodySchema.safeParse(body);
        if (!parsed.success) return json(400, { code: 'validation', message: parsed.error.message });
        const { botId, conversationToken } = parsed.data;
        const conversation = conversations.get(conversationToken);
        if (conversation?.botId !== botId)
          return json(403, { code: 'widget/invalid-conversation', message: 'Not your conversation.' });
        const refusal = bots[botId]?.eventsRefusals?.shift();
        if (refusal !== undefined) return json(refusal, { code: 'internal', message: 'Try again.' });
        const lastEventId = request.headers['last-event-id'];
        const after = Number(parsed.data.after ?? (typeof lastEventId === 'string' ? lastEventId : 0));
        response.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache',
        });
        response.write(': ping\n\n');
        response.write(sse('status', statusOf(conversationToken, conversation)));
        for (const stored of conversation.events)
          if (stored.id > after) response.write(sse(stored.event, stored.data, stored.id));
        conversation.streams.add(response);
        response.on('close', () => conversation.streams.delete(response));
        return;
      }

      if (request.method === 'POST' && path === '/v1/conversation/typing') {
        const parsed = VisitorTypingBodySchema.safeParse(body);
        if (!parsed.success) return json(400, { code: 'validation', message: parsed.error.message });
        const conversation = conversations.get(parsed.data.conversationToken);
        if (conversation?.botId !== parsed.data.botId)
          return json(403, { code: 'widget/invalid-conversation', message: 'Not your conversation.' });
        response.writeHead(204).end();
        return;
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
  const live: LiveControls = {
    tokens: (botId) =>
      [...conversations].filter(([, conversation]) => conversation.botId === botId).map(([token]) => token),
    join: (token, name) => void move(token, 'agent', name, `${name} joined the conversation.`),
    say: (token, author, text, options = {}) => {
      const said: LiveMessage = {
        ...message('agent', text, author),
        ...(options.language === undefined ? {} : { language: options.language }),
        ...(options.translation === undefined ? {} : { translation: options.translation }),
      };
      push(conversationOf(token), 'message', said, options.cut === true);
      return said;
    },
    typing: (token, name) => {
      for (const stream of conversationOf(token).streams)
        stream.write(sse('typing', { role: 'agent', name }));
    },
    handBack: (token) => {
      const name = conversationOf(token).agent ?? 'The agent';
      move(token, 'bot', null, `${name} handed the conversation back to the bot.`);
    },
    end: (token, reason = 'agent') =>
      push(move(token, 'closed', null, 'The conversation has ended.'), 'ended', { reason }),
    drop: (token) => {
      for (const stream of conversationOf(token).streams) stream.end();
    },
    listeners: (token) => conversationOf(token).streams.size,
    lastEventId: (token) => String(conversationOf(token).events.at(-1)?.id ?? 0),
  };

  return {
    origin: `http://127.0.0.1:${String(port)}`,
    calls,
    bots,
    live,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A server that answers every request with the same text/event-stream `body`: a misbehaving server, for the client. */
export async function startFixedStreamServer(
  body: string,
): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
