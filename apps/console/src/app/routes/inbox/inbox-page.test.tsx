import { render, screen, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubAuthApi } from '../../../test/fake-auth-api';
import {
  inboxHandler,
  makeConversation,
  QUEUED_ID,
  stubEventSource,
  transcriptOf,
} from '../../../test/inbox-fixture';
import { TestProviders } from '../../../test/test-providers';
import { routes } from '../../router';

function renderConsoleAt(path: string, { liveAgents }: { liveAgents: boolean }) {
  const api = stubAuthApi({
    signedIn: true,
    role: 'agent',
    handle: inboxHandler({
      liveAgents,
      list: () => [makeConversation()],
      transcripts: () => ({ [QUEUED_ID]: transcriptOf(makeConversation()) }),
    }),
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />, { wrapper: TestProviders });
  return api;
}

const menu = () => screen.getByRole('navigation', { name: 'Main menu' });

describe('/inbox', () => {
  beforeEach(() => stubEventSource());
  afterEach(() => vi.unstubAllGlobals());

  it('is in the menu of an agent whose organisation has live agents, and lists the waiting visitors', async () => {
    const api = renderConsoleAt('/inbox', { liveAgents: true });
    expect(await screen.findByRole('heading', { level: 1, name: 'Inbox' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: /Help bot.*Waiting/ })).toBeInTheDocument();
    expect(within(menu()).getByRole('link', { name: 'Inbox' })).toHaveAttribute('aria-current', 'page');
    expect(api.calls().filter((call) => call === 'GET /v1/inbox/summary')).toHaveLength(1);
  });

  it('is neither in the menu nor open while no bot hands over to the inbox', async () => {
    renderConsoleAt('/inbox', { liveAgents: false });
    expect(
      await screen.findByRole('heading', { name: 'You do not have access to this page' }),
    ).toBeInTheDocument();
    expect(within(menu()).queryByRole('link', { name: 'Inbox' })).not.toBeInTheDocument();
  });

  it('is not asked about on the sign-in page', async () => {
    const api = stubAuthApi({ handle: inboxHandler({ list: () => [], transcripts: () => ({}) }) });
    const router = createMemoryRouter(routes, { initialEntries: ['/login'] });
    render(<RouterProvider router={router} />, { wrapper: TestProviders });
    expect(await screen.findByRole('heading', { name: 'Sign in' })).toBeInTheDocument();
    expect(api.calls()).not.toContain('GET /v1/inbox/summary');
  });
});
