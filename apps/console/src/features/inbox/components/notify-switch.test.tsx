import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubAuthApi } from '../../../test/fake-auth-api';
import {
  FakeEventSource,
  inboxHandler,
  makeConversation,
  QUEUED_ID,
  stubEventSource,
  transcriptOf,
} from '../../../test/inbox-fixture';
import { renderRoute } from '../../../test/render';
import { NOTIFY_KEY } from '../utils/new-conversation-alert';
import { Inbox } from './inbox';

class FakeNotification {
  static permission: NotificationPermission = 'default';
  static answer: NotificationPermission = 'granted';
  static shown: { title: string; options?: NotificationOptions }[] = [];
  static requestPermission = vi.fn(() => {
    FakeNotification.permission = FakeNotification.answer;
    return Promise.resolve(FakeNotification.answer);
  });
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    FakeNotification.shown.push({ title, options });
  }
  close() {}
}

/** Just enough WebAudio to count the beeps made. */
class FakeAudioContext {
  static beeps = 0;
  state = 'running';
  currentTime = 0;
  destination = {};
  resume = () => Promise.resolve();
  createGain() {
    return {
      gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
      connect: (next: unknown) => next,
    };
  }
  createOscillator() {
    return {
      type: 'sine',
      frequency: { value: 0 },
      connect: (next: unknown) => next,
      start: () => {
        FakeAudioContext.beeps += 1;
      },
      stop: () => undefined,
    };
  }
}

function renderInbox() {
  stubAuthApi({
    signedIn: true,
    handle: inboxHandler({
      list: () => [],
      transcripts: () => ({ [QUEUED_ID]: transcriptOf(makeConversation()) }),
    }),
  });
  const user = userEvent.setup();
  renderRoute(<Inbox userId="u1" />, { path: '/inbox' });
  return user;
}

describe('Notify me', () => {
  beforeEach(() => {
    stubEventSource();
    FakeNotification.permission = 'default';
    FakeNotification.answer = 'granted';
    FakeNotification.shown = [];
    FakeNotification.requestPermission.mockClear();
    FakeAudioContext.beeps = 0;
    vi.stubGlobal('Notification', FakeNotification);
    vi.stubGlobal('AudioContext', FakeAudioContext);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('is off by default and stays quiet for a new waiting conversation', async () => {
    renderInbox();
    const toggle = await screen.findByRole('switch', { name: /^Notify me/ });
    expect(toggle).not.toBeChecked();
    await screen.findByRole('heading', { name: 'No visitor is waiting' });
    act(() => FakeEventSource.current().emit('changed', { conversationId: QUEUED_ID, state: 'queued' }));
    expect(FakeAudioContext.beeps).toBe(0);
    expect(FakeNotification.shown).toEqual([]);
  });

  it('asks for permission when turned on, remembers the choice, then beeps and notifies', async () => {
    const user = renderInbox();
    await user.click(await screen.findByRole('switch', { name: /^Notify me/ }));
    expect(FakeNotification.requestPermission).toHaveBeenCalledOnce();
    expect(window.localStorage.getItem(NOTIFY_KEY)).toBe('true');
    expect(screen.queryByText(/blocks notifications/)).not.toBeInTheDocument();

    act(() => FakeEventSource.current().emit('changed', { conversationId: QUEUED_ID, state: 'queued' }));
    expect(FakeAudioContext.beeps).toBe(1);
    expect(FakeNotification.shown).toEqual([
      expect.objectContaining({
        title: 'A visitor is waiting',
        options: expect.objectContaining({ tag: `inbox-${QUEUED_ID}` }) as unknown,
      }),
    ]);
    // A claim or a close is no new visitor.
    act(() => FakeEventSource.current().emit('changed', { conversationId: QUEUED_ID, state: 'agent' }));
    expect(FakeAudioContext.beeps).toBe(1);

    await user.click(screen.getByRole('switch', { name: /^Notify me/ }));
    expect(window.localStorage.getItem(NOTIFY_KEY)).toBe('false');
    act(() => FakeEventSource.current().emit('changed', { conversationId: QUEUED_ID, state: 'queued' }));
    expect(FakeAudioContext.beeps).toBe(1);
  });

  it('says so when the browser refuses notifications, and still beeps', async () => {
    FakeNotification.answer = 'denied';
    const user = renderInbox();
    await user.click(await screen.findByRole('switch', { name: /^Notify me/ }));
    expect(
      await screen.findByText(
        /^Your browser blocks notifications from this site, so you will only hear a beep\./,
      ),
    ).toBeInTheDocument();
    act(() => FakeEventSource.current().emit('changed', { conversationId: QUEUED_ID, state: 'queued' }));
    expect(FakeAudioContext.beeps).toBe(1);
    expect(FakeNotification.shown).toEqual([]);
  });

  it('starts on when it was turned on before, without asking again', async () => {
    window.localStorage.setItem(NOTIFY_KEY, 'true');
    FakeNotification.permission = 'granted';
    renderInbox();
    expect(await screen.findByRole('switch', { name: /^Notify me/ })).toBeChecked();
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
  });
});
