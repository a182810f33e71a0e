import { AGENT_READ_ONLY_MESSAGE, type Bot } from '@omnibot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  applyPatch,
  BOT_ID,
  botListOf,
  botSession,
  makeBot,
  OTHER_BOT_ID,
  sentBodies,
} from '../../../test/bot-fixture';
import { defined } from '../../../test/defined';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { Component as MessagePage } from './bot-message-page';

const PATH = `/v1/bots/${BOT_ID}`;

function stubBot(bot: Bot = makeBot()) {
  let current = bot;
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path === '/v1/bots' && method === 'GET') return botListOf([current]);
      if (path === PATH && method === 'GET') return json(200, current);
      if (path === PATH && method === 'PATCH') {
        current = applyPatch(current, body as Parameters<typeof applyPatch>[1]);
        return json(200, current);
      }
      return undefined;
    },
  });
}

const patchOf = (fetchMock: ReturnType<typeof stubBot>['fetchMock']) =>
  sentBodies<{ config: { welcome: Record<string, unknown> } }>(fetchMock, 'PATCH')[0] ?? null;

describe('/bot/config/message', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('edits the welcome text and the menus (add, reorder, remove) and saves them', async () => {
    const { fetchMock } = stubBot();
    const user = userEvent.setup();
    renderRoute(<MessagePage />, { path: `/bot/config/message?bot_id=${BOT_ID}`, session: botSession() });
    await user.click(await screen.findByRole('switch', { name: 'Greet visitors with the welcome text' }));
    const text = screen.getByRole('textbox', { name: /^welcome text/i });
    await user.clear(text);
    await fill(user, text, 'Hello! Ask me about orders.');

    await user.click(screen.getByRole('button', { name: 'Add welcome item' }));
    await user.click(screen.getByRole('button', { name: 'Add welcome item' }));
    await fill(user, screen.getByRole('textbox', { name: 'Label (welcome item 1)' }), 'Orders');
    await fill(
      user,
      screen.getByRole('textbox', { name: 'Text sent (welcome item 1)' }),
      'Where is my order?',
    );
    await fill(user, screen.getByRole('textbox', { name: 'Label (welcome item 2)' }), 'Returns');
    await fill(user, screen.getByRole('textbox', { name: 'Text sent (welcome item 2)' }), 'How do I return?');
    await user.click(screen.getByRole('button', { name: 'Move welcome item 2 up' }));
    expect(screen.getByRole('textbox', { name: 'Label (welcome item 1)' })).toHaveValue('Returns');

    await user.click(screen.getByRole('button', { name: 'Add popup item' }));
    await fill(user, screen.getByRole('textbox', { name: 'Label (popup item 1)' }), 'Agent');
    await fill(user, screen.getByRole('textbox', { name: 'Text sent (popup item 1)' }), 'Talk to a person');
    await user.click(screen.getByRole('button', { name: 'Add popup item' }));
    await user.click(screen.getByRole('button', { name: 'Remove popup item 2' }));

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The welcome message was saved.')).toBeInTheDocument();
    expect(defined(patchOf(fetchMock)).config.welcome).toMatchObject({
      welcomeText: 'Hello! Ask me about orders.',
      welcomeText_enabled: true,
      welcomeMenu: [
        { label: 'Returns', text: 'How do I return?' },
        { label: 'Orders', text: 'Where is my order?' },
      ],
      popupMenu: [{ label: 'Agent', text: 'Talk to a person' }],
    });
    expect(Object.keys(defined(patchOf(fetchMock)).config)).toEqual(['welcome']);
  });

  it('shows a menu item without a label on that field and sends nothing', async () => {
    const { fetchMock } = stubBot();
    const user = userEvent.setup();
    renderRoute(<MessagePage />, { path: `/bot/config/message?bot_id=${BOT_ID}`, session: botSession() });
    await user.click(await screen.findByRole('button', { name: 'Add popup item' }));
    await fill(user, screen.getByRole('textbox', { name: 'Text sent (popup item 1)' }), 'Talk to a person');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const card = screen.getByLabelText('Popup item 1');
    expect(await within(card).findByText('A menu item needs a label.')).toBeInTheDocument();
    expect(patchOf(fetchMock)).toBeNull();
  });

  it('stops adding menu items at 20', async () => {
    const full = makeBot();
    full.config.welcome.welcomeMenu = Array.from({ length: 20 }, (_, index) => ({
      label: `Item ${index + 1}`,
      text: `Question ${index + 1}`,
    }));
    stubBot(full);
    renderRoute(<MessagePage />, { path: `/bot/config/message?bot_id=${BOT_ID}`, session: botSession() });
    expect(await screen.findByRole('button', { name: 'Add welcome item' })).toBeDisabled();
    expect(screen.getByText('20 of 20')).toBeInTheDocument();
  });

  it('says so when the chosen bot does not exist', async () => {
    stubBot();
    renderRoute(<MessagePage />, {
      path: `/bot/config/message?bot_id=${OTHER_BOT_ID}`,
      session: botSession(),
    });
    expect(await screen.findByText('Bot not found')).toBeInTheDocument();
  });

  it('shows an agent the welcome text and menus read-only, with nothing to add, remove or save', async () => {
    const base = makeBot();
    stubBot(
      makeBot({
        config: {
          ...base.config,
          welcome: {
            ...base.config.welcome,
            welcomeMenu: [{ label: 'Opening hours', text: 'When are you open?' }],
          },
        },
      }),
    );
    renderRoute(<MessagePage />, {
      path: `/bot/config/message?bot_id=${BOT_ID}`,
      session: botSession(['omnirag'], 'agent'),
    });
    const label = await screen.findByRole('textbox', { name: 'Label (welcome item 1)' });
    expect(label).toHaveValue('Opening hours');
    expect(label).toBeDisabled();
    expect(screen.getByRole('textbox', { name: /^welcome text/i })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Remove welcome item 1' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Add welcome item' })).toBeDisabled();
    expect(screen.getByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
