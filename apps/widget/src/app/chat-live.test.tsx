import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderEmbedded } from '../test/embedded-app';
import { startWidgetServer, type TestBot, type WidgetServer } from '../test/widget-server';

let server: WidgetServer;

beforeAll(async () => {
  server = await startWidgetServer({});
});
afterAll(() => server.close());
/** What the loader keeps in the host page's storage, per bot (it outlives a render, as storage outlives a reload). */
const hostStorage = new Map<string, string>();

afterEach(() => {
  cleanup();
  hostStorage.clear();
  server.calls.length = 0;
});

/** A bot that hands over to people, on the local widget server: its id. */
function liveBot(extra: Omit<TestBot, 'config'> = {}): string {
  const id = crypto.randomUUID();
  server.bots[id] = {
    config: {
      identity: { botName: 'Ada' },
      engines: { enableliveagent: true, liveagent: 'inbox' },
      behaviour: { enableUserFeedback: false },
    },
    ...extra,
  };
  return id;
}

const renderApp = (botId: string) => renderEmbedded(server, botId, hostStorage);
const log = () => screen.getByRole('log');
const bubbles = () => [...log().children].map((bubble) => bubble.textContent);
const callsTo = (path: string) => server.calls.filter((call) => call.path === path);
const tokenOf = (botId: string) => server.live.tokens(botId)[0] ?? '';

async function say(text: string) {
  const input = await screen.findByRole('textbox', { name: 'Message' });
  fireEvent.change(input, { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
}

/** Asks for a person before writing anything, and waits until the conversation is queued and followed. */
async function handOver(botId: string) {
  fireEvent.click(await screen.findByRole('button', { name: 'Talk to an agent' }));
  await screen.findByText('Waiting for an agent… You are number 1 in the queue.');
  await waitFor(() => expect(server.live.listeners(tokenOf(botId))).toBe(1));
}

describe('a conversation with a person', () => {
  it('waits in the queue, shows who joined, their messages and typing, and the end', async () => {
    const id = liveBot();
    renderApp(id);
    await handOver(id);
    const queued = screen.getByText('Waiting for an agent… You are number 1 in the queue.');
    expect(queued.getAttribute('role')).toBe('status');
    expect(queued.getAttribute('aria-live')).toBe('polite');
    // Without a conversation the button's text starts it; the replayed stream shows nothing twice.
    expect(callsTo('/v1/intent').map((call) => (call.body as { text: string }).text)).toEqual([
      'Talk to an agent',
    ]);
    expect(bubbles()).toEqual(['Talk to an agent', 'You said: Talk to an agent']);
    // Asked for already: the visitor is not offered to ask again.
    expect(screen.queryByRole('button', { name: 'Talk to an agent' })).toBeNull();

    // Nobody is told the visitor types while nobody answers yet.
    const input = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'Are' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(callsTo('/v1/conversation/typing')).toHaveLength(0);
    fireEvent.change(input, { target: { value: '' } });

    const token = tokenOf(id);
    server.live.join(token, 'Anna');
    expect(await within(log()).findByText('Anna joined the conversation.')).toBeTruthy();
    expect(screen.getByText('Anna is answering').closest('header')).toBeTruthy();
    expect(screen.queryByText(/Waiting for an agent/)).toBeNull();

    server.live.typing(token, 'Anna');
    const typing = await screen.findByText('Anna is typing…');
    expect(typing.getAttribute('role')).toBe('status');
    server.live.say(token, 'Anna', 'Hello, I am Anna. How can I help?');
    const said = await within(log()).findByText('Hello, I am Anna. How can I help?');
    expect(said.closest('.ob-agent')?.querySelector('.ob-author')?.textContent).toBe('Anna');
    expect(screen.queryByText('Anna is typing…')).toBeNull();

    // The person is told the visitor types, at most every few seconds.
    fireEvent.change(input, { target: { value: 'I' } });
    fireEvent.change(input, { target: { value: 'I am' } });
    await waitFor(() => expect(callsTo('/v1/conversation/typing')).toHaveLength(1));
    expect(callsTo('/v1/conversation/typing')[0]?.body).toEqual({ botId: id, conversationToken: token });

    server.live.end(token);
    expect(await within(log()).findByText('The conversation has ended.')).toBeTruthy();
    await waitFor(() => expect(server.live.listeners(token)).toBe(0));
    expect(screen.queryByText('Anna is answering')).toBeNull();
    expect(bubbles()).toEqual([
      'Talk to an agent',
      'You said: Talk to an agent',
      'Anna joined the conversation.',
      'AnnaHello, I am Anna. How can I help?',
      'The conversation has ended.',
    ]);
  });

  it('shows no bot answer while the person answers, and the bot answers again once handed back', async () => {
    const id = liveBot();
    renderApp(id);
    await say('Hello');
    await within(log()).findByText('You said: Hello');
    fireEvent.click(screen.getByRole('button', { name: 'Talk to an agent' }));
    await screen.findByText('Waiting for an agent… You are number 1 in the queue.');
    const token = tokenOf(id);
    expect(callsTo('/v1/intent')).toHaveLength(1);
    server.live.join(token, 'Anna');
    await within(log()).findByText('Anna joined the conversation.');

    await say('Where is my parcel?');
    await waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());
    await waitFor(() => expect(screen.queryByText('Anna is answering')).toBeTruthy());
    server.live.say(token, 'Anna', 'It left today.');
    await within(log()).findByText('It left today.');
    expect(bubbles()).toEqual([
      'Hello',
      'You said: Hello',
      'Anna joined the conversation.',
      'Where is my parcel?',
      'AnnaIt left today.',
    ]);
    expect(screen.queryByRole('status', { name: 'Ada is typing' })).toBeNull();

    // The server says the change itself, so the widget does not say it again.
    server.live.handBack(token);
    expect(await within(log()).findByText('Anna handed the conversation back to the bot.')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('Anna is answering')).toBeNull());
    expect(screen.queryByText('You are talking to the bot again.')).toBeNull();
    await say('Thanks');
    expect(await within(log()).findByText('You said: Thanks')).toBeTruthy();
    expect(within(log()).getAllByText('You said: Thanks')).toHaveLength(1);
  });

  it('says a change itself when the server announces none, once however often the stream opens', async () => {
    const id = liveBot({ silentChanges: true });
    renderApp(id);
    await handOver(id);
    const token = tokenOf(id);
    server.live.join(token, 'Anna');
    await within(log()).findByText('Anna joined the conversation.');
    server.live.drop(token);
    await waitFor(() => expect(callsTo('/v1/conversation/events')).toHaveLength(2));
    await waitFor(() => expect(server.live.listeners(token)).toBe(1));
    server.live.handBack(token);
    expect(await within(log()).findByText('You are talking to the bot again.')).toBeTruthy();
    server.live.drop(token);
    await waitFor(() => expect(callsTo('/v1/conversation/events')).toHaveLength(3));
    await waitFor(() => expect(server.live.listeners(token)).toBe(1));
    server.live.end(token);
    expect(await within(log()).findByText('The conversation has ended.')).toBeTruthy();
    expect(bubbles()).toEqual([
      'Talk to an agent',
      'You said: Talk to an agent',
      'Anna joined the conversation.',
      'You are talking to the bot again.',
      'The conversation has ended.',
    ]);
  });

  it('follows a conversation the bot handed to a person by itself', async () => {
    const id = liveBot({
      answers: [{ kind: 'answer', deltas: [], messages: ['Let me find someone for you.'], handsOver: true }],
    });
    renderApp(id);
    await say('I want to cancel my contract');
    await within(log()).findByText('Let me find someone for you.');
    expect(await screen.findByText('Waiting for an agent… You are number 1 in the queue.')).toBeTruthy();
    await waitFor(() => expect(server.live.listeners(tokenOf(id))).toBe(1));
    server.live.join(tokenOf(id), 'Anna');
    expect(await within(log()).findByText('Anna joined the conversation.')).toBeTruthy();
    expect(callsTo('/v1/handover')).toHaveLength(0);
  });

  it('starts a new conversation when a message goes to one that ended', async () => {
    const id = liveBot();
    renderApp(id);
    await handOver(id);
    const token = tokenOf(id);
    server.live.end(token);
    await within(log()).findByText('The conversation has ended.');
    await say('One more question');
    expect(await within(log()).findByText('You said: One more question')).toBeTruthy();
    const tokens = callsTo('/v1/intent').map(
      (call) => (call.body as { conversationToken?: string }).conversationToken,
    );
    expect(tokens).toEqual([undefined, token, undefined]);
    expect(server.live.tokens(id)).toHaveLength(2);
    expect(within(log()).getAllByText('One more question')).toHaveLength(1);
  });

  it('asks for a person in a new conversation when the one asked in has ended', async () => {
    const id = liveBot();
    renderApp(id);
    await handOver(id);
    const [ended] = server.live.tokens(id);
    server.live.end(ended ?? '');
    await within(log()).findByText('The conversation has ended.');
    await waitFor(() => expect(server.live.listeners(ended ?? '')).toBe(0));
    fireEvent.click(screen.getByRole('button', { name: 'Talk to an agent' }));
    await waitFor(() => expect(server.live.tokens(id)).toHaveLength(2));
    const [, started] = server.live.tokens(id);
    await screen.findByText('Waiting for an agent… You are number 1 in the queue.');
    expect(
      callsTo('/v1/handover').map((call) => (call.body as { conversationToken: string }).conversationToken),
    ).toEqual([ended, ended, started]);
    expect(within(log()).getAllByText('Talk to an agent')).toHaveLength(2);
  });

  it('after a reload, follows the conversation again from the last event it showed', async () => {
    const id = liveBot();
    const first = renderApp(id);
    await handOver(id);
    const token = tokenOf(id);
    server.live.join(token, 'Anna');
    server.live.say(token, 'Anna', 'First answer');
    await within(log()).findByText('First answer');
    const shown = server.live.lastEventId(token);
    await waitFor(() =>
      expect(JSON.parse(hostStorage.get(id) ?? '{}')).toMatchObject({
        live: { state: 'agent', agent: 'Anna', lastEventId: shown },
      }),
    );
    first.unmount();
    await waitFor(() => expect(server.live.listeners(token)).toBe(0));
    server.live.say(token, 'Anna', 'Said while you were away');

    renderApp(id);
    expect(await within(await screen.findByRole('log')).findByText('Said while you were away')).toBeTruthy();
    expect(screen.getByText('Anna is answering')).toBeTruthy();
    const opened = callsTo('/v1/conversation/events').map((call) => call.body);
    expect(opened.at(-1)).toEqual({ botId: id, conversationToken: token, after: shown });
    expect(bubbles()).toEqual([
      'Talk to an agent',
      'You said: Talk to an agent',
      'Anna joined the conversation.',
      'AnnaFirst answer',
      'AnnaSaid while you were away',
    ]);
  });
});
