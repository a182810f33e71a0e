import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BOT, BOT_ID, OTHER_BOT, statsOf, SUMMARY } from '../../../test/bot-dashboard-fixture';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { listOf } from '../../../test/rag-fixture';
import { TestProviders } from '../../../test/test-providers';
import { routes } from '../../router';

// The first render loads the lazy root, shell and page chunks.
describe('/bot/dashboard', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is a route of the shell that keeps the period in the address', async () => {
    const { fetchMock } = stubAuthApi({
      signedIn: true,
      handle: (method, path) => {
        if (method !== 'GET') return undefined;
        if (path === '/v1/bots') return listOf([BOT, OTHER_BOT]);
        if (path.endsWith('/stats')) return json(200, statsOf(true));
        if (path.endsWith('/conversations')) return listOf([SUMMARY]);
        return undefined;
      },
    });
    const router = createMemoryRouter(routes, { initialEntries: ['/bot/dashboard?days=7'] });
    render(<RouterProvider router={router} />, { wrapper: TestProviders });
    expect(await screen.findByRole('heading', { name: 'Bot dashboard', level: 1 })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /^Conversations: 4 in 7 days/ })).toBeInTheDocument();
    const urls = () =>
      fetchMock.mock.calls.map(([input]) =>
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      );
    expect(urls()).toContain(`/v1/bots/${BOT_ID}/stats?days=7`);
    await userEvent.click(screen.getByText('90 days'));
    await waitFor(() => expect(router.state.location.search).toBe('?days=90'));
    await waitFor(() => expect(urls()).toContain(`/v1/bots/${BOT_ID}/stats?days=90`));
  });
});
