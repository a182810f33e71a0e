import type { Bot } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  applyPatch,
  BOT_ID,
  botListOf,
  botSession,
  makeBot,
  OTHER_BOT_ID,
  requestedUrls,
  sentBodies,
} from '../../../test/bot-fixture';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { Component as ManagePage } from './bot-manage-page';

const COPY_ID = '5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b';

function stubBots(initial: Bot[], total?: number) {
  let bots = initial;
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path === '/v1/bots' && method === 'GET')
        return botListOf(bots, { total: total ?? bots.length, page_size: 20 });
      if (path === '/v1/bots' && method === 'POST') {
        const created = makeBot({ id: COPY_ID, name: (body as { name: string }).name });
        bots = [...bots, created];
        return json(201, created);
      }
      const match = /^\/v1\/bots\/([^/]+)(\/duplicate)?$/.exec(path);
      const bot = bots.find((item) => item.id === match?.[1]);
      if (!match || !bot) return undefined;
      if (match[2] && method === 'POST') {
        const { name } = body as { name: string };
        if (bots.some((item) => item.name === name))
          return json(409, {
            code: 'bot/name-taken',
            message: 'Another bot of your organisation already has this name.',
          });
        const copy = { ...bot, id: COPY_ID, name, enabled: false };
        bots = [...bots, copy];
        return json(201, copy);
      }
      if (method === 'PATCH') {
        const updated = applyPatch(bot, body as Parameters<typeof applyPatch>[1]);
        bots = bots.map((item) => (item.id === bot.id ? updated : item));
        return json(200, updated);
      }
      if (method === 'DELETE') {
        bots = bots.filter((item) => item.id !== bot.id);
        return new Response(null, { status: 204 });
      }
      return undefined;
    },
  });
}

const TWO = () => [makeBot(), makeBot({ id: OTHER_BOT_ID, name: 'Sales bot', enabled: false })];

describe('/bot/manage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the bots with links to their screens and switches one on', async () => {
    const { calls, bodyOf } = stubBots(TWO());
    const user = userEvent.setup();
    renderRoute(<ManagePage />, { path: '/bot/manage', session: botSession() });
    const help = await screen.findByRole('listitem', { name: 'Help bot' });
    expect(within(help).getByRole('link', { name: 'Help bot' })).toHaveAttribute(
      'href',
      `/bot/customize?bot_id=${BOT_ID}`,
    );
    expect(within(help).getByRole('link', { name: /install/i })).toHaveAttribute(
      'href',
      `/bot/install?bot_id=${BOT_ID}`,
    );
    expect(within(help).getByRole('link', { name: /welcome/i })).toHaveAttribute(
      'href',
      `/bot/config/message?bot_id=${BOT_ID}`,
    );
    const sales = screen.getByRole('listitem', { name: 'Sales bot' });
    expect(within(sales).getByText('Disabled')).toBeInTheDocument();
    await user.click(within(sales).getByRole('switch', { name: 'Sales bot enabled' }));
    expect(
      await screen.findByText('"Sales bot" is enabled: its widget answers visitors.'),
    ).toBeInTheDocument();
    expect(calls()).toContain(`PATCH /v1/bots/${OTHER_BOT_ID}`);
    expect(bodyOf(`/v1/bots/${OTHER_BOT_ID}`)).toEqual({ enabled: true });
    await waitFor(() => expect(within(sales).queryByText('Disabled')).not.toBeInTheDocument());
  });

  it('duplicates a bot under a new name, showing a taken name on the field', async () => {
    const { calls } = stubBots(TWO());
    const user = userEvent.setup();
    renderRoute(<ManagePage />, { path: '/bot/manage', session: botSession() });
    await user.click(await screen.findByRole('button', { name: 'More actions for Help bot' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Duplicate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Duplicate "Help bot"' });
    const name = within(dialog).getByRole('textbox', { name: /^name/i });
    expect(name).toHaveValue('Copy of Help bot');
    await user.clear(name);
    await fill(user, name, 'Sales bot');
    await user.click(within(dialog).getByRole('button', { name: 'Duplicate' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    await user.clear(name);
    await user.click(within(dialog).getByRole('button', { name: 'Duplicate' }));
    expect(await within(dialog).findByText('The name is required')).toBeInTheDocument();
    await fill(user, name, 'Help bot 2');
    await user.click(within(dialog).getByRole('button', { name: 'Duplicate' }));
    expect(
      await screen.findByText(
        '"Help bot 2" was created as a copy. It stays disabled until you switch it on.',
      ),
    ).toBeInTheDocument();
    expect(calls().filter((call) => call === `POST /v1/bots/${BOT_ID}/duplicate`)).toHaveLength(2);
    expect(await screen.findByRole('listitem', { name: 'Help bot 2' })).toBeInTheDocument();
  });

  it('deletes a bot only after a confirmation', async () => {
    const { calls } = stubBots(TWO());
    const user = userEvent.setup();
    renderRoute(<ManagePage />, { path: '/bot/manage', session: botSession() });
    await user.click(await screen.findByRole('button', { name: 'More actions for Sales bot' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('This cannot be undone.');
    expect(calls()).not.toContain(`DELETE /v1/bots/${OTHER_BOT_ID}`);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Bot "Sales bot" was deleted.')).toBeInTheDocument();
    expect(calls()).toContain(`DELETE /v1/bots/${OTHER_BOT_ID}`);
    await waitFor(() =>
      expect(screen.queryByRole('listitem', { name: 'Sales bot' })).not.toBeInTheDocument(),
    );
  });

  it('pages through many bots', async () => {
    const { fetchMock } = stubBots(TWO(), 45);
    const user = userEvent.setup();
    renderRoute(<ManagePage />, { path: '/bot/manage', session: botSession() });
    expect(await screen.findByText('45 bots')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: '3' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/bot/manage?page=3'));
    expect(requestedUrls(fetchMock)).toContain('/v1/bots?page=3&page_size=20');
  });

  it('offers to create the first bot and opens it in the editor', async () => {
    const { fetchMock } = stubBots([]);
    const user = userEvent.setup();
    renderRoute(<ManagePage />, { path: '/bot/manage', session: botSession() });
    expect(await screen.findByRole('heading', { name: 'No bots yet' })).toBeInTheDocument();
    await user.click(screen.getAllByRole('button', { name: 'Create bot' })[1] as HTMLElement);
    const dialog = await screen.findByRole('dialog', { name: 'Create a bot' });
    await user.click(within(dialog).getByRole('button', { name: 'Create bot' }));
    expect(await within(dialog).findByText('The name is required')).toBeInTheDocument();
    await fill(user, within(dialog).getByRole('textbox', { name: /^name/i }), 'Help desk');
    await user.click(within(dialog).getByRole('button', { name: 'Create bot' }));
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/bot/customize?bot_id=${COPY_ID}`),
    );
    expect(sentBodies(fetchMock, 'POST')).toEqual([
      { name: 'Help desk', config: { identity: { name: 'Help desk', botName: 'Help desk' } } },
    ]);
  });

  it('tells an agent there is no bot yet without offering to create one', async () => {
    stubBots([]);
    renderRoute(<ManagePage />, { path: '/bot/manage', session: botSession(['omnirag'], 'agent') });
    expect(await screen.findByRole('heading', { name: 'No bots yet' })).toBeInTheDocument();
    expect(screen.getByText(/a user or an administrator creates them/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create bot' })).toBeNull();
  });
});
