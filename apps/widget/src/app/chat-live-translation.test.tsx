import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderEmbedded } from '../test/embedded-app';
import { startWidgetServer, type WidgetServer } from '../test/widget-server';

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

function liveBot(): string {
  const id = crypto.randomUUID();
  server.bots[id] = {
    config: {
      identity: { botName: 'Ada' },
      engines: { enableliveagent: true, liveagent: 'inbox' },
      behaviour: { enableUserFeedback: false },
    },
  };
  return id;
}

const renderApp = (botId: string) => renderEmbedded(server, botId, hostStorage);
const log = () => screen.getByRole('log');
const tokenOf = (botId: string) => server.live.tokens(botId)[0] ?? '';

async function handOver(botId: string) {
  fireEvent.click(await screen.findByRole('button', { name: 'Talk to an agent' }));
  await screen.findByText('Waiting for an agent… You are number 1 in the queue.');
  await waitFor(() => expect(server.live.listeners(tokenOf(botId))).toBe(1));
}

describe("a person's message translated for the visitor", () => {
  it('shows the translation, says it was translated, and shows the original on request, also after a reload', async () => {
    const id = liveBot();
    const first = renderApp(id);
    await handOver(id);
    const token = tokenOf(id);
    server.live.join(token, 'Anna');
    server.live.say(token, 'Anna', 'thank you', {
      language: 'en',
      translation: { text: 'merci', language: 'fr' },
    });
    const shown = await within(log()).findByText('merci');
    const bubble = shown.closest('.ob-agent');
    if (!(bubble instanceof HTMLElement)) throw new Error('no agent bubble');
    expect(within(bubble).getByText(/Translated from English/)).toBeTruthy();
    expect(within(bubble).queryByText('thank you')).toBeNull();

    fireEvent.click(within(bubble).getByRole('button', { name: 'Show original' }));
    expect(within(bubble).getByText('thank you').getAttribute('lang')).toBe('en');
    expect(within(bubble).queryByText('merci')).toBeNull();
    fireEvent.click(within(bubble).getByRole('button', { name: 'Show translation' }));
    expect(within(bubble).getByText('merci')).toBeTruthy();

    // A message sent untranslated (no translation) is shown as written, with nothing said about translation.
    server.live.say(token, 'Anna', 'One moment, please.');
    const plain = await within(log()).findByText('One moment, please.');
    expect(plain.closest('.ob-agent')?.querySelector('.ob-translated')).toBeNull();

    first.unmount();
    await waitFor(() => expect(server.live.listeners(token)).toBe(0));
    renderApp(id);
    const again = await within(await screen.findByRole('log')).findByText('merci');
    const kept = again.closest('.ob-agent');
    if (!(kept instanceof HTMLElement)) throw new Error('no agent bubble after the reload');
    fireEvent.click(within(kept).getByRole('button', { name: 'Show original' }));
    expect(within(kept).getByText('thank you')).toBeTruthy();
  });
});
