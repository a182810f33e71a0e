import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFixedStreamServer, startWidgetServer, type WidgetServer } from '../test/widget-server';
import type { ApiError } from './api';
import { isAfter, openLiveStream, retryDelay, type LiveStream, type LiveStreamEvent } from './live-stream';

let server: WidgetServer;
const streams: LiveStream[] = [];

beforeAll(async () => {
  server = await startWidgetServer({});
});
afterAll(() => server.close());
afterEach(() => {
  for (const stream of streams.splice(0)) stream.close();
  server.calls.length = 0;
});

const post = (path: string, body: unknown) =>
  fetch(`${server.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** A conversation of a bot with live agents that the visitor handed over: its bot id and token. */
async function handedOver(extra: { eventsRefusals?: number[] } = {}) {
  const botId = crypto.randomUUID();
  server.bots[botId] = { config: { engines: { enableliveagent: true, liveagent: 'inbox' } }, ...extra };
  const reply = (await (await post('/v1/intent', { botId, text: 'Hello' })).json()) as {
    conversationToken: string;
  };
  const conversationToken = reply.conversationToken;
  expect((await post('/v1/handover', { botId, conversationToken })).status).toBe(200);
  return { botId, conversationToken };
}

/** Follows a conversation's stream, recording what it reports and every wait between attempts. */
function follow(
  botId: string,
  conversationToken: string,
  options: { after?: string; apiBase?: string } = {},
) {
  const events: LiveStreamEvent[] = [];
  const waits: number[] = [];
  const refusals: ApiError[] = [];
  const stream = openLiveStream({
    apiBase: options.apiBase ?? server.origin,
    botId,
    conversationToken,
    ...(options.after === undefined ? {} : { after: options.after }),
    onEvent: (event) => events.push(event),
    onRefused: (error) => refusals.push(error),
    wait: (ms) => {
      waits.push(ms);
      return new Promise((resolve) => setTimeout(resolve, 5));
    },
  });
  streams.push(stream);
  return { events, waits, refusals, stream };
}

const opened = () =>
  server.calls
    .filter((call) => call.path === '/v1/conversation/events')
    .map((call) => (call.body as { after?: string }).after);
const texts = (events: LiveStreamEvent[]) =>
  events.flatMap((event) => (event.type === 'message' ? [event.message.text] : []));

describe('the live stream', () => {
  it('reports the status, the stored events with their ids, then new ones, and resumes after the last id', async () => {
    const { botId, conversationToken } = await handedOver();
    const queuedId = server.live.lastEventId(conversationToken);
    const { events } = follow(botId, conversationToken);
    await vi.waitFor(() => expect(server.live.listeners(conversationToken)).toBe(1));
    // The current status first (not stored, so without an id), then the stored ones.
    expect(events).toEqual([
      { type: 'status', status: { state: 'queued', position: 1, agent: null } },
      { type: 'status', status: { state: 'queued', position: 1, agent: null }, id: queuedId },
    ]);
    server.live.join(conversationToken, 'Anna');
    server.live.say(conversationToken, 'Anna', 'Hi, I am Anna.');
    await vi.waitFor(() => expect(texts(events)).toContain('Hi, I am Anna.'));
    const said = server.live.lastEventId(conversationToken);
    expect(events.at(-1)).toMatchObject({
      type: 'message',
      id: said,
      message: { role: 'agent', author: 'Anna', text: 'Hi, I am Anna.' },
    });
    server.live.typing(conversationToken, 'Anna');
    await vi.waitFor(() => expect(events.at(-1)).toEqual({ type: 'typing', name: 'Anna' }));

    server.live.drop(conversationToken);
    await vi.waitFor(() => expect(opened()).toEqual([undefined, said]));
    await vi.waitFor(() => expect(server.live.listeners(conversationToken)).toBe(1));
    server.live.say(conversationToken, 'Anna', 'Still there?');
    await vi.waitFor(() => expect(texts(events)).toContain('Still there?'));
    expect(texts(events)).toEqual(['Anna joined the conversation.', 'Hi, I am Anna.', 'Still there?']);
    expect(events.filter((event) => event.type === 'status' && event.id === undefined)).toHaveLength(2);
  });

  it('starts after the id it is given', async () => {
    const { botId, conversationToken } = await handedOver();
    const queuedId = server.live.lastEventId(conversationToken);
    server.live.join(conversationToken, 'Anna');
    const { events } = follow(botId, conversationToken, { after: queuedId });
    await vi.waitFor(() => expect(events).toHaveLength(3));
    expect(events.slice(1)).toMatchObject([
      { type: 'message', message: { role: 'system', text: 'Anna joined the conversation.' } },
      { type: 'status', id: server.live.lastEventId(conversationToken), status: { state: 'agent' } },
    ]);
    expect(opened()).toEqual([queuedId]);
  });

  it('loses nothing when the connection breaks in the middle of an event', async () => {
    const { botId, conversationToken } = await handedOver();
    const before = server.live.lastEventId(conversationToken);
    const { events } = follow(botId, conversationToken);
    await vi.waitFor(() => expect(server.live.listeners(conversationToken)).toBe(1));
    server.live.say(conversationToken, 'Anna', 'Cut in two', { cut: true });
    await vi.waitFor(() => expect(texts(events)).toContain('Cut in two'));
    expect(opened()).toEqual([undefined, before]);
    expect(texts(events)).toEqual(['Cut in two']);
  });

  it('waits 1 s, 2 s, 4 s … at most 15 s between failed attempts, and 1 s again once a stream opened', async () => {
    const { botId, conversationToken } = await handedOver({ eventsRefusals: [503, 503, 503, 503, 503, 500] });
    const { events, waits } = follow(botId, conversationToken);
    await vi.waitFor(() => expect(server.live.listeners(conversationToken)).toBe(1));
    expect(waits).toEqual([1000, 2000, 4000, 8000, 15_000, 15_000]);
    expect(events[0]?.type).toBe('status');
    expect(opened()).toHaveLength(7);
    server.live.drop(conversationToken);
    await vi.waitFor(() => expect(opened()).toHaveLength(8));
    expect(waits.slice(6)).toEqual([1000]);
    expect(retryDelay(20)).toBe(15_000);
  });

  it('stops after the conversation ended', async () => {
    const { botId, conversationToken } = await handedOver();
    const { events } = follow(botId, conversationToken);
    await vi.waitFor(() => expect(server.live.listeners(conversationToken)).toBe(1));
    server.live.end(conversationToken, 'resolved');
    await vi.waitFor(() => expect(events.at(-1)?.type).toBe('ended'));
    expect(events.at(-1)).toEqual({
      type: 'ended',
      reason: 'resolved',
      id: server.live.lastEventId(conversationToken),
    });
    await vi.waitFor(() => expect(server.live.listeners(conversationToken)).toBe(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened()).toHaveLength(1);
  });

  it('gives up on a refusal asking again cannot change', async () => {
    const { botId } = await handedOver();
    const { refusals, waits } = follow(botId, 'conv-not-yours');
    await vi.waitFor(() => expect(refusals).toHaveLength(1));
    expect(refusals[0]?.code).toBe('widget/invalid-conversation');
    expect(waits).toEqual([]);
  });

  it('reports each stored event and each message once, however often a server sends them', async () => {
    const message = (id: string, text: string) =>
      JSON.stringify({ id, role: 'agent', text, author: 'Anna', at: '2026-01-01T00:00:00Z' });
    const repeating = await startFixedStreamServer(
      `id: 1\nevent: message\ndata: ${message('m1', 'One')}\n\n` +
        `id: 2\nevent: message\ndata: ${message('m2', 'Two')}\n\n` +
        `id: 1\nevent: message\ndata: ${message('m1', 'One')}\n\n` +
        `id: 3\nevent: message\ndata: ${message('m2', 'Two again')}\n\n` +
        `id: 10\nevent: ended\ndata: {"reason":"done"}\n\n`,
    );
    try {
      const { events } = follow(crypto.randomUUID(), 'conv-x', { apiBase: repeating.origin });
      await vi.waitFor(() => expect(events.at(-1)?.type).toBe('ended'));
      expect(texts(events)).toEqual(['One', 'Two']);
    } finally {
      await repeating.close();
    }
  });

  it('orders event ids as numbers, however long', () => {
    expect(isAfter('10', '9')).toBe(true);
    expect(isAfter('9', '10')).toBe(false);
    expect(isAfter('12345678901234567890', '12345678901234567889')).toBe(true);
    expect(isAfter('7', '7')).toBe(false);
    expect(isAfter('1', undefined)).toBe(true);
  });
});
