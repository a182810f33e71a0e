import { randomUUID } from 'node:crypto';
import { type ConnectSettings, ConnectSettingsSchema } from '@omnibot/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedWebFetch, type GuardedWebFetch } from '../../../lib/guarded-http/guarded-fetch';
import { createGuardedSocketOpener } from '../../../lib/guarded-http/guarded-websocket';
import { type AmazonConnectServer, startAmazonConnectServer } from '../../../test/amazon-connect-server';
import { TEST_FETCH_ALLOW } from '../../../test/loopback-fetch';
import {
  CONNECT_ATTRIBUTES,
  CONNECT_MESSAGE_LIMIT,
  createConnectProvider,
  type ConnectProviderOptions,
  messageParts,
} from './connect';
import {
  ProviderFailure,
  type ProviderEvent,
  type ProviderNetwork,
  type ProviderSession,
  type ProviderStart,
} from './provider';

let fake: AmazonConnectServer;
let fetchCalls = 0;
const countingFetch: GuardedWebFetch = (input, init) => {
  fetchCalls += 1;
  return loopbackFetch(input, init);
};
const loopbackFetch = createGuardedWebFetch({ allowAddresses: [TEST_FETCH_ALLOW] });
const network: ProviderNetwork = {
  fetch: countingFetch,
  openSocket: createGuardedSocketOpener({ allowAddresses: [TEST_FETCH_ALLOW] }),
};
const sessions: ProviderSession[] = [];
const fast: ConnectProviderOptions = { requestTimeoutMs: 2_000, heartbeatMs: 200, missedHeartbeats: 2 };

beforeAll(async () => {
  fake = await startAmazonConnectServer();
});

afterEach(async () => {
  for (const session of sessions.splice(0)) await session.detach();
  fake.answerHeartbeats = true;
  fake.socketWindowMs = 100_000;
});

afterAll(async () => {
  await fake.close();
});

function settingsOf(overrides: Partial<ConnectSettings> = {}): ConnectSettings {
  return ConnectSettingsSchema.parse({
    region: fake.region,
    instance_id: fake.instanceId,
    contact_flow_id: fake.contactFlowId,
    access_key_id: fake.keys.accessKeyId,
    secret_access_key: fake.keys.secretAccessKey,
    content_types: ['text/markdown'],
    connect_endpoint: fake.baseUrl,
    participant_endpoint: fake.baseUrl,
    ...overrides,
  });
}

function startInput(overrides: Partial<ProviderStart> = {}): ProviderStart {
  const at = new Date();
  return {
    conversationId: randomUUID(),
    visitorName: 'Ada',
    language: 'en',
    transcript: [
      { role: 'visitor', text: 'My parcel never arrived.', at },
      { role: 'bot', text: 'I am sorry. Could you give me the order number?', at },
      { role: 'visitor', text: 'Order 4411. I want a person please.', at },
    ],
    summary: 'Issue: parcel for order 4411 not delivered. Open: refund or resend.',
    ...overrides,
  };
}

function recorder() {
  const events: ProviderEvent[] = [];
  const listener = (event: ProviderEvent) => events.push(event);
  const waitFor = async (predicate: (all: ProviderEvent[]) => boolean, timeoutMs = 5_000) => {
    const until = Date.now() + timeoutMs;
    while (!predicate(events)) {
      if (Date.now() > until) throw new Error(`Timed out; events so far: ${JSON.stringify(events)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { events, listener, waitFor };
}

async function started(options: ConnectProviderOptions = fast, input = startInput()) {
  const provider = createConnectProvider(settingsOf(), network, options);
  const record = recorder();
  const session = await provider.start(input, record.listener);
  sessions.push(session);
  return { provider, session, input, ...record, chat: fake.chat(session.state.ContactId) };
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderFailure> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ProviderFailure);
  return error as ProviderFailure;
}

describe('the Amazon Connect provider', () => {
  it('starts a chat with the summary and conversation id as attributes and the conversation as its first message', async () => {
    const { session, input, chat } = await started();
    expect(chat.displayName).toBe('Ada');
    expect(chat.clientToken).toBe(input.conversationId);
    expect(chat.attributes).toEqual({
      [CONNECT_ATTRIBUTES.conversationId]: input.conversationId,
      [CONNECT_ATTRIBUTES.language]: 'en',
      [CONNECT_ATTRIBUTES.summary]: input.summary,
    });
    expect(chat.initialMessage).toContain('Visitor: My parcel never arrived.');
    expect(chat.initialMessage).toContain('Bot: I am sorry. Could you give me the order number?');
    expect(chat.supportedContentTypes).toEqual(['text/plain', 'text/markdown']);
    expect(session.state).toMatchObject({
      ContactId: chat.contactId,
      ParticipantId: chat.participantId,
      ParticipantToken: chat.participantToken,
    });
    expect(chat.connectionTokens.has(session.state.ConnectionToken ?? '')).toBe(true);
    expect(fake.socketCount(chat.contactId)).toBe(1);
    // The Participant Service never sees an AWS signature or key; the Connect API always does.
    const ours = fake.requests.filter((request) => request.path.startsWith('/participant/'));
    expect(ours.length).toBeGreaterThan(0);
    expect(ours.every((request) => request.authorization === undefined)).toBe(true);
    const signed = fake.requests.filter((request) => request.path === '/contact/chat');
    expect(signed.every((request) => request.authorization?.includes(fake.keys.accessKeyId))).toBe(true);
  });

  it('starts the same chat again for the same conversation (ClientToken), and cuts what exceeds Connect limits', async () => {
    const input = startInput({
      summary: `${'The visitor explains the problem at length. '.repeat(800)}END`,
      transcript: Array.from({ length: 40 }, (_, index) => ({
        role: index % 2 ? ('bot' as const) : ('visitor' as const),
        text: `Line ${index} ${'words '.repeat(80)}`,
        at: new Date(),
      })),
    });
    const first = await started(fast, input);
    const again = await started(fast, input);
    expect(again.session.state.ContactId).toBe(first.session.state.ContactId);
    const chat = first.chat;
    const summary = chat.attributes[CONNECT_ATTRIBUTES.summary] ?? '';
    expect(Buffer.byteLength(summary)).toBeLessThanOrEqual(16_384);
    expect(summary.endsWith(' …')).toBe(true);
    expect(chat.initialMessage?.length).toBeLessThanOrEqual(CONNECT_MESSAGE_LIMIT);
    // The latest lines are kept, the oldest dropped.
    expect(chat.initialMessage).toContain('Line 39');
    expect(chat.initialMessage).not.toContain('Line 0 ');
  });

  it('carries messages both ways, ignores the echo of its own, and passes the contact flow messages without a name', async () => {
    const { session, chat, events, waitFor } = await started();
    await session.send({ id: randomUUID(), text: 'Hello, is anyone there?' });
    expect(chat.customerTexts).toEqual(['Hello, is anyone there?']);
    fake.systemSay('An agent will be with you shortly.');
    fake.join('Grace');
    const said = fake.say('Hi Ada, I am Grace. Let me look at order 4411.');
    await waitFor((all) => all.some((event) => event.type === 'message' && event.name === 'Grace'));
    expect(events).toEqual([
      expect.objectContaining({ type: 'message', text: 'An agent will be with you shortly.', name: null }),
      expect.objectContaining({ type: 'joined', name: 'Grace' }),
      expect.objectContaining({
        type: 'message',
        providerId: said.Id,
        text: 'Hi Ada, I am Grace. Let me look at order 4411.',
        name: 'Grace',
        at: new Date(said.AbsoluteTime),
      }),
    ]);
    // Our own message came back on the socket as a CUSTOMER item and was not reported.
    expect(events.filter((event) => event.type === 'message' && event.text.startsWith('Hello'))).toHaveLength(
      0,
    );
  });

  it('sends a message longer than Connect takes in parts, each once, even when the same id is sent again', async () => {
    const { session, chat } = await started();
    const text = `${'a'.repeat(900)} ${'b'.repeat(900)} ${'c'.repeat(300)}`;
    const id = randomUUID();
    await session.send({ id, text });
    await session.send({ id, text });
    expect(chat.customerTexts).toEqual(messageParts(text));
    expect(chat.customerTexts.length).toBe(3);
    expect(chat.customerTexts.every((part) => part.length <= CONNECT_MESSAGE_LIMIT)).toBe(true);
  });

  it('sends typing and reports the agent typing, leaving and ending the chat', async () => {
    const { session, chat, events, waitFor } = await started();
    await session.typing();
    expect(chat.customerEvents).toEqual(['application/vnd.amazonaws.connect.event.typing']);
    fake.join('Grace');
    fake.type();
    fake.leave();
    fake.end();
    await waitFor((all) => all.some((event) => event.type === 'ended'));
    expect(events.map((event) => event.type)).toEqual(['joined', 'typing', 'left', 'ended']);
    expect(events[2]).toMatchObject({ type: 'left', name: 'Grace' });
    // After the end the socket is closed by us, which is not a drop.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(events.some((event) => event.type === 'disconnected')).toBe(false);
  });

  it('ends the chat with DisconnectParticipant, and an already ended chat ends quietly', async () => {
    const { session, chat } = await started();
    await session.end();
    expect(chat.customerDisconnected).toBe(true);
    expect(chat.ended).toBe(true);
    await expect(session.end()).resolves.toBeUndefined();
  });

  it('reports a dropped socket, resumes from the saved state and back-fills what it missed, without duplicates', async () => {
    const { provider, session, events, waitFor, chat } = await started();
    fake.join('Grace');
    const before = fake.say('First answer.');
    await waitFor((all) => all.some((event) => event.type === 'message'));
    const droppedAt = new Date(before.AbsoluteTime);
    fake.dropSocket();
    await waitFor((all) => all.some((event) => event.type === 'disconnected'));
    const missed = [fake.say('Said while you were away.'), fake.say('And a second one.')];
    const saved = JSON.parse(JSON.stringify(session.state)) as Record<string, string>;

    const later = recorder();
    const resumed = await provider.resume(saved, later.listener);
    sessions.push(resumed);
    expect(resumed.state.ContactId).toBe(chat.contactId);
    expect(resumed.state.ConnectionToken).not.toBe(saved.ConnectionToken);
    expect(fake.socketCount()).toBe(1);

    const delivered = new Map<string, string>();
    for (const event of events) if (event.type === 'message') delivered.set(event.providerId, event.text);
    for (const event of await resumed.backfill(droppedAt)) delivered.set(event.providerId, event.text);
    expect([...delivered.values()]).toEqual([
      'First answer.',
      'Said while you were away.',
      'And a second one.',
    ]);
    const backfilled = await resumed.backfill(droppedAt);
    expect(backfilled.map((event) => event.providerId)).toEqual([
      before.Id,
      ...missed.map((item) => item.Id),
    ]);

    fake.say('Back on the socket.');
    await later.waitFor((all) => all.some((event) => event.type === 'message'));
    expect(later.events).toEqual([expect.objectContaining({ type: 'message', text: 'Back on the socket.' })]);
  });

  it('back-fills a long transcript page by page', async () => {
    const { session } = await started();
    fake.join('Grace');
    const since = new Date();
    for (let index = 0; index < 230; index += 1) fake.say(`Answer ${index}`);
    const backfilled = await session.backfill(since);
    expect(backfilled.map((event) => event.text)).toEqual(
      Array.from({ length: 230 }, (_, index) => `Answer ${index}`),
    );
    expect(new Set(backfilled.map((event) => event.providerId)).size).toBe(230);
  });

  it('counts a socket whose heartbeats go unanswered as dropped', async () => {
    const { events, waitFor } = await started();
    fake.answerHeartbeats = false;
    await waitFor((all) => all.some((event) => event.type === 'disconnected'), 3_000);
    const last = events.at(-1);
    expect(last?.type).toBe('disconnected');
    expect(last?.type === 'disconnected' ? last.reason : '').toContain('heartbeats');
  });

  it('renews a refused connection token with the participant token and makes the call again', async () => {
    const { session, chat } = await started();
    const first = session.state.ConnectionToken;
    fake.expireConnectionTokens();
    await session.send({ id: randomUUID(), text: 'Still here.' });
    expect(chat.customerTexts).toEqual(['Still here.']);
    expect(session.state.ConnectionToken).not.toBe(first);
  });

  it('refuses to resume a chat that has ended, and a state without its tokens', async () => {
    const { provider, session } = await started();
    const saved = { ...session.state };
    fake.end();
    const failure = await failureOf(provider.resume(saved, () => undefined));
    expect(failure.code).toBe('handover/provider-refused');
    expect(failure.retryable).toBe(false);
    expect(failure.detail).toContain('The chat has ended');
    const empty = await failureOf(provider.resume({ ContactId: 'x' }, () => undefined));
    expect(empty.code).toBe('handover/provider-refused');
  });

  it('refuses a socket address used after its window, as Connect does after 100 s', async () => {
    fake.socketWindowMs = 50;
    const settings = settingsOf();
    const answer = await loopbackFetch(`${fake.baseUrl}/participant/connection`, {
      method: 'POST',
      headers: {
        'x-amz-bearer': (await started()).session.state.ParticipantToken ?? '',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ Type: ['WEBSOCKET'] }),
    });
    const { Websocket } = (await answer.json()) as { Websocket: { Url: string } };
    await new Promise((resolve) => setTimeout(resolve, 120));
    await expect(network.openSocket(Websocket.Url)).rejects.toMatchObject({ code: 'fetch/http-status' });
    expect(settings.participant_endpoint).toBe(fake.baseUrl);
  });

  it.each([
    [401, 'handover/provider-refused', false, 'UnrecognizedClientException'],
    [403, 'handover/provider-refused', false, 'AccessDeniedException'],
    [429, 'handover/provider-busy', true, 'ThrottlingException'],
    [500, 'handover/provider-unavailable', true, 'InternalServiceException'],
  ] as const)('turns HTTP %i from Connect into %s', async (status, code, retryable, name) => {
    const provider = createConnectProvider(settingsOf(), network, fast);
    const chatsBefore = fake.chats.length;
    fake.failNext(status, { pathPrefix: '/contact/chat' });
    const failure = await failureOf(provider.start(startInput(), () => undefined));
    expect(failure).toMatchObject({ code, retryable });
    expect(failure.detail).toContain(name);
    expect(failure.detail).toContain(`HTTP ${status} ${name}`);
    expect(fake.chats.length).toBe(chatsBefore);
  });

  it.each([429, 500] as const)(
    'turns HTTP %i from the Participant Service into a failure and leaves no chat behind',
    async (status) => {
      const provider = createConnectProvider(settingsOf(), network, fast);
      fake.failNext(status, { pathPrefix: '/participant/connection' });
      const failure = await failureOf(provider.start(startInput(), () => undefined));
      expect(failure.code).toBe(status === 429 ? 'handover/provider-busy' : 'handover/provider-unavailable');
      expect(fake.chat().customerDisconnected).toBe(true);
    },
  );

  it('gives up on a Connect that hangs, within its time limit', async () => {
    const provider = createConnectProvider(settingsOf(), network, { ...fast, requestTimeoutMs: 300 });
    fake.failNext('hang');
    const began = Date.now();
    const failure = await failureOf(provider.start(startInput(), () => undefined));
    expect(Date.now() - began).toBeLessThan(2_000);
    expect(failure).toMatchObject({ code: 'handover/provider-unavailable', retryable: true });
    expect(failure.detail).toContain('did not answer');
    const session = (await started()).session;
    fake.failNext('hang', { pathPrefix: '/participant/message' });
    const slow = createConnectProvider(settingsOf(), network, { ...fast, requestTimeoutMs: 300 });
    const resumed = await slow.resume(session.state, () => undefined);
    sessions.push(resumed);
    expect((await failureOf(resumed.send({ id: randomUUID(), text: 'hello' }))).code).toBe(
      'handover/provider-unavailable',
    );
  });

  it('is refused when the secret key is wrong (the signature check fails) or the key id is unknown, never showing the secret', async () => {
    const wrongSecret = 'wrong/secret+value-that-must-not-leak-42';
    const badSecret = createConnectProvider(settingsOf({ secret_access_key: wrongSecret }), network, fast);
    const failure = await failureOf(badSecret.start(startInput(), () => undefined));
    expect(failure).toMatchObject({ code: 'handover/provider-refused', retryable: false });
    expect(failure.detail).toContain('InvalidSignatureException');
    expect(fake.requests.at(-1)).toMatchObject({ path: '/contact/chat', status: 403 });
    const unknownKey = createConnectProvider(
      settingsOf({ access_key_id: 'AKIAUNKNOWNKEY000001' }),
      network,
      fast,
    );
    const unknown = await failureOf(unknownKey.start(startInput(), () => undefined));
    expect(unknown.detail).toContain('UnrecognizedClientException');

    const probe = await badSecret.probe();
    expect(probe.ok).toBe(false);
    const details = [failure.detail, failure.message, unknown.detail, probe.ok ? '' : probe.failure.detail];
    for (const detail of details) {
      expect(detail).not.toContain(wrongSecret);
      expect(detail).not.toContain(fake.keys.secretAccessKey);
    }
  });

  it('never shows the secret or a token in a failure detail', async () => {
    const details: string[] = [];
    const provider = createConnectProvider(settingsOf(), network, fast);
    for (const status of [401, 403, 429, 500] as const) {
      fake.failNext(status);
      details.push((await failureOf(provider.start(startInput(), () => undefined))).detail);
    }
    const { session } = await started();
    fake.failNext(403, { pathPrefix: '/participant/', times: 2 });
    details.push((await failureOf(session.send({ id: randomUUID(), text: 'x' }))).detail);
    fake.failNext('hang');
    const slow = createConnectProvider(settingsOf(), network, { ...fast, requestTimeoutMs: 200 });
    details.push((await failureOf(slow.start(startInput(), () => undefined))).detail);
    expect(details).toHaveLength(6);
    for (const detail of details) {
      expect(detail).not.toContain(fake.keys.secretAccessKey);
      expect(detail).not.toContain(session.state.ParticipantToken);
      expect(detail).not.toContain(session.state.ConnectionToken);
    }
  });

  it('probes the key, the instance and the contact flow without starting a chat', async () => {
    const chatsBefore = fake.chats.length;
    const ok = await createConnectProvider(settingsOf(), network, fast).probe();
    expect(ok.ok).toBe(true);
    expect(ok.ok ? ok.detail : '').toContain('Omnibot hand-over');
    const otherFlow = await createConnectProvider(
      settingsOf({ contact_flow_id: randomUUID() }),
      network,
      fast,
    ).probe();
    expect(otherFlow).toMatchObject({ ok: false, failure: { code: 'handover/provider-refused' } });
    expect(otherFlow.ok ? '' : otherFlow.failure.detail).toContain('ResourceNotFoundException');
    fake.failNext(429);
    const busy = await createConnectProvider(settingsOf(), network, fast).probe();
    expect(busy).toMatchObject({ ok: false, failure: { code: 'handover/provider-busy' } });
    expect(fake.chats.length).toBe(chatsBefore);
  });

  it('sends every request through the guarded client, which refuses the loopback fake unless allowed', async () => {
    const strict: ProviderNetwork = {
      fetch: createGuardedWebFetch(),
      openSocket: createGuardedSocketOpener(),
    };
    const seen = fake.requests.length;
    const failure = await failureOf(
      createConnectProvider(settingsOf(), strict, fast).start(startInput(), () => undefined),
    );
    expect(failure).toMatchObject({ code: 'handover/provider-unavailable', retryable: false });
    expect(failure.detail).toContain('loopback');
    expect(fake.requests.length).toBe(seen);
    const probe = await createConnectProvider(settingsOf(), strict, fast).probe();
    expect(probe.ok).toBe(false);
    expect(fake.requests.length).toBe(seen);

    // The socket goes through the guarded opener too: refused, and the chat just made is left.
    const socketStrict: ProviderNetwork = { fetch: countingFetch, openSocket: createGuardedSocketOpener() };
    const refused = await failureOf(
      createConnectProvider(settingsOf(), socketStrict, fast).start(startInput(), () => undefined),
    );
    expect(refused.detail).toContain('chat socket');
    expect(fake.chat().customerDisconnected).toBe(true);

    // Every request the fake saw came through the guarded client this test suite counts.
    fetchCalls = 0;
    const counted = fake.requests.length;
    const { session } = await started();
    await session.send({ id: randomUUID(), text: 'counted' });
    await session.typing();
    await session.backfill(new Date(0));
    expect(fetchCalls).toBe(fake.requests.length - counted);
    expect(fetchCalls).toBeGreaterThanOrEqual(5);
  });
});
