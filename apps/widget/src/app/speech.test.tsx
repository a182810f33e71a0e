import type { WidgetConfigInput } from '@omnibot/contracts';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startWidgetServer, type TestBot, type WidgetServer } from '../test/widget-server';
import { App } from './App';
import { spokenText } from './speech';

// jsdom has no speech, audio output or WebAudio: these stand in for the browser's own objects, recording what the
// chat asked of them. The answers still come from the local widget server.
type SpeechWindow = Window & Record<string, unknown>;
const speechWindow = window as unknown as SpeechWindow;

class FakeUtterance {
  lang = '';
  constructor(readonly text: string) {}
}

class FakeRecognition {
  static last: FakeRecognition | null = null;
  lang = '';
  interimResults = true;
  continuous = true;
  started = false;
  onresult: ((event: { results: { transcript: string }[][] }) => void) | null = null;
  onend: (() => void) | null = null;
  onerror: (() => void) | null = null;
  constructor() {
    FakeRecognition.last = this;
  }
  start() {
    this.started = true;
  }
  stop() {
    this.onend?.();
  }
}

let server: WidgetServer;
const spoken: FakeUtterance[] = [];
const played: string[] = [];
const oscillators: string[] = [];

beforeAll(async () => {
  server = await startWidgetServer({});
});
afterAll(() => server.close());

function install() {
  spoken.length = 0;
  played.length = 0;
  oscillators.length = 0;
  speechWindow.SpeechSynthesisUtterance = FakeUtterance;
  Object.defineProperty(window, 'speechSynthesis', {
    configurable: true,
    value: { speak: (utterance: FakeUtterance) => spoken.push(utterance), cancel: () => undefined },
  });
  vi.spyOn(HTMLMediaElement.prototype, 'play').mockImplementation(function (this: HTMLMediaElement) {
    played.push(this.src);
    return Promise.resolve();
  });
  vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined);
  if (typeof URL.createObjectURL !== 'function') URL.createObjectURL = () => 'blob:speech';
}

afterEach(() => {
  cleanup();
  sessionStorage.clear();
  delete speechWindow.SpeechSynthesisUtterance;
  delete speechWindow.webkitSpeechRecognition;
  delete speechWindow.AudioContext;
  Reflect.deleteProperty(window, 'speechSynthesis');
});

function bot(config: WidgetConfigInput, extra: Omit<TestBot, 'config'> = {}): string {
  const id = crypto.randomUUID();
  server.bots[id] = { config, ...extra };
  return id;
}

async function askAndWait(question: string) {
  const input = await screen.findByRole('textbox', { name: 'Message' });
  fireEvent.change(input, { target: { value: question } });
  fireEvent.click(screen.getByRole('button', { name: 'Send' }));
  await within(screen.getByRole('log')).findByRole('group', { name: 'Rate this answer' });
}

describe('voice input', () => {
  it('says speech recognition is not available where the browser has none', async () => {
    render(
      <App
        apiBase={server.origin}
        botId={bot({ behaviour: { microphone_enabled: true } })}
        hostOrigin={null}
      />,
    );
    const mic = await screen.findByRole('button', { name: 'Speech recognition is not available' });
    expect(mic.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(mic);
    expect(screen.getByText('Speech recognition is not available', { selector: 'p' })).toBeTruthy();
  });

  it('puts what the visitor said into the input, listening in the chat language', async () => {
    speechWindow.webkitSpeechRecognition = FakeRecognition;
    const id = bot({
      behaviour: { microphone_enabled: true },
      language: { default_language: 'fr' },
      titles: { microphoneTitle: 'Dictate' },
    });
    render(<App apiBase={server.origin} botId={id} hostOrigin={null} />);
    const mic = await screen.findByRole('button', { name: 'Dictate' });
    expect(mic.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(mic);
    const recognition = FakeRecognition.last;
    expect(recognition?.started).toBe(true);
    expect(recognition?.lang).toBe('fr');
    expect(mic.getAttribute('aria-pressed')).toBe('true');
    recognition?.onresult?.({ results: [[{ transcript: 'où est ma commande' }]] });
    fireEvent.click(mic);
    await waitFor(() => expect(mic.getAttribute('aria-pressed')).toBe('false'));
    expect(screen.getByRole<HTMLInputElement>('textbox', { name: 'Message' }).value).toBe(
      'où est ma commande',
    );
  });

  it('offers no microphone when it is off', async () => {
    render(<App apiBase={server.origin} botId={bot({})} hostOrigin={null} />);
    await screen.findByRole('textbox', { name: 'Message' });
    expect(screen.queryByRole('button', { name: 'Voice Input' })).toBeNull();
  });
});

describe('the speaker', () => {
  it('is muted by default, and once unmuted reads answers with the native voice', async () => {
    install();
    const id = bot({ behaviour: { speaker_enabled: true, voice: 'native' } });
    render(<App apiBase={server.origin} botId={id} hostOrigin={null} />);
    const toggle = await screen.findByRole('button', { name: 'Unmute' });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    await askAndWait('first');
    expect(spoken).toHaveLength(0);
    fireEvent.click(toggle);
    expect(screen.getByRole('button', { name: 'Mute' }).getAttribute('aria-pressed')).toBe('false');
    await askAndWait('**second** [link](https://x.example)');
    await waitFor(() => expect(spoken).toHaveLength(1));
    expect(spoken[0]?.text).toBe('You said: second link');
    expect(spoken[0]?.lang).toBe('en');
  });

  it('plays the server voice from /v1/tts when the bot has one', async () => {
    install();
    const id = bot(
      { behaviour: { speaker_enabled: true, muted: false, voice: 'server' } },
      {
        services: { translate: false, tts: true },
        ttsStatus: 200,
      },
    );
    render(<App apiBase={server.origin} botId={id} hostOrigin={null} />);
    await askAndWait('read this');
    await waitFor(() => expect(played).toHaveLength(1));
    expect(spoken).toHaveLength(0);
    const tts = server.calls.find((call) => call.path === '/v1/tts');
    expect(tts?.body).toMatchObject({ botId: id, text: 'You said: read this', language: 'en' });
  });

  it('falls back to the native voice when /v1/tts answers 501', async () => {
    install();
    const id = bot(
      { behaviour: { speaker_enabled: true, muted: false, voice: 'server' } },
      {
        services: { translate: false, tts: true },
        ttsStatus: 501,
      },
    );
    render(<App apiBase={server.origin} botId={id} hostOrigin={null} />);
    await askAndWait('read this');
    await waitFor(() => expect(spoken).toHaveLength(1));
    expect(played).toHaveLength(0);
  });
});

describe('the receive tone', () => {
  it('plays the configured sound for each answer', async () => {
    install();
    const id = bot({ behaviour: { msgRecvTone_enabled: true, msgRecvTone: 'https://cdn.example/ding.mp3' } });
    render(<App apiBase={server.origin} botId={id} hostOrigin={null} />);
    await askAndWait('ping');
    expect(played).toEqual(['https://cdn.example/ding.mp3']);
  });

  it('makes a short WebAudio beep without a sound file, and nothing when off', async () => {
    install();
    speechWindow.AudioContext = class {
      currentTime = 0;
      destination = {};
      createGain() {
        return {
          gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: () => undefined },
          connect: (node: unknown) => node,
        };
      }
      createOscillator() {
        const oscillator = {
          type: '',
          frequency: { value: 0 },
          connect: (node: unknown) => node,
          start: () => oscillators.push(`${oscillator.type}:${String(oscillator.frequency.value)}`),
          stop: () => undefined,
        };
        return oscillator;
      }
    };
    render(
      <App
        apiBase={server.origin}
        botId={bot({ behaviour: { msgRecvTone_enabled: true } })}
        hostOrigin={null}
      />,
    );
    await askAndWait('ping');
    expect(oscillators).toEqual(['sine:880']);
    cleanup();
    render(<App apiBase={server.origin} botId={bot({})} hostOrigin={null} />);
    await askAndWait('ping');
    expect(oscillators).toHaveLength(1);
    expect(played).toHaveLength(0);
  });
});

it('reads Markdown as words: no link targets, code or emphasis marks', () => {
  expect(
    spokenText('**Hi** _there_, see [docs](https://d.example) or https://x.example\n```\ncode\n```'),
  ).toBe('Hi there, see docs or');
});
