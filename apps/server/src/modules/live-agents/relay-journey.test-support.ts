import {
  ConversationStatusSchema,
  createSseParser,
  IntentReplySchema,
  LiveMessageSchema,
} from '@omnibot/contracts';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { App } from '../../app';
import type { Db } from '../../db/client';
import { conversationMessages, conversations } from '../../db/schema';
import { defined } from '../../test/defined';

/*
 * The visitor's side of a hand-over journey over real HTTP, shared by the contact-centre relay tests: the widget's
 * routes from the bot's site, the live stream read as server-sent events, and waiting for what the relay stores.
 */

export interface LiveEventRead {
  id: string | null;
  event: string;
  data: unknown;
}

export const messagesOf = (events: LiveEventRead[]) =>
  events.filter((event) => event.event === 'message').map((event) => LiveMessageSchema.parse(event.data));

export const statusesOf = (events: LiveEventRead[]) =>
  events
    .filter((event) => event.event === 'status')
    .map((event) => ConversationStatusSchema.parse(event.data));

/** Polls `check` until it gives a value (every 20 ms), or fails naming `what`. */
export async function until<T>(
  check: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string,
  timeoutMs = 10_000,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`waited in vain for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A visitor of `site` talking to the bot `bot()` of the app `app()` (listening at `base()`): each request from its
 * own client address, so the widget's per-address limits never decide a test.
 */
export function visitorSide(context: {
  site: string;
  bot: () => string;
  app: () => App;
  base: () => string;
  db: () => Db;
}) {
  let address = 0;
  const nextAddress = () => `10.8.${Math.floor(++address / 250)}.${(address % 250) + 1}`;

  function visitorPost(app: App, url: string, payload: Record<string, unknown>) {
    return app.inject({
      method: 'POST',
      url,
      remoteAddress: nextAddress(),
      headers: { 'content-type': 'application/json', origin: context.site },
      payload: JSON.stringify(payload),
    });
  }

  async function ask(text: string, conversationToken?: string, app = context.app()) {
    const response = await visitorPost(app, '/v1/intent', {
      botId: context.bot(),
      text,
      ...(conversationToken === undefined ? {} : { conversationToken }),
    });
    expect(response.statusCode, response.body).toBe(200);
    return IntentReplySchema.parse(response.json());
  }

  async function openLive(conversationToken: string, after?: string, url = context.base()) {
    const abort = new AbortController();
    const response = await fetch(`${url}/v1/conversation/events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', origin: context.site },
      body: JSON.stringify({
        botId: context.bot(),
        conversationToken,
        ...(after === undefined ? {} : { after }),
      }),
      signal: abort.signal,
    });
    expect(response.status).toBe(200);
    const received: LiveEventRead[] = [];
    const parser = createSseParser(({ event, data, id }) => {
      received.push({ id, event, data: JSON.parse(data) as unknown });
    });
    const body = defined(response.body) as unknown as AsyncIterable<Uint8Array>;
    const decoder = new TextDecoder();
    const pump = (async () => {
      try {
        for await (const chunk of body) parser.push(decoder.decode(chunk, { stream: true }));
      } catch {
        // The test closed the stream.
      }
    })();
    return {
      received,
      lastId: () => received.findLast((event) => event.id !== null)?.id ?? undefined,
      async until(check: (events: LiveEventRead[]) => boolean, what: string, timeoutMs = 10_000) {
        const started = Date.now();
        while (!check(received)) {
          if (Date.now() - started > timeoutMs) throw new Error(`no ${what} in ${JSON.stringify(received)}`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      },
      async close() {
        abort.abort();
        await pump;
      },
    };
  }

  async function conversationRow(id: string, db = context.db()) {
    const [row] = await db.select().from(conversations).where(eq(conversations.id, id));
    return defined(row);
  }

  async function messagesIn(id: string, db = context.db()) {
    return db
      .select()
      .from(conversationMessages)
      .where(eq(conversationMessages.conversationId, id))
      .orderBy(conversationMessages.createdAt);
  }

  return { visitorPost, ask, openLive, conversationRow, messagesIn };
}
