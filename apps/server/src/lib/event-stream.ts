import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Whether the caller asked for the answer as Server-Sent Events: `Accept: text/event-stream`, the one way to stream. */
export const wantsEventStream = (request: FastifyRequest) =>
  (request.headers.accept ?? '').toLowerCase().includes('text/event-stream');

/** One Server-Sent Event: its id when it has one (what a client resumes from), its name and its data as JSON. */
const eventText = (event: string, data: unknown, id?: number) =>
  `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

export interface EventStream<E extends string> {
  /** Aborted when the response closes before `end`: the client went away, and the work for it should stop. */
  readonly signal: AbortSignal;
  /** Whether the first event was written (the response is then a stream, and an error can only be an event). */
  readonly started: boolean;
  /** Writes one event; with an id, the client's Last-Event-ID on its next connection. */
  write(event: E, data: unknown, id?: number): void;
  /** A comment line: it keeps an idle connection open through proxies and is no event. */
  comment(text: string): void;
  end(): void;
}

/**
 * The Server-Sent Events answer of a route. The response starts with the first event, so a failure before it is
 * still an ordinary JSON error; events after the client went away are dropped.
 */
export function openEventStream<E extends string>(reply: FastifyReply): EventStream<E> {
  const abort = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  const events = new PassThrough();
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    void reply
      .header('content-type', 'text/event-stream; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('x-accel-buffering', 'no')
      .send(events);
  };
  return {
    signal: abort.signal,
    get started() {
      return started;
    },
    write(event, data, id) {
      if (abort.signal.aborted) return;
      start();
      events.write(eventText(event, data, id));
    },
    comment(text) {
      if (abort.signal.aborted) return;
      start();
      events.write(`: ${text}\n\n`);
    },
    end() {
      events.end();
    },
  };
}
