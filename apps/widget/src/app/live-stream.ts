import {
  createSseParser,
  type ConversationStatus,
  type LiveMessage,
  type SseEvent,
} from '@omnibot/contracts';
import { ApiError, openConversationEvents, readLiveMessage, readStatus } from './api';

/** What the event stream of a live conversation reports; the stored ones carry their event id. */
export type LiveStreamEvent =
  | { type: 'status'; status: ConversationStatus; id?: string }
  | { type: 'message'; message: LiveMessage; id?: string }
  | { type: 'typing'; name: string | null }
  | { type: 'ended'; reason: string; id?: string };

export interface LiveStreamOptions {
  apiBase: string;
  botId: string;
  conversationToken: string;
  /** The last event id already seen: the stream starts after it. */
  after?: string;
  onEvent: (event: LiveStreamEvent) => void;
  /** The server refused the stream for good (not this visitor's conversation, say): it is not opened again. */
  onRefused?: (error: ApiError) => void;
  /** Waits before the next attempt; resolves early when `signal` aborts. */
  wait?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface LiveStream {
  close: () => void;
}

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 15_000;

/** The wait before reconnecting after `failures` failed attempts in a row: 1 s, 2 s, 4 s … at most 15 s. */
export const retryDelay = (failures: number) => Math.min(RETRY_FIRST_MS * 2 ** failures, RETRY_MAX_MS);

const withoutLeadingZeros = (id: string) => id.replace(/^0+(?=\d)/, '');

/** Whether event id `id` comes after `last` (both decimal sequence numbers, too long for a float). */
export function isAfter(id: string, last: string | undefined): boolean {
  if (last === undefined) return true;
  const a = withoutLeadingZeros(id);
  const b = withoutLeadingZeros(last);
  return a.length === b.length ? a > b : a.length > b.length;
}

// A refusal that asking again cannot change; a timeout, rate limit or server failure is worth another try.
const isFinalRefusal = (error: unknown): error is ApiError =>
  error instanceof ApiError &&
  error.status >= 400 &&
  error.status < 500 &&
  error.status !== 408 &&
  error.status !== 429;

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

type Fields = Record<string, unknown>;
const fieldsOf = (value: unknown): Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Fields) : {};

/** The stream event a server-sent event stands for (`id`: the event's own id); null when unknown or unreadable. */
function eventOf({ event, data }: SseEvent, id: string | undefined): LiveStreamEvent | null {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return null;
  }
  const ids = id === undefined ? {} : { id };
  if (event === 'status') {
    const status = readStatus(payload);
    return status === null ? null : { type: 'status', status, ...ids };
  }
  if (event === 'message') {
    const message = readLiveMessage(payload);
    return message === null ? null : { type: 'message', message, ...ids };
  }
  const fields = fieldsOf(payload);
  if (event === 'typing' && fields.role === 'agent')
    return { type: 'typing', name: typeof fields.name === 'string' ? fields.name : null };
  if (event === 'ended')
    return { type: 'ended', reason: typeof fields.reason === 'string' ? fields.reason : '', ...ids };
  return null;
}

/**
 * Follows the event stream of a live conversation until `ended` or `close()`. The server may end the stream at any
 * time: it is opened again after the last event id seen (an event cut off mid-way is dropped and so sent again),
 * after 1 s, 2 s, 4 s … at most 15 s, the wait starting again at 1 s once a stream has opened. Stored events are
 * reported once each, by event id and by message id, however often the server sends them.
 */
export function openLiveStream({
  apiBase,
  botId,
  conversationToken,
  after,
  onEvent,
  onRefused,
  wait = sleep,
}: LiveStreamOptions): LiveStream {
  const controller = new AbortController();
  const { signal } = controller;
  let lastId = after;
  const messageIds = new Set<string>();

  /** Reads one connection's events: the parser keeps the last id set, so an event has its own when that changes. */
  const dispatcher = () => {
    let connectionId: string | null = null;
    return (raw: SseEvent) => {
      const own = raw.id !== null && raw.id !== connectionId ? raw.id : undefined;
      connectionId = raw.id;
      if (signal.aborted || (own !== undefined && !isAfter(own, lastId))) return;
      const event = eventOf(raw, own);
      // An unreadable stored event is passed over too: asking for it again would give it again.
      if (own !== undefined) lastId = own;
      if (event === null) return;
      if (event.type === 'message') {
        if (messageIds.has(event.message.id)) return;
        messageIds.add(event.message.id);
      }
      onEvent(event);
      if (event.type === 'ended') controller.abort();
    };
  };

  const read = async (body: ReadableStream<Uint8Array>) => {
    const parser = createSseParser(dispatcher());
    const decoder = new TextDecoder();
    const reader = body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.push(decoder.decode(value, { stream: true }));
      }
    } finally {
      parser.end();
      reader.releaseLock();
    }
  };

  const run = async () => {
    let failures = 0;
    while (!signal.aborted) {
      try {
        const body = await openConversationEvents(
          apiBase,
          { botId, conversationToken, ...(lastId === undefined ? {} : { after: lastId }) },
          signal,
        );
        failures = 0;
        await read(body);
      } catch (error) {
        if (signal.aborted) return;
        if (isFinalRefusal(error)) {
          onRefused?.(error);
          return;
        }
      }
      if (signal.aborted) return;
      await wait(retryDelay(failures), signal);
      failures += 1;
    }
  };

  void run();
  return { close: () => controller.abort() };
}
