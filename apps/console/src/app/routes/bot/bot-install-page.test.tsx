import { AGENT_READ_ONLY_MESSAGE, type Bot, type BotOriginList } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyPatch, BOT_ID, botListOf, botSession, makeBot, sentBodies } from '../../../test/bot-fixture';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { Component as InstallPage } from './bot-install-page';

const PATH = `/v1/bots/${BOT_ID}`;
const RECENT: BotOriginList = {
  items: [
    {
      origin: 'https://shop.example.com',
      first_seen: '2026-01-01T08:00:00.000Z',
      last_seen: '2026-01-03T09:30:00.000Z',
      hits: 42,
    },
  ],
};

function stubBot(bot: Bot = makeBot(), origins: BotOriginList = RECENT) {
  let current = bot;
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path === '/v1/bots' && method === 'GET') return botListOf([current]);
      if (path === PATH && method === 'GET') return json(200, current);
      if (path === `${PATH}/origins` && method === 'GET') return json(200, origins);
      if (path === PATH && method === 'PATCH') {
        current = applyPatch(current, body as Parameters<typeof applyPatch>[1]);
        return json(200, current);
      }
      return undefined;
    },
  });
}

describe('/bot/install', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the snippet to copy, the demo link and the recent origins', async () => {
    stubBot();
    const user = userEvent.setup();
    renderRoute(<InstallPage />, { path: `/bot/install?bot_id=${BOT_ID}`, session: botSession() });
    const snippet = await screen.findByLabelText('Install snippet');
    const expected = `<script src="${window.location.origin}/widget.js?bot=${BOT_ID}" data-bot="${BOT_ID}" async></script>`;
    expect(snippet).toHaveTextContent(expected);
    await user.click(screen.getByRole('button', { name: 'Copy snippet' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeInTheDocument();
    await expect(navigator.clipboard.readText()).resolves.toBe(expected);
    expect(screen.getByRole('link', { name: /demo page/i })).toHaveAttribute('href', `/demo?bot=${BOT_ID}`);

    const table = await screen.findByRole('table', { name: 'Recent origins' });
    expect(within(table).getByText('https://shop.example.com')).toBeInTheDocument();
    expect(within(table).getByText('42')).toBeInTheDocument();
  });

  it('refuses a bad or repeated origin and saves the allowed list', async () => {
    const { fetchMock } = stubBot(makeBot());
    const user = userEvent.setup();
    renderRoute(<InstallPage />, { path: `/bot/install?bot_id=${BOT_ID}`, session: botSession() });
    const input = await screen.findByRole('textbox', { name: 'Origin to allow' });
    await fill(user, input, 'https://www.example.com/shop');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(
      screen.getByText(/An allowed origin is a scheme, host and optional port only/),
    ).toBeInTheDocument();

    await user.clear(input);
    await fill(user, input, 'https://www.example.com');
    await user.keyboard('{Enter}');
    expect(
      within(screen.getByRole('list', { name: 'Allowed origins' })).getByText('https://www.example.com'),
    ).toBeInTheDocument();
    expect(input).toHaveValue('');
    await fill(user, input, 'https://www.example.com');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(screen.getByText('This origin is already listed.')).toBeInTheDocument();

    // A site seen loading the bot can be allowed from the recent list.
    const table = await screen.findByRole('table', { name: 'Recent origins' });
    await user.click(within(table).getByRole('button', { name: 'Allow' }));

    await user.click(screen.getByRole('button', { name: 'Save origins' }));
    expect(await screen.findByText('The allowed origins were saved.')).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'PATCH')[0]).toEqual({
      config: { install: { allowedOrigins: ['https://www.example.com', 'https://shop.example.com'] } },
    });
    await waitFor(() => expect(within(table).getByText('Allowed')).toBeInTheDocument());
  });

  it('says when no site has loaded the bot yet, and when the bot is disabled', async () => {
    stubBot(makeBot({ enabled: false }), { items: [] });
    renderRoute(<InstallPage />, { path: `/bot/install?bot_id=${BOT_ID}`, session: botSession() });
    expect(await screen.findByRole('heading', { name: 'Not loaded anywhere yet' })).toBeInTheDocument();
    expect(screen.getByText('This bot is disabled')).toBeInTheDocument();
    expect(screen.getByText('No other site is allowed yet.')).toBeInTheDocument();
  });

  it('leads to creating a bot when there is none', async () => {
    stubAuthApi({
      signedIn: true,
      handle: (method, path) => (path === '/v1/bots' && method === 'GET' ? botListOf([]) : undefined),
    });
    renderRoute(<InstallPage />, { path: '/bot/install', session: botSession() });
    expect(await screen.findByRole('heading', { name: 'No bots yet' })).toBeInTheDocument();
    expect(screen.getByText(/copy its snippet into your website/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create bot' })).toBeInTheDocument();
  });

  it('shows an agent the snippet and the allowed origins, but nothing to add, remove, allow or save', async () => {
    const base = makeBot();
    stubBot(
      makeBot({
        config: {
          ...base.config,
          install: { ...base.config.install, allowedOrigins: ['https://www.example.com'] },
        },
      }),
    );
    renderRoute(<InstallPage />, {
      path: `/bot/install?bot_id=${BOT_ID}`,
      session: botSession(['omnirag'], 'agent'),
    });
    expect(await screen.findByLabelText('Install snippet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy snippet' })).toBeEnabled();
    const allowed = screen.getByRole('list', { name: 'Allowed origins' });
    expect(within(allowed).getByText('https://www.example.com')).toBeInTheDocument();
    expect(screen.getByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Recent origins' });
    expect(within(table).getByText('https://shop.example.com')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^remove|^add$|^allow$|save origins/i })).toBeNull();
    expect(screen.queryByRole('textbox', { name: 'Origin to allow' })).toBeNull();
  });

  it('tells an agent there is no bot without offering to create one', async () => {
    stubAuthApi({
      signedIn: true,
      handle: (method, path) => (path === '/v1/bots' && method === 'GET' ? botListOf([]) : undefined),
    });
    renderRoute(<InstallPage />, { path: '/bot/install', session: botSession(['omnirag'], 'agent') });
    expect(await screen.findByRole('heading', { name: 'No bots yet' })).toBeInTheDocument();
    expect(screen.getByText(/a user or an administrator creates them/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create bot' })).toBeNull();
  });
});
