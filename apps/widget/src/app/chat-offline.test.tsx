import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderEmbedded } from '../test/embedded-app';
import { startWidgetServer, type WidgetServer } from '../test/widget-server';

/* Out of business hours the widget says the bot's offline text instead of offering a person. */

const OFFLINE = 'Our team is back on Monday at 9:00.';
let server: WidgetServer;
const hostStorage = new Map<string, string>();

beforeAll(async () => {
  server = await startWidgetServer({});
});
afterAll(() => server.close());
afterEach(() => {
  cleanup();
  hostStorage.clear();
  server.calls.length = 0;
});

function bot(inHours: boolean): string {
  const id = crypto.randomUUID();
  server.bots[id] = {
    config: {
      identity: { botName: 'Ada' },
      engines: { enableliveagent: true, liveagent: 'inbox', offlineText: OFFLINE },
      behaviour: { enableUserFeedback: false },
    },
    inHours,
  };
  return id;
}

const callsTo = (path: string) => server.calls.filter((call) => call.path === path);

describe('out of business hours', () => {
  it('shows the offline text and offers no person', async () => {
    renderEmbedded(server, bot(false), hostStorage);
    const offline = await screen.findByText(OFFLINE);
    expect(offline.getAttribute('role')).toBe('status');
    expect(screen.queryByRole('button', { name: 'Talk to an agent' })).toBeNull();
  });

  it('offers a person in hours, and no offline text', async () => {
    renderEmbedded(server, bot(true), hostStorage);
    await screen.findByRole('button', { name: 'Talk to an agent' });
    expect(screen.queryByText(OFFLINE)).toBeNull();
  });

  it('says the offline text when the hours closed after the widget loaded, and queues nothing', async () => {
    const id = bot(true);
    renderEmbedded(server, id, hostStorage);
    const button = await screen.findByRole('button', { name: 'Talk to an agent' });
    const entry = server.bots[id];
    if (entry) entry.inHours = false;
    fireEvent.click(button);
    await waitFor(() => expect(callsTo('/v1/handover')).toHaveLength(1));
    expect(await screen.findByText(OFFLINE)).toBeTruthy();
    expect(screen.queryByText(/Waiting for an agent/)).toBeNull();
  });
});
