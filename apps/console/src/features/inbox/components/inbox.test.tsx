import type { InboxConversation, InboxTranscript } from '@omnibot/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import {
  BOT_PART,
  FakeEventSource,
  inboxHandler,
  makeConversation,
  ME,
  message,
  MINE_ID,
  OTHER_AGENT,
  OTHERS_ID,
  QUEUED_ID,
  stubEventSource,
  transcriptOf,
} from '../../../test/inbox-fixture';
import { renderRoute } from '../../../test/render';
import { Inbox } from './inbox';

const QUEUED = makeConversation();
const MINE = makeConversation({
  id: MINE_ID,
  bot: { id: 'b2', name: 'Sales bot' },
  state: 'agent',
  language: 'fr',
  agent: ME,
  last_message: { role: 'agent', text: 'Bonjour !', at: '2026-01-01T10:05:00.000Z' },
});
const OTHERS = makeConversation({ id: OTHERS_ID, state: 'agent', agent: OTHER_AGENT, language: 'en' });

const MINE_MESSAGES = [
  ...BOT_PART,
  message('m4', 'system', 'Grace Hopper joined the conversation.'),
  message('m5', 'agent', 'Bonjour !', 'Grace Hopper'),
];

/** The inbox API over mutable state, so each test says what the server holds now. */
function stubInbox(
  initial: InboxConversation[],
  post?: (path: string, body: unknown) => Response | undefined,
) {
  const state = {
    list: initial,
    transcripts: {
      [QUEUED_ID]: transcriptOf(QUEUED),
      [MINE_ID]: transcriptOf(MINE, MINE_MESSAGES),
      [OTHERS_ID]: transcriptOf(OTHERS),
    } as Record<string, InboxTranscript>,
  };
  const api = stubAuthApi({
    signedIn: true,
    handle: inboxHandler({ list: () => state.list, transcripts: () => state.transcripts, post }),
  });
  const count = (call: string) => api.calls().filter((made) => made === call).length;
  return { ...api, state, count };
}

const renderInbox = (path = '/inbox') => {
  const user = userEvent.setup();
  const view = renderRoute(<Inbox userId={ME.id} />, { path });
  return { user, ...view };
};

const conversationButton = (name: RegExp) =>
  within(screen.getByRole('list', { name: 'Conversations' })).getByRole('button', { name });

const transcriptTexts = () =>
  within(screen.getByRole('list', { name: 'Transcript' }))
    .getAllByRole('listitem')
    .map((item) => item.textContent);

describe('Inbox', () => {
  beforeEach(() => stubEventSource());
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('says what to do when no visitor waits, with a link to the bots', async () => {
    stubInbox([]);
    renderInbox();
    expect(await screen.findByRole('heading', { name: 'No visitor is waiting' })).toBeInTheDocument();
    expect(
      screen.getByText(
        "No visitor is waiting. Conversations appear here when a bot hands one over; turn on live agents in a bot's Engines section.",
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open the bots' })).toHaveAttribute('href', '/bot/manage');
  });

  it('lists waiting conversations with their waiting time, bot, language, last message and state', async () => {
    stubInbox([QUEUED, MINE, OTHERS]);
    renderInbox();
    const waiting = await screen.findByRole('button', { name: /Help bot.*Waiting/ });
    expect(waiting).toHaveTextContent('waiting 3 min');
    expect(waiting).toHaveTextContent('de');
    expect(waiting).toHaveTextContent('Can a person help me?');
    expect(conversationButton(/Sales bot/)).toHaveTextContent('With you');
    expect(conversationButton(/Sales bot/)).toHaveTextContent('Bonjour !');
    expect(conversationButton(/Sales bot/)).not.toHaveTextContent('waiting');
    expect(conversationButton(/With Alan Turing/)).toHaveTextContent('en');
    expect(screen.getByText('1 waiting, 3 in all')).toBeInTheDocument();
    expect(screen.getByText('Choose a conversation to read it and answer.')).toBeInTheDocument();
  });

  it('moves the waiting time on every 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubInbox([QUEUED]);
    renderInbox();
    const waiting = await screen.findByRole('button', { name: /Help bot/ });
    expect(waiting).toHaveTextContent('waiting 3 min');
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(waiting).toHaveTextContent('waiting 4 min');
  });

  it('opens a conversation with its header and the whole transcript, the bot part first', async () => {
    stubInbox([QUEUED, MINE]);
    const { user, router } = renderInbox();
    await user.click(await screen.findByRole('button', { name: /Sales bot/ }));
    expect(router.state.location.search).toBe(`?id=${MINE_ID}`);
    const panel = await screen.findByRole('region', { name: 'Conversation' });
    expect(within(panel).getByRole('heading', { name: 'Sales bot' })).toBeInTheDocument();
    expect(panel).toHaveTextContent('Visitor language: fr');
    expect(panel).toHaveTextContent('Origin: https://shop.acme.test');
    expect(panel).toHaveTextContent('Country: Germany (DE)');
    expect(panel).toHaveTextContent('Agent: Grace Hopper');
    expect(transcriptTexts().map((text) => text?.replace(/\d.*$/, ''))).toEqual([
      expect.stringMatching(/^Visitor/),
      expect.stringMatching(/^Bot/),
      expect.stringMatching(/^Visitor/),
      'Grace Hopper joined the conversation.',
      expect.stringMatching(/^Grace Hopper/),
    ]);
    expect(screen.getByText('Grace Hopper joined the conversation.')).toHaveAttribute('data-role', 'system');
    expect(screen.getByText('Where is my parcel?')).toBeInTheDocument();
    expect(conversationButton(/Sales bot/)).toHaveAttribute('aria-current', 'true');
  });

  it('claims a waiting conversation, says so, and offers the reply box', async () => {
    const claimed = { ...QUEUED, state: 'agent' as const, agent: ME };
    const api = stubInbox([QUEUED], (path) => {
      if (path !== `/v1/inbox/${QUEUED_ID}/claim`) return undefined;
      api.state.list = [claimed];
      api.state.transcripts[QUEUED_ID] = transcriptOf(claimed);
      return json(200, claimed);
    });
    const { user } = renderInbox(`/inbox?id=${QUEUED_ID}`);
    expect(screen.queryByRole('textbox', { name: /your reply/i })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('You answer this conversation now.')).toBeInTheDocument();
    expect(api.calls()).toContain(`POST /v1/inbox/${QUEUED_ID}/claim`);
    expect(await screen.findByRole('textbox', { name: /your reply/i })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Claim' })).not.toBeInTheDocument();
    expect(conversationButton(/Help bot/)).toHaveTextContent('With you');
  });

  it('shows who got there first when another agent claimed the conversation, and refreshes', async () => {
    const taken = { ...QUEUED, state: 'agent' as const, agent: OTHER_AGENT };
    const api = stubInbox([QUEUED], (path) => {
      if (path !== `/v1/inbox/${QUEUED_ID}/claim`) return undefined;
      api.state.list = [taken];
      api.state.transcripts[QUEUED_ID] = transcriptOf(taken);
      return json(409, {
        code: 'inbox/already-claimed',
        message: 'Another agent already answers this conversation.',
      });
    });
    const { user } = renderInbox(`/inbox?id=${QUEUED_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('Another agent already answers this conversation.')).toBeInTheDocument();
    expect(screen.getByText('The conversation was not claimed')).toBeInTheDocument();
    expect(
      await screen.findByText('Alan Turing answers this conversation; you can read it.'),
    ).toBeInTheDocument();
    expect(api.count('GET /v1/inbox')).toBe(2);
    expect(api.count(`GET /v1/inbox/${QUEUED_ID}`)).toBe(2);
    expect(screen.queryByRole('textbox', { name: /your reply/i })).not.toBeInTheDocument();
  });

  it('shows another agent’s conversation read-only, saying who answers it', async () => {
    stubInbox([OTHERS]);
    renderInbox(`/inbox?id=${OTHERS_ID}`);
    expect(
      await screen.findByText('Alan Turing answers this conversation; you can read it.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /your reply/i })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /claim|close|hand back/i })).not.toBeInTheDocument();
  });

  it('sends a reply with Enter, keeps Shift+Enter for a new line, and shows the message once', async () => {
    const sent = message('m6', 'agent', 'Line one\nLine two', 'Grace Hopper');
    const api = stubInbox([MINE], (path) =>
      path === `/v1/inbox/${MINE_ID}/messages` ? json(201, sent) : undefined,
    );
    const { user } = renderInbox(`/inbox?id=${MINE_ID}`);
    const box = await screen.findByRole('textbox', { name: /your reply/i });
    await user.type(box, 'Line one{Shift>}{Enter}{/Shift}Line two');
    expect(api.calls()).not.toContain(`POST /v1/inbox/${MINE_ID}/messages`);
    expect(box).toHaveValue('Line one\nLine two');
    await user.type(box, '{Enter}');
    await waitFor(() => expect(box).toHaveValue(''));
    expect(api.bodyOf(`/v1/inbox/${MINE_ID}/messages`)).toEqual({ text: 'Line one\nLine two' });
    // The same message also comes back as an event: it is shown once.
    act(() => FakeEventSource.current().emit('message', { conversationId: MINE_ID, message: sent }));
    await waitFor(() => expect(transcriptTexts()).toHaveLength(6));
    expect(screen.getAllByText(/Line one/)).toHaveLength(1);
  });

  it('tells the visitor the agent types, at most every 3 seconds', async () => {
    const api = stubInbox([MINE], (path) =>
      path === `/v1/inbox/${MINE_ID}/typing` ? new Response(null, { status: 204 }) : undefined,
    );
    const { user } = renderInbox(`/inbox?id=${MINE_ID}`);
    await user.type(await screen.findByRole('textbox', { name: /your reply/i }), 'Hello there');
    expect(api.count(`POST /v1/inbox/${MINE_ID}/typing`)).toBe(1);
  });

  it('refuses an empty or too long reply without sending it', async () => {
    const api = stubInbox([MINE]);
    const { user } = renderInbox(`/inbox?id=${MINE_ID}`);
    const box = await screen.findByRole('textbox', { name: /your reply/i });
    await user.type(box, '   {Enter}');
    expect(await screen.findByText('The text is empty.')).toBeInTheDocument();
    await user.clear(box);
    await user.click(box);
    await user.paste('x'.repeat(5000));
    await user.click(screen.getByRole('button', { name: 'Send' }));
    expect(await screen.findByText(/The text is longer than \d+ characters\./)).toBeInTheDocument();
    expect(api.calls()).not.toContain(`POST /v1/inbox/${MINE_ID}/messages`);
  });

  it('shows why a reply was refused', async () => {
    stubInbox([MINE], (path) =>
      path === `/v1/inbox/${MINE_ID}/messages`
        ? json(409, {
            code: 'inbox/not-yours',
            message: 'You do not answer this conversation; claim it first.',
          })
        : undefined,
    );
    const { user } = renderInbox(`/inbox?id=${MINE_ID}`);
    await user.type(await screen.findByRole('textbox', { name: /your reply/i }), 'Hello{Enter}');
    expect(
      await screen.findByText('You do not answer this conversation; claim it first.'),
    ).toBeInTheDocument();
    expect(screen.getByText('The message was not sent')).toBeInTheDocument();
  });

  it('hands a conversation back to the bot', async () => {
    const released = { ...MINE, state: 'bot' as const, agent: null };
    const api = stubInbox([MINE], (path) => {
      if (path !== `/v1/inbox/${MINE_ID}/release`) return undefined;
      api.state.list = [];
      api.state.transcripts[MINE_ID] = transcriptOf(released, MINE_MESSAGES);
      return json(200, released);
    });
    const { user } = renderInbox(`/inbox?id=${MINE_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Hand back to the bot' }));
    expect(await screen.findByText('The bot answers this conversation again.')).toBeInTheDocument();
    expect(api.calls()).toContain(`POST /v1/inbox/${MINE_ID}/release`);
    expect(await screen.findByText(/The bot answers this conversation; it comes back/)).toBeInTheDocument();
  });

  it('closes a conversation', async () => {
    const closed = { ...MINE, state: 'closed' as const };
    const api = stubInbox([MINE], (path) => {
      if (path !== `/v1/inbox/${MINE_ID}/close`) return undefined;
      api.state.list = [];
      api.state.transcripts[MINE_ID] = transcriptOf(closed, MINE_MESSAGES);
      return json(200, closed);
    });
    const { user } = renderInbox(`/inbox?id=${MINE_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Close' }));
    expect(await screen.findByText('The conversation is closed.')).toBeInTheDocument();
    expect(api.calls()).toContain(`POST /v1/inbox/${MINE_ID}/close`);
    expect(await screen.findByText('This conversation is closed.')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: /your reply/i })).not.toBeInTheDocument();
  });

  describe('events', () => {
    it('listens on the inbox events without credentials of another origin, and stops when left', async () => {
      stubInbox([QUEUED]);
      const { unmount } = renderInbox();
      await screen.findByRole('button', { name: /Help bot/ });
      const source = FakeEventSource.current();
      expect(source.url).toBe('/v1/inbox/events');
      expect(source.withCredentials).toBe(false);
      unmount();
      expect(source.closed).toBe(true);
    });

    it('refetches the list and the open transcript when a conversation changes', async () => {
      const api = stubInbox([MINE]);
      renderInbox(`/inbox?id=${MINE_ID}`);
      await screen.findByRole('textbox', { name: /your reply/i });
      api.state.list = [QUEUED, MINE];
      act(() => FakeEventSource.current().emit('changed', { conversationId: QUEUED_ID, state: 'queued' }));
      expect(await screen.findByRole('button', { name: /Help bot/ })).toBeInTheDocument();
      expect(api.count(`GET /v1/inbox/${MINE_ID}`)).toBe(1);

      const closed = { ...MINE, state: 'closed' as const };
      api.state.transcripts[MINE_ID] = transcriptOf(closed, MINE_MESSAGES);
      act(() => FakeEventSource.current().emit('changed', { conversationId: MINE_ID, state: 'closed' }));
      expect(await screen.findByText('This conversation is closed.')).toBeInTheDocument();
    });

    it('adds a visitor message to the open transcript once, however often it arrives', async () => {
      const api = stubInbox([MINE]);
      renderInbox(`/inbox?id=${MINE_ID}`);
      await screen.findByRole('textbox', { name: /your reply/i });
      const listCalls = api.count('GET /v1/inbox');
      const event = { conversationId: MINE_ID, message: message('m9', 'visitor', 'Are you there?') };
      act(() => {
        FakeEventSource.current().emit('message', event);
        FakeEventSource.current().emit('message', event);
      });
      expect(await screen.findByText('Are you there?')).toBeInTheDocument();
      expect(transcriptTexts()).toHaveLength(6);
      await waitFor(() => expect(api.count('GET /v1/inbox')).toBeGreaterThan(listCalls));
      // Another conversation's message does not join this transcript.
      act(() =>
        FakeEventSource.current().emit('message', {
          conversationId: OTHERS_ID,
          message: message('m10', 'visitor', 'Hello?'),
        }),
      );
      expect(screen.queryByText('Hello?')).not.toBeInTheDocument();
      expect(transcriptTexts()).toHaveLength(6);
    });

    it('shows for 6 seconds that the visitor of the open conversation types', async () => {
      vi.useFakeTimers({ shouldAdvanceTime: true });
      stubInbox([MINE, OTHERS]);
      renderInbox(`/inbox?id=${MINE_ID}`);
      await screen.findByRole('textbox', { name: /your reply/i });
      act(() => FakeEventSource.current().emit('typing', { conversationId: OTHERS_ID }));
      expect(screen.queryByText('Visitor is typing…')).not.toBeInTheDocument();
      act(() => FakeEventSource.current().emit('typing', { conversationId: MINE_ID }));
      expect(screen.getByText('Visitor is typing…')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(5_000));
      expect(screen.getByText('Visitor is typing…')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(1_100));
      expect(screen.queryByText('Visitor is typing…')).not.toBeInTheDocument();
    });

    it('refetches everything when the stream comes back after an error, not on the first open', async () => {
      const api = stubInbox([MINE]);
      renderInbox(`/inbox?id=${MINE_ID}`);
      await screen.findByRole('textbox', { name: /your reply/i });
      const source = FakeEventSource.current();
      act(() => source.open());
      expect(api.count('GET /v1/inbox')).toBe(1);
      api.state.list = [QUEUED, MINE];
      act(() => {
        source.fail();
        source.open();
      });
      expect(await screen.findByRole('button', { name: /Help bot/ })).toBeInTheDocument();
      await waitFor(() => expect(api.count(`GET /v1/inbox/${MINE_ID}`)).toBe(2));
    });

    it('refetches everything when the server says it may have lost changes', async () => {
      const api = stubInbox([MINE]);
      renderInbox(`/inbox?id=${MINE_ID}`);
      await screen.findByRole('textbox', { name: /your reply/i });
      api.state.list = [QUEUED, MINE];
      act(() => FakeEventSource.current().emit('changed', { conversationId: null, state: null }));
      expect(await screen.findByRole('button', { name: /Help bot/ })).toBeInTheDocument();
      await waitFor(() => expect(api.count(`GET /v1/inbox/${MINE_ID}`)).toBe(2));
    });

    it('ignores events it cannot read', async () => {
      const api = stubInbox([MINE]);
      renderInbox(`/inbox?id=${MINE_ID}`);
      await screen.findByRole('textbox', { name: /your reply/i });
      act(() => {
        FakeEventSource.current().emit('changed', { conversationId: MINE_ID, state: 'lost' });
        FakeEventSource.current().dispatchEvent(new MessageEvent('message', { data: 'not json' }));
      });
      expect(api.count('GET /v1/inbox')).toBe(1);
      expect(transcriptTexts()).toHaveLength(5);
    });
  });
});
