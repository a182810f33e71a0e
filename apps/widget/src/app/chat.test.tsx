import { PROTOCOL_SOURCE, type WidgetConfigInput } from '@omnibot/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fromHost, HOST, renderEmbedded } from '../test/embedded-app';
import { startWidgetServer, type Answer, type TestBot, type WidgetServer } from '../test/widget-server';
import { App } from './App';
import { NO_AGENT_TEXT } from './live-texts';

let server: WidgetServer;

beforeAll(async () => {
  server = await startWidgetServer({});
});
afterAll(() => server.close());
/** What the loader keeps in the host page's storage, per bot (it outlives a render, as storage outlives a reload). */
const hostStorage = new Map<string, string>();

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  hostStorage.clear();
  server.calls.length = 0;
});

/** Registers a bot on the local widget server and returns its id. */
function bot(config: WidgetConfigInput = {}, extra: Omit<TestBot, 'config'> = {}): string {
  const id = crypto.randomUUID();
  server.bots[id] = { config, ...extra };
  return id;
}

const renderApp = (botId: string) => renderEmbedded(server, botId, hostStorage);

async function say(text: string) {
  const input = await screen.findByRole('textbox', { name: 'Message' });
  fireEvent.change(input, { target: { value: text } });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
}

/** Waits until no message is on its way or streaming. */
const settled = () => waitFor(() => expect(document.querySelector('[aria-busy="true"]')).toBeNull());

const intents = () => server.calls.filter((call) => call.path === '/v1/intent');
const handovers = () => server.calls.filter((call) => call.path === '/v1/handover').map((call) => call.body);
const log = () => screen.getByRole('log');

// The loader holds its messages until the window says it is ready, and the window says so only once it listens.
async function hostHeardReady(toHost: () => unknown[]) {
  await waitFor(() => expect(toHost()).toContainEqual({ source: PROTOCOL_SOURCE, type: 'ready' }));
}

describe('the chat window', () => {
  it('shows the header, welcome text as Markdown, welcome menu and start suggestions', async () => {
    const id = bot({
      identity: { botName: 'Ada', description: 'Answers about your orders' },
      welcome: {
        welcomeText: 'Hello, I am **Ada**. See [our help](https://help.example.com).',
        welcomeText_enabled: true,
        welcomeMenu: [{ label: 'Opening hours', text: 'When are you open?' }],
        start_suggestions: ['Track my order', 'Returns'],
      },
      titles: { inputTitle: 'Your question', sendTitle: 'Ask' },
    });
    renderApp(id);
    expect(await screen.findByRole('heading', { name: 'Ada' })).toBeTruthy();
    expect(screen.getByText('Answers about your orders')).toBeTruthy();
    expect(screen.getByText('Ada', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'our help' }).getAttribute('href')).toBe(
      'https://help.example.com/',
    );
    const chips = within(screen.getByRole('list', { name: 'Suggestions' })).getAllByRole('button');
    expect(chips.map((chip) => chip.textContent)).toEqual(['Track my order', 'Returns']);
    expect(screen.getByRole('textbox', { name: 'Your question' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ask' })).toBeTruthy();
    expect(log().getAttribute('aria-live')).toBe('polite');
    fireEvent.click(within(screen.getByRole('list', { name: 'Welcome menu' })).getByRole('button'));
    expect(await within(log()).findByText('You said: When are you open?')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Suggestions' })).toBeNull();
  });

  it('hides the welcome text when it is off and shows the default titles, with Send off while empty', async () => {
    renderApp(bot({ welcome: { welcomeText: 'Not shown', start_suggestions: [] } }));
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByText('Not shown')).toBeNull();
    expect(screen.queryByRole('list', { name: 'Suggestions' })).toBeNull();
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Send' }).disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Unmute' })).toBeNull();
  });

  it('streams the answer under a typing indicator, then shows its sources as links and reports it', async () => {
    let release = () => undefined as void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const id = bot(
      { identity: { botName: 'Ada' } },
      {
        answers: [
          {
            kind: 'answer',
            deltas: ['Our shop opens ', 'at **9**.'],
            messages: ['Our shop opens at **9**.'],
            sources: [
              { n: 1, title: 'Opening hours', url: 'https://shop.example/hours' },
              { n: 2, title: 'Handbook', url: null },
              { n: 3, title: 'Evil', url: 'javascript:alert(1)' },
            ],
            gate,
          },
        ],
      },
    );
    const { toHost } = renderApp(id);
    await say('When do you open?');
    expect(await screen.findByRole('status', { name: 'Ada is typing' })).toBeTruthy();
    expect(await within(log()).findByText('Our shop opens')).toBeTruthy();
    expect(screen.queryByRole('status', { name: 'Ada is typing' })).toBeNull();
    release();
    const sources = within(await screen.findByRole('list', { name: 'Sources' }));
    expect(within(log()).getByText('9').tagName).toBe('STRONG');
    expect(sources.getByRole('link', { name: '[1] Opening hours' }).getAttribute('href')).toBe(
      'https://shop.example/hours',
    );
    expect(sources.getByText('[2] Handbook').tagName).toBe('LI');
    expect(sources.getByText('[3] Evil').closest('a')).toBeNull();
    expect(sources.getAllByRole('link')[0]?.getAttribute('rel')).toContain('noopener');
    expect(intents()[0]?.accept).toBe('text/event-stream');
    expect(toHost()).toContainEqual({
      source: PROTOCOL_SOURCE,
      type: 'message',
      role: 'user',
      text: 'When do you open?',
    });
    expect(toHost()).toContainEqual({
      source: PROTOCOL_SOURCE,
      type: 'message',
      role: 'bot',
      text: 'Our shop opens at **9**.',
    });
  });

  it('shows the citations of an answer as links to their sources, not as [n] text', async () => {
    const id = bot(
      {},
      {
        answers: [
          {
            kind: 'answer',
            deltas: [],
            messages: ['Open at 9 [1], closed on **Sundays [2]**. Not cited: [7].'],
            sources: [
              { n: 1, title: 'Opening hours', url: 'https://shop.example/hours' },
              { n: 2, title: 'Handbook', url: null },
            ],
          },
        ],
      },
    );
    renderApp(id);
    await say('When do you open?');
    const hours = await within(log()).findByRole('link', { name: 'Source 1: Opening hours' });
    expect(hours.textContent).toBe('1');
    expect(hours.getAttribute('href')).toBe('https://shop.example/hours');
    expect(hours.getAttribute('rel')).toContain('noopener');
    // A source without a page of its own is linked to its entry in the list of sources.
    const handbook = within(log()).getByRole('link', { name: 'Source 2: Handbook' });
    const entry = document.getElementById(decodeURIComponent(handbook.getAttribute('href')?.slice(1) ?? ''));
    expect(entry?.textContent).toBe('[2] Handbook');
    expect(hours.closest('p')?.textContent).toBe('Open at 9 1, closed on Sundays 2. Not cited: [7].');
  });

  it('reads a stream cut into 7-byte writes, drops a reset draft, and reuses the issued conversation token', async () => {
    const id = bot(
      {},
      {
        answers: [
          {
            kind: 'answer',
            discarded: 'A wrong start',
            deltas: ['Grüße ', '👋 aus Köln'],
            messages: ['Grüße 👋 aus Köln'],
            chunkBytes: 7,
          },
        ],
      },
    );
    const { toHost } = renderApp(id);
    await say('Hallo');
    expect(await within(log()).findByText('Grüße 👋 aus Köln')).toBeTruthy();
    expect(screen.queryByText('A wrong start')).toBeNull();
    await say('Second');
    await within(log()).findByText('You said: Second');
    const [first, second] = intents();
    expect((first?.body as { conversationToken?: string }).conversationToken).toBeUndefined();
    const token = (second?.body as { conversationToken?: string }).conversationToken;
    expect(token).toMatch(/^conv-/);
    // The conversation token reaches the host page only to be kept in its storage, never in an event it hears.
    const events = toHost().filter((message) => (message as { type: string }).type !== 'store');
    expect(JSON.stringify(events)).not.toContain(token);
  });

  it('takes a JSON reply when the server does not stream', async () => {
    const id = bot(
      {},
      { answers: [{ kind: 'answer', deltas: [], messages: ['Plain JSON answer'], jsonOnly: true }] },
    );
    renderApp(id);
    await say('Hi');
    expect(await within(log()).findByText('Plain JSON answer')).toBeTruthy();
  });
});

describe('sending safely', () => {
  it('masks matches of the mask patterns before the text leaves the browser and shows the masked text', async () => {
    const id = bot({ masking: { enableMasking: true, maskCharacter: '#' } });
    renderApp(id);
    await say('my pin is 1234 and ssn 123-45-6789');
    expect(within(log()).getByText('my pin is #### and ssn ###########')).toBeTruthy();
    await within(log()).findByText('You said: my pin is #### and ssn ###########');
    expect((intents()[0]?.body as { text: string }).text).toBe('my pin is #### and ssn ###########');
  });

  it('sends text unmasked when masking is off', async () => {
    renderApp(bot({ masking: { enableMasking: false } }));
    await say('my pin is 1234');
    await within(log()).findByText('You said: my pin is 1234');
  });

  const refusals: [string, Answer, RegExp][] = [
    ['413', { kind: 'refuse', status: 413, code: 'widget/text-too-long', message: 'x' }, /too long/],
    ['429', { kind: 'refuse', status: 429, code: 'widget/rate-limited', message: 'x' }, /too quickly/],
    ['a streamed 429', { kind: 'stream-error', code: 'widget/rate-limited', message: 'x' }, /too quickly/],
    ['a 500', { kind: 'refuse', status: 500, code: 'internal', message: 'x' }, /could not answer/],
  ];
  it.each(refusals)(
    'marks a message refused with %s in plain words, and Retry sends it again',
    async (_, answer, words) => {
      const id = bot({}, { answers: [answer] });
      renderApp(id);
      await say('Where is my parcel?');
      expect((await screen.findByRole('alert')).textContent).toMatch(words);
      fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
      await within(log()).findByText('You said: Where is my parcel?');
      expect(screen.queryByRole('alert')).toBeNull();
      expect(within(log()).getAllByText('Where is my parcel?')).toHaveLength(1);
      expect(intents()).toHaveLength(2);
    },
  );

  it('keeps a message the server could not be reached for, with a retry action', async () => {
    render(<App apiBase={server.origin} botId={bot()} hostOrigin={null} />);
    await screen.findByRole('textbox', { name: 'Message' });
    const unreachable = vi.spyOn(globalThis, 'fetch').mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await say('Hello?');
    expect((await screen.findByRole('alert')).textContent).toMatch(/connection was lost/);
    unreachable.mockRestore();
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await within(log()).findByText('You said: Hello?');
  });
});

describe('the conversation across page loads', () => {
  it('restores messages and the conversation token the loader kept when the bot keeps them', async () => {
    const id = bot({ behaviour: { sessionStorage: true } });
    const first = renderApp(id);
    await say('Remember me');
    await within(log()).findByText('You said: Remember me');
    await settled();
    first.unmount();
    renderApp(id);
    await screen.findByRole('log');
    expect(within(log()).getByText('Remember me')).toBeTruthy();
    expect(within(log()).getByText('You said: Remember me')).toBeTruthy();
    await say('Again');
    await within(log()).findByText('You said: Again');
    const tokens = intents().map((call) => (call.body as { conversationToken?: string }).conversationToken);
    expect(tokens[0]).toBeUndefined();
    expect(tokens[1]).toMatch(/^conv-/);
    // The frame has no storage of its own on another site: the host page's keeps the conversation.
    expect(sessionStorage.length).toBe(0);
    expect(JSON.parse(hostStorage.get(id) ?? '{}')).toMatchObject({ conversationToken: tokens[1] });
  });

  it('asks the loader for the configuration instead of the server, and names the host page to the server', async () => {
    const id = bot({ identity: { botName: 'Ada' } });
    const { toHost } = renderApp(id);
    await screen.findByRole('heading', { name: 'Ada' });
    expect(toHost()[0]).toEqual({ source: PROTOCOL_SOURCE, type: 'hello' });
    expect(server.calls.filter((call) => call.path.endsWith('/config'))).toEqual([]);
    await say('Hello');
    await settled();
    expect(intents()[0]?.body).toMatchObject({ botId: id, text: 'Hello', hostOrigin: HOST });
  });

  it('opened on its own, fetches the configuration and keeps the conversation in its own sessionStorage', async () => {
    const id = bot({ identity: { botName: 'Ada' } });
    const first = render(<App apiBase={server.origin} botId={id} hostOrigin={null} />);
    await say('Remember me');
    await within(log()).findByText('You said: Remember me');
    await settled();
    first.unmount();
    render(<App apiBase={server.origin} botId={id} hostOrigin={null} />);
    expect(await within(await screen.findByRole('log')).findByText('You said: Remember me')).toBeTruthy();
    expect(intents()[0]?.body).not.toHaveProperty('hostOrigin');
  });

  it('restores a failed message as failed, so it can still be retried', async () => {
    const id = bot(
      {},
      { answers: [{ kind: 'refuse', status: 429, code: 'widget/rate-limited', message: 'x' }] },
    );
    const first = renderApp(id);
    await say('Try later');
    await screen.findByRole('alert');
    first.unmount();
    renderApp(id);
    expect((await screen.findByRole('alert')).textContent).toMatch(/too quickly/);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await within(log()).findByText('You said: Try later');
  });

  it('starts afresh on reload when sessionStorage is off', async () => {
    const id = bot({ behaviour: { sessionStorage: false } });
    const first = renderApp(id);
    await say('Forget me');
    await within(log()).findByText('You said: Forget me');
    first.unmount();
    renderApp(id);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(within(log()).queryByText('Forget me')).toBeNull();
    expect(sessionStorage.length).toBe(0);
    expect(hostStorage.size).toBe(0);
  });
});

describe('feedback', () => {
  it('posts the rating of an answer, then an optional comment (masked) under the disclaimer', async () => {
    const id = bot({
      masking: { enableMasking: true },
      feedback: {
        button1Text: 'Great',
        button2Text: 'Meh',
        button3Text: 'Bad',
        disclaimer: 'No secrets, please.',
      },
    });
    renderApp(id);
    await say('Question');
    await within(log()).findByText('You said: Question');
    const ratings = within(await screen.findByRole('group', { name: 'Rate this answer' }));
    expect(ratings.getAllByRole('button').map((button) => button.textContent)).toEqual([
      'Great',
      'Meh',
      'Bad',
    ]);
    fireEvent.click(ratings.getByRole('button', { name: 'Bad' }));
    await waitFor(() =>
      expect(ratings.getByRole('button', { name: 'Bad' }).getAttribute('aria-pressed')).toBe('true'),
    );
    const feedback = () => server.calls.filter((call) => call.path === '/v1/feedback');
    expect(feedback()[0]?.body).toMatchObject({ botId: id, rating: 'button3' });
    const comment = screen.getByRole('textbox', { name: 'Comment (optional)' });
    expect(comment.getAttribute('aria-describedby')).toBe(screen.getByText('No secrets, please.').id);
    fireEvent.change(comment, { target: { value: 'PIN 4321 did not work' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send comment' }));
    expect(await screen.findByText('Thank you for your feedback.')).toBeTruthy();
    expect(feedback()[1]?.body).toMatchObject({ rating: 'button3', comment: 'PIN **** did not work' });
    // Both were accepted by the server's contract check: the token and the id of a message of that conversation.
    expect(screen.queryByText(/not sent/)).toBeNull();
  });

  it('says so when feedback could not be recorded, leaving the answer unrated', async () => {
    renderApp(bot({}, { feedbackRefusal: 429 }));
    await say('Rate me');
    const ratings = within(await screen.findByRole('group', { name: 'Rate this answer' }));
    fireEvent.click(ratings.getByRole('button', { name: 'Helpful' }));
    expect(await screen.findByText('Your feedback was not sent. Please try again.')).toBeTruthy();
    expect(ratings.getByRole('button', { name: 'Helpful' }).getAttribute('aria-pressed')).toBe('false');
  });

  it('offers no comment box when comments are off, and no buttons when feedback is off', async () => {
    renderApp(bot({ feedback: { enableComment: false } }));
    await say('One');
    await within(log()).findByText('You said: One');
    fireEvent.click(await screen.findByRole('button', { name: 'Helpful' }));
    expect(await screen.findByText('Thank you for your feedback.')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'Comment (optional)' })).toBeNull();
    cleanup();
    renderApp(bot({ behaviour: { enableUserFeedback: false } }));
    await say('Two');
    await within(log()).findByText('You said: Two');
    expect(screen.queryByRole('group', { name: 'Rate this answer' })).toBeNull();
  });
});

describe('menus, agents and language', () => {
  it('opens the popup menu and sends the chosen item', async () => {
    renderApp(
      bot({ welcome: { enablePopupMenu: true, popupMenu: [{ label: 'Prices', text: 'Show prices' }] } }),
    );
    const toggle = await screen.findByRole('button', { name: 'Menu' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(
      within(screen.getByRole('list', { name: 'Menu' })).getByRole('button', { name: 'Prices' }),
    );
    await within(log()).findByText('You said: Show prices');
    expect(screen.queryByRole('list', { name: 'Menu' })).toBeNull();
  });

  it('says honestly that no agent is available and tells the host page about the hand-over', async () => {
    // The bot's live agents were turned off since the widget loaded its configuration.
    const id = bot({ engines: { enableliveagent: true, liveagent: 'inbox' } }, { liveAgents: false });
    const { toHost } = renderApp(id);
    fireEvent.click(await screen.findByRole('button', { name: 'Talk to an agent' }));
    expect(await within(log()).findByText(NO_AGENT_TEXT)).toBeTruthy();
    expect(toHost()).toContainEqual({ source: PROTOCOL_SOURCE, type: 'handover' });
    // A person can only be asked for in a conversation: the button's text starts it.
    expect(intents().map((call) => (call.body as { text: string }).text)).toEqual(['Talk to an agent']);
    const [token] = server.live.tokens(id);
    expect(handovers()).toEqual([{ botId: id, conversationToken: token, language: 'en' }]);
    expect(screen.queryByText(/Waiting for an agent/)).toBeNull();
  });

  it('offers an agent under an answer that offers a hand-over', async () => {
    renderApp(
      bot({}, { answers: [{ kind: 'answer', deltas: [], messages: ['Sorry.'], handoverOffered: true }] }),
    );
    await say('Complicated');
    await within(log()).findByText('Sorry.');
    fireEvent.click(within(log()).getByRole('button', { name: 'Talk to an agent' }));
    expect(await within(log()).findByText(NO_AGENT_TEXT)).toBeTruthy();
    expect(intents()).toHaveLength(1);
    expect(handovers()).toHaveLength(1);
  });

  it('lets the visitor pick the language when the bot translates, and shows the language answered in', async () => {
    const id = bot(
      { language: { autoTranslate: true } },
      {
        services: { translate: true, tts: false },
        answers: [
          { kind: 'answer', deltas: [], messages: ['Bonjour'] },
          { kind: 'answer', deltas: [], messages: ['¡Hola!'], language: 'es' },
        ],
      },
    );
    renderApp(id);
    const picker = await screen.findByRole<HTMLSelectElement>('combobox', { name: 'Language' });
    expect(picker.value).toBe('en');
    fireEvent.change(picker, { target: { value: 'fr' } });
    // The widget's own texts follow the language (translated by the server, which marks them with it).
    const input = await screen.findByRole('textbox', { name: '[fr] Message' });
    fireEvent.change(input, { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: '[fr] Send' }));
    await within(log()).findByText('Bonjour');
    expect((intents()[0]?.body as { language: string }).language).toBe('fr');
    fireEvent.change(input, { target: { value: 'Hola' } });
    fireEvent.click(screen.getByRole('button', { name: '[fr] Send' }));
    await within(log()).findByText('¡Hola!');
    expect(picker.value).toBe('es');
    expect(await screen.findByRole('textbox', { name: '[es] Message' })).toBeTruthy();
  });

  it('shows no language picker without a translation service, but the host can still set the language', async () => {
    const { toHost } = renderApp(bot({ language: { autoTranslate: true } }));
    await screen.findByRole('textbox', { name: 'Message' });
    await hostHeardReady(toHost);
    expect(screen.queryByRole('combobox', { name: 'Language' })).toBeNull();
    fromHost({ source: PROTOCOL_SOURCE, type: 'setLanguage', language: 'de' });
    fromHost({ source: PROTOCOL_SOURCE, type: 'send', text: 'From the host' });
    fromHost({ source: PROTOCOL_SOURCE, type: 'send', text: 'From elsewhere' }, 'https://evil.example');
    await within(log()).findByText('You said: From the host');
    expect(intents().map((call) => call.body)).toEqual([
      expect.objectContaining({ text: 'From the host', language: 'de' }),
    ]);
  });
});

describe('colours', () => {
  it('uses the dark colours when configured dark, and follows the system when auto', async () => {
    const config = {
      appearance: {
        colorScheme: 'dark' as const,
        backgroundColor: '#fafafa',
        backgroundColorDark: '#101010',
      },
    };
    const { container } = renderApp(bot(config));
    await screen.findByRole('log');
    const chat = () => container.querySelector<HTMLElement>('.ob-chat');
    expect(chat()?.style.getPropertyValue('--ob-bg')).toBe('#101010');
    cleanup();
    const matchMedia = vi.fn(() => ({
      matches: true,
      addEventListener: vi.fn(),
      removeEventListener: vi.fn(),
    }));
    vi.stubGlobal('matchMedia', matchMedia);
    const auto = renderApp(bot({ appearance: { ...config.appearance, colorScheme: 'auto' } }));
    await screen.findByRole('log');
    expect(auto.container.querySelector<HTMLElement>('.ob-chat')?.style.getPropertyValue('--ob-bg')).toBe(
      '#101010',
    );
    cleanup();
    matchMedia.mockReturnValue({ matches: false, addEventListener: vi.fn(), removeEventListener: vi.fn() });
    const light = renderApp(bot({ appearance: { ...config.appearance, colorScheme: 'auto' } }));
    await screen.findByRole('log');
    expect(light.container.querySelector<HTMLElement>('.ob-chat')?.style.getPropertyValue('--ob-bg')).toBe(
      '#fafafa',
    );
    vi.unstubAllGlobals();
  });
});

describe('keyboard', () => {
  it('keeps focus inside the window with Tab and Shift+Tab, and Esc asks the host to close it', async () => {
    const { toHost } = renderApp(bot());
    const input = await screen.findByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'draft' } });
    const send = screen.getByRole('button', { name: 'Send' });
    const close = screen.getByRole('button', { name: 'Close' });
    send.focus();
    fireEvent.keyDown(document, { key: 'Tab' });
    expect(document.activeElement).toBe(close);
    fireEvent.keyDown(document, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(send);
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(toHost()).toContainEqual({ source: PROTOCOL_SOURCE, type: 'close' });
  });

  it('focuses the input when the host says the window opened', async () => {
    const { toHost } = renderApp(bot());
    const input = await screen.findByRole('textbox', { name: 'Message' });
    await hostHeardReady(toHost);
    fromHost({ source: PROTOCOL_SOURCE, type: 'opened' });
    expect(document.activeElement).toBe(input);
  });
});

it('says so when the bot cannot be loaded', async () => {
  // Embedded, the loader draws nothing for such a bot; opened on its own, the window says so.
  render(<App apiBase={server.origin} botId={crypto.randomUUID()} hostOrigin={null} />);
  expect((await screen.findByRole('alert')).textContent).toContain('not available');
});
