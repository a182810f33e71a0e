import {
  PROTOCOL_SOURCE,
  WidgetConfigSchema,
  publicWidgetConfig,
  type WidgetConfigInput,
} from '@omnibot/contracts';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { PREVIEW_NOTE } from './use-answer-stream';

afterEach(cleanup);

const previewOf = (input: WidgetConfigInput, colorScheme: 'light' | 'dark' = 'light') => ({
  source: PROTOCOL_SOURCE,
  type: 'previewConfig',
  config: publicWidgetConfig(WidgetConfigSchema.parse(input)),
  colorScheme,
});

function post(
  data: unknown,
  origin = window.location.origin,
  source: MessageEventSource | null = window.parent,
) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

function renderPreview() {
  const posted = vi.spyOn(window, 'postMessage');
  const fetched = vi.spyOn(globalThis, 'fetch');
  const view = render(<App apiBase="http://127.0.0.1:9" botId="" hostOrigin={null} preview />);
  return { ...view, posted, fetched };
}

describe('the console live preview', () => {
  it('tells the console it is ready, on our own origin only, and waits for a configuration', () => {
    const { posted, container } = renderPreview();
    expect(posted).toHaveBeenCalledWith({ source: PROTOCOL_SOURCE, type: 'ready' }, window.location.origin);
    expect(container.querySelector('[aria-busy="true"]')).not.toBeNull();
  });

  it('takes a configuration only from its same-origin parent, and only a well-formed one', () => {
    renderPreview();
    const message = previewOf({ identity: { botName: 'Previewed' } });
    post(message, 'https://evil.example');
    const other = document.createElement('iframe');
    document.body.append(other);
    post(message, window.location.origin, other.contentWindow);
    post({ ...message, colorScheme: 'sepia' });
    post({ ...message, config: { ...message.config, titles: undefined } });
    post({ ...message, extra: true });
    expect(screen.queryByRole('heading')).toBeNull();
    post(message);
    expect(screen.getByRole('heading', { name: 'Previewed' })).toBeTruthy();
    other.remove();
  });

  it('renders each configuration at once, forced light or dark, with no close button', () => {
    const { container } = renderPreview();
    const appearance = { backgroundColor: '#fefefe', backgroundColorDark: '#0a0a0a' };
    post(previewOf({ identity: { botName: 'One' }, appearance }, 'dark'));
    const chat = () => container.querySelector<HTMLElement>('.ob-chat');
    expect(chat()?.style.getPropertyValue('--ob-bg')).toBe('#0a0a0a');
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    post(previewOf({ identity: { botName: 'Two' }, appearance }, 'light'));
    expect(screen.getByRole('heading', { name: 'Two' })).toBeTruthy();
    expect(chat()?.style.getPropertyValue('--ob-bg')).toBe('#fefefe');
  });

  it('answers locally with the welcome text, or a preview note, and calls no API without a bot id', () => {
    const { fetched } = renderPreview();
    post(previewOf({ welcome: { welcomeText: 'Welcome to **Acme**', welcomeText_enabled: true } }));
    const input = screen.getByRole('textbox', { name: 'Message' });
    fireEvent.change(input, { target: { value: 'Hello' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send' }));
    return vi.waitFor(() => {
      const log = within(screen.getByRole('log'));
      expect(log.getByText('Hello')).toBeTruthy();
      expect(log.getByText('Acme').tagName).toBe('STRONG');
      expect(fetched).not.toHaveBeenCalled();
    });
  });

  it('says it is a preview when there is no welcome text to answer with', async () => {
    renderPreview();
    post(previewOf({ welcome: { welcomeText_enabled: false } }));
    fireEvent.click(screen.getByRole('button', { name: 'What can you do?' }));
    expect(await within(screen.getByRole('log')).findByText(PREVIEW_NOTE)).toBeTruthy();
    expect(sessionStorage.length).toBe(0);
  });

  it('restarts with a new default language or muted setting', () => {
    renderPreview();
    post(previewOf({ language: { default_language: 'en' } }));
    expect(screen.getByRole('log').closest('[lang]')?.getAttribute('lang')).toBe('en');
    post(previewOf({ language: { default_language: 'de' } }));
    expect(screen.getByRole('log').closest('[lang]')?.getAttribute('lang')).toBe('de');
  });
});
