import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedWebFetch } from '../../../lib/guarded-http/guarded-fetch';
import { createGuardedSocketOpener } from '../../../lib/guarded-http/guarded-websocket';
import {
  type FakeGenesysServer,
  startGenesysWebMessagingServer,
} from '../../../test/genesys-web-messaging-server';
import { createGenesysProvider, genesysOpeningText, type GenesysTimings } from './genesys';
import type { ProviderEvent, ProviderSession, ProviderStart } from './provider';

let fake: FakeGenesysServer;
const network = {
  fetch: createGuardedWebFetch({ allowAddresses: ['127.0.0.1'] }),
  openSocket: createGuardedSocketOpener({ allowAddresses: ['127.0.0.1'] }),
};
const fast: Partial<GenesysTimings> = {
  answerTimeoutMs: 800,
  reorderMs: 60,
  echoIntervalMs: 100,
  echoTimeoutMs: 200,
};
const open: ProviderSession[] = [];

const provider = (overrides: Partial<{ origin: string; deployment_id: string }> = {}, timings = fast) =>
  createGenesysProvider(
    {
      server_url: fake.serverUrl,
      deployment_id: overrides.deployment_id ?? fake.deploymentId,
      origin: overrides.origin ?? fake.allowedOrigin,
    },
    network,
    timings,
  );

const startInput = (conversationId: string = crypto.randomUUID()): ProviderStart => ({
  conversationId,
  visitorName: 'Visitor',
  language: 'en',
  transcript: [
    { role: 'visitor', text: 'Where is my parcel?', at: new Date() },
    { role: 'bot', text: 'I could not find an answer to that.', at: new Date() },
  ],
  summary: 'The visitor asks where parcel 1234 is.',
});

/** A listener that keeps the events and lets a test wait for one. */
function recorder() {
  const events: ProviderEvent[] = [];
  return {
    events,
    listener: (event: ProviderEvent) => events.push(event),
    async until(check: (all: ProviderEvent[]) => boolean, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!check(events)) {
        if (Date.now() > deadline) throw new Error(`waited in vain; got ${JSON.stringify(events)}`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
  };
}

async function started(conversationId?: string) {
  const record = recorder();
  const session = await provider().start(startInput(conversationId), record.listener);
  open.push(session);
  const fakeSession = fake.sessions.get(session.state.token as string);
  if (!fakeSession) throw new Error('no session at the fake');
  return { record, session, token: fakeSession.token, fakeSession };
}

beforeAll(async () => {
  fake = await startGenesysWebMessagingServer();
});
afterEach(async () => {
  fake.configureFailure = null;
  fake.muteEcho = false;
  fake.readOnlyNext = false;
  for (const session of open.splice(0)) await session.detach();
});
afterAll(async () => {
  await fake.close();
});

describe('the Genesys Cloud Web Messaging provider', () => {
  it('starts a session with the Origin and a new token, the transcript as the first text and the summary as attributes', async () => {
    const conversationId = crypto.randomUUID();
    const { session, fakeSession } = await started(conversationId);
    expect(session.state.token).toMatch(/^[0-9a-f-]{36}$/u);
    expect(session.state.conversationId).toBe(conversationId);
    expect(fakeSession.texts).toHaveLength(1);
    const [first] = fakeSession.texts;
    expect(first?.text).toContain('Visitor: Where is my parcel?');
    expect(first?.text).toContain('Bot: I could not find an answer to that.');
    expect(first?.text).toContain('Summary: The visitor asks where parcel 1234 is.');
    expect(first?.customAttributes).toMatchObject({
      omnibot_conversation_id: conversationId,
      omnibot_summary: 'The visitor asks where parcel 1234 is.',
      omnibot_language: 'en',
    });
  });

  it('keeps the newest lines of a long transcript within one Genesys message', () => {
    const transcript = Array.from({ length: 200 }, (_, index) => ({
      role: 'visitor' as const,
      text: `line ${index} ${'x'.repeat(60)}`,
      at: new Date(),
    }));
    const text = genesysOpeningText({ ...startInput(), transcript, summary: null });
    expect(text.length).toBeLessThanOrEqual(4096);
    expect(text).toContain('line 199');
    expect(text).not.toContain('line 0 ');
    expect(text).toMatch(/\(\d+ earlier lines not shown\)/u);
  });

  it('turns the agent joining, typing, talking, leaving and ending into events', async () => {
    const { record, token } = await started();
    fake.join(token, 'Dana');
    fake.type(token);
    fake.say(token, 'Hello, I am Dana. Let me look.');
    fake.leave(token);
    fake.end(token);
    await record.until((events) => events.some((event) => event.type === 'ended'));
    expect(record.events.map((event) => event.type)).toEqual([
      'joined',
      'typing',
      'message',
      'left',
      'ended',
    ]);
    expect(record.events[0]).toMatchObject({ type: 'joined', name: 'Dana' });
    expect(record.events[2]).toMatchObject({
      type: 'message',
      text: 'Hello, I am Dana. Let me look.',
      name: 'Dana',
    });
  });

  it('sends the visitor text with our id, the typing and the end', async () => {
    const { session, fakeSession } = await started();
    const id = crypto.randomUUID();
    await session.send({ id, text: 'My parcel number is 1234' });
    await session.typing();
    await fake.waitFor(() => fakeSession.typings === 1);
    expect(fakeSession.texts.at(-1)).toMatchObject({ text: 'My parcel number is 1234', customMessageId: id });
    await session.end();
    await fake.waitFor(() => fakeSession.guestEnded);
  });

  it('hands on messages that arrive out of order in the order of their time', async () => {
    const { record, token } = await started();
    fake.join(token, 'Dana');
    fake.sayOutOfOrder(token, ['first', 'second', 'third', 'fourth']);
    await record.until((events) => events.filter((event) => event.type === 'message').length === 4);
    const texts = record.events.flatMap((event) => (event.type === 'message' ? [event.text] : []));
    expect(texts).toEqual(['first', 'second', 'third', 'fourth']);
  });

  it('says disconnected when the socket drops, resumes with the same token and back-fills without duplicates', async () => {
    const { record, session, token, fakeSession } = await started();
    fake.join(token, 'Dana');
    fake.say(token, 'before the drop');
    await record.until((events) => events.some((event) => event.type === 'message'));
    const lastSeen = record.events.findLast((event) => event.type === 'message');
    fake.drop(token);
    await record.until((events) => events.some((event) => event.type === 'disconnected'));
    // Written while no socket is open: only the history has them.
    fake.say(token, 'while away 1');
    fake.say(token, 'while away 2');
    const configures = fakeSession.configures;
    const again = recorder();
    const resumed = await provider().resume(session.state, again.listener);
    open.push(resumed);
    expect(fakeSession.configures).toBe(configures + 1);
    expect(fake.sessions.size).toBeGreaterThan(0);
    expect(resumed.state.token).toBe(token);
    const missed = await resumed.backfill(lastSeen?.type === 'message' ? lastSeen.at : new Date(0));
    const seenIds = new Set(
      record.events.flatMap((event) => (event.type === 'message' ? [event.providerId] : [])),
    );
    const fresh = missed.filter((event) => !seenIds.has(event.providerId));
    expect(fresh.map((event) => event.text)).toEqual(['while away 1', 'while away 2']);
    expect(missed.every((event) => event.name === 'Dana')).toBe(true);
    fake.say(token, 'after the resume');
    await again.until((events) =>
      events.some((event) => event.type === 'message' && event.text === 'after the resume'),
    );
  });

  it('never sends a visitor message twice when its answer was lost in a drop', async () => {
    const { session, token, fakeSession } = await started();
    const id = crypto.randomUUID();
    await session.send({ id, text: 'only once' });
    fake.drop(token);
    const resumed = await provider().resume(session.state, () => undefined);
    open.push(resumed);
    // The relay resends what it did not see confirmed: the history says it arrived.
    await resumed.send({ id, text: 'only once' });
    await resumed.send({ id: crypto.randomUUID(), text: 'the next one' });
    expect(fakeSession.texts.map((text) => text.text).filter((text) => text === 'only once')).toHaveLength(1);
    expect(fakeSession.texts.at(-1)?.text).toBe('the next one');
  });

  it('never sends a visitor message twice when its answer came too late on a live socket', async () => {
    const { session, fakeSession } = await started();
    const id = crypto.randomUUID();
    fake.muteTexts = true;
    try {
      await expect(session.send({ id, text: 'late answer' })).rejects.toThrow();
    } finally {
      fake.muteTexts = false;
    }
    // The relay sends again what was not confirmed; the history says it arrived.
    await session.send({ id, text: 'late answer' });
    await session.send({ id: crypto.randomUUID(), text: 'the next one' });
    expect(fakeSession.texts.map((text) => text.text).filter((text) => text === 'late answer')).toHaveLength(
      1,
    );
    expect(fakeSession.texts.at(-1)?.text).toBe('the next one');
  });

  it('asks for a new session when Genesys answers that the token’s session is read-only', async () => {
    fake.readOnlyNext = true;
    const { fakeSession } = await started();
    expect(fakeSession.startNews).toBe(1);
    expect(fakeSession.readOnly).toBe(false);
    expect(fakeSession.texts).toHaveLength(1);
  });

  it('says ended on a resume when the agent disconnected while the socket was away', async () => {
    const { session, token } = await started();
    fake.drop(token);
    fake.end(token);
    const record = recorder();
    const resumed = await provider().resume(session.state, record.listener);
    open.push(resumed);
    await record.until((events) => events.some((event) => event.type === 'ended'));
  });

  it('says disconnected when the echo is not answered', async () => {
    const { record } = await started();
    fake.muteEcho = true;
    await record.until((events) => events.some((event) => event.type === 'disconnected'), 3000);
    expect(record.events.find((event) => event.type === 'disconnected')).toMatchObject({
      reason: 'The contact centre stopped answering the keep-alive.',
    });
  });

  it.each([
    [401, 'handover/provider-refused', false],
    [403, 'handover/provider-refused', false],
    [429, 'handover/provider-busy', true],
    [500, 'handover/provider-unavailable', true],
  ])('turns a %i error frame into %s', async (status, code, retryable) => {
    fake.configureFailure = { status, reason: 'no' };
    await expect(provider().start(startInput(), () => undefined)).rejects.toMatchObject({ code, retryable });
    const probe = await provider().probe();
    expect(probe).toMatchObject({ ok: false, failure: { code } });
  });

  it('counts a session request that is never answered as unavailable', async () => {
    fake.configureFailure = 'hang';
    const began = Date.now();
    await expect(provider().start(startInput(), () => undefined)).rejects.toMatchObject({
      code: 'handover/provider-unavailable',
      retryable: true,
    });
    expect(Date.now() - began).toBeLessThan(3000);
  });

  it('is refused at the upgrade for an origin the deployment does not allow', async () => {
    await expect(
      provider({ origin: 'https://elsewhere.example' }).start(startInput(), () => undefined),
    ).rejects.toMatchObject({ code: 'handover/provider-refused' });
    expect(fake.refusedOrigins).toContain('https://elsewhere.example');
  });

  it('probes with a throwaway session that starts no conversation', async () => {
    const before = fake.sessions.size;
    const probe = await provider().probe();
    expect(probe).toMatchObject({ ok: true });
    expect(fake.sessions.size).toBe(before + 1);
    expect([...fake.sessions.values()].at(-1)?.texts).toHaveLength(0);
    const wrong = await provider({ deployment_id: crypto.randomUUID() }).probe();
    expect(wrong.ok).toBe(false);
  });

  it('reads the history only with the JWT of its own session', async () => {
    const response = await fetch(
      `${fake.serverUrl.replace('ws:', 'http:').replace('/v1', '')}/api/v2/webmessaging/messages`,
      {
        headers: { authorization: 'Bearer forged' },
      },
    );
    expect(response.status).toBe(401);
  });
});
