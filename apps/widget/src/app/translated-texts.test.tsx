import { PROTOCOL_SOURCE, type WidgetConfigInput } from '@omnibot/contracts';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fromHost, renderEmbedded } from '../test/embedded-app';
import { startWidgetServer, type TestBot, type WidgetServer } from '../test/widget-server';
import { readWidgetTexts } from './translated-texts';

/** What the loader keeps in the host page's storage, per bot. */
const hostStorage = new Map<string, string>();
let server: WidgetServer;

beforeAll(async () => {
  server = await startWidgetServer({});
});
afterAll(() => server.close());
afterEach(() => {
  cleanup();
  sessionStorage.clear();
  hostStorage.clear();
  server.calls.length = 0;
});

const CONFIG: WidgetConfigInput = {
  language: { autoTranslate: true },
  welcome: {
    welcomeText: 'Welcome to the shop.',
    welcomeText_enabled: true,
    welcomeMenu: [{ label: 'Opening hours', text: 'When are you open?' }],
    start_suggestions: ['Track my parcel'],
  },
};

function bot(config: WidgetConfigInput, extra: Omit<TestBot, 'config'> = {}): string {
  const id = crypto.randomUUID();
  server.bots[id] = { config, ...extra };
  return id;
}

const textCalls = () => server.calls.filter((call) => call.path.includes('/texts?'));

describe("the widget's own texts in the visitor's language", () => {
  it('are translated when the visitor picks a language, and back in the bot language', async () => {
    const id = bot(CONFIG, { services: { translate: true, tts: false } });
    renderEmbedded(server, id, hostStorage);
    expect(await screen.findByText('Welcome to the shop.')).toBeTruthy();
    expect(textCalls()).toHaveLength(0);

    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'de' } });
    expect(await screen.findByText('[de] Welcome to the shop.')).toBeTruthy();
    expect(screen.getByRole('button', { name: '[de] Send' })).toBeTruthy();
    expect(screen.getByRole('textbox', { name: '[de] Message' })).toBeTruthy();
    expect(within(screen.getByRole('list', { name: 'Suggestions' })).getByRole('button').textContent).toBe(
      '[de] Track my parcel',
    );
    expect(within(screen.getByRole('list', { name: 'Welcome menu' })).getByRole('button').textContent).toBe(
      '[de] Opening hours',
    );
    expect(textCalls().map((call) => call.path)).toEqual([`/v1/widget/${id}/texts?language=de`]);

    // A menu item still sends the text the bot was configured with.
    fireEvent.click(within(screen.getByRole('list', { name: 'Welcome menu' })).getByRole('button'));
    expect(await within(screen.getByRole('log')).findByText('You said: When are you open?')).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: 'Language' }), { target: { value: 'en' } });
    expect(await screen.findByText('Welcome to the shop.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send' })).toBeTruthy();
  });

  it('follow the language the host page sets and the language an answer comes back in', async () => {
    const id = bot(CONFIG, {
      services: { translate: true, tts: false },
      answers: [{ kind: 'answer', deltas: ['Bonjour !'], messages: ['Bonjour !'], language: 'fr' }],
    });
    renderEmbedded(server, id, hostStorage);
    await screen.findByText('Welcome to the shop.');
    fromHost({ source: PROTOCOL_SOURCE, type: 'setLanguage', language: 'es' });
    expect(await screen.findByText('[es] Welcome to the shop.')).toBeTruthy();

    const input = screen.getByRole('textbox', { name: '[es] Message' });
    fireEvent.change(input, { target: { value: 'bonjour' } });
    fireEvent.click(screen.getByRole('button', { name: '[es] Send' }));
    expect(await screen.findByText('[fr] Welcome to the shop.')).toBeTruthy();
  });

  it('stay as configured without automatic translation or a translator, asking the server nothing', async () => {
    const off = bot(
      { ...CONFIG, language: { autoTranslate: false } },
      { services: { translate: true, tts: false } },
    );
    renderEmbedded(server, off, hostStorage);
    await screen.findByText('Welcome to the shop.');
    fromHost({ source: PROTOCOL_SOURCE, type: 'setLanguage', language: 'de' });
    cleanup();
    const none = bot(CONFIG, { services: { translate: false, tts: false } });
    renderEmbedded(server, none, hostStorage);
    await screen.findByText('Welcome to the shop.');
    fromHost({ source: PROTOCOL_SOURCE, type: 'setLanguage', language: 'de' });
    await waitFor(() => expect(document.documentElement.querySelector('[lang="de"]')).not.toBeNull());
    expect(screen.getByText('Welcome to the shop.')).toBeTruthy();
    expect(textCalls()).toHaveLength(0);
  });
});

describe('readWidgetTexts', () => {
  it('reads a translated answer field by field and refuses an untranslated one', () => {
    expect(readWidgetTexts({ translated: false, texts: {} })).toBeNull();
    expect(readWidgetTexts('nonsense')).toBeNull();
    const texts = readWidgetTexts({
      translated: true,
      texts: { welcomeText: 'Hallo', welcomeMenu: ['Öffnungszeiten', 7], titles: { sendTitle: 'Senden' } },
    });
    expect(texts).toMatchObject({
      welcomeText: 'Hallo',
      welcomeMenu: ['Öffnungszeiten', ''],
      description: '',
      titles: { sendTitle: 'Senden', inputTitle: '' },
      feedback: { disclaimer: '' },
    });
  });
});
