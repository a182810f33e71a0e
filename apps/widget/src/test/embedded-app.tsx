import { PROTOCOL_SOURCE, WidgetConfigSchema, publicWidgetConfig } from '@omnibot/contracts';
import { act, render } from '@testing-library/react';
import { vi } from 'vitest';
import { App } from '../app/App';
import type { WidgetServer } from './widget-server';

/** The host page the embedded chat believes it is on. */
export const HOST = 'https://shop.example';

/** A message from the host page (or from `origin`) as the chat window receives it. */
export function fromHost(data: unknown, origin = HOST) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source: window }));
  });
}

/**
 * Renders the chat as embedded by the loader, which this stands in for: it answers `hello` with the bot's
 * configuration (as the server wrote it into the loader) and the conversation it keeps in `hostStorage`, and keeps
 * what the frame stores there.
 */
export function renderEmbedded(server: WidgetServer, botId: string, hostStorage: Map<string, string>) {
  const posted = vi.spyOn(window, 'postMessage').mockImplementation((message: unknown, target: unknown) => {
    const { type, chat } = message as { type?: string; chat?: string };
    if (target !== HOST) return;
    if (type === 'store' && chat !== undefined) hostStorage.set(botId, chat);
    const testBot = server.bots[botId];
    if (type === 'hello' && testBot !== undefined) {
      const config = publicWidgetConfig(
        WidgetConfigSchema.parse(testBot.config),
        testBot.services,
        testBot.inHours ?? true,
      );
      queueMicrotask(() =>
        fromHost({ source: PROTOCOL_SOURCE, type: 'init', config, chat: hostStorage.get(botId) ?? null }),
      );
    }
  });
  const view = render(<App apiBase={server.origin} botId={botId} hostOrigin={HOST} />);
  const toHost = () =>
    posted.mock.calls.filter((call) => (call[1] as unknown) === HOST).map(([message]) => message as unknown);
  return { ...view, toHost };
}
