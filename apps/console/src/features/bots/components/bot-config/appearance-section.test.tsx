import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyPatch, BOT_ID, botSession, makeBot, sentBodies } from '../../../../test/bot-fixture';
import { defined } from '../../../../test/defined';
import { json, stubAuthApi } from '../../../../test/fake-auth-api';
import { fill } from '../../../../test/fill';
import { listOf } from '../../../../test/rag-fixture';
import { renderRoute } from '../../../../test/render';
import { BotConfigEditor } from '../bot-config-editor';

type Patch = { config: { appearance?: { userBubble?: Record<string, string> } } };

describe('the appearance section', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('edits the dark colours while dark mode is chosen, and leaves the light ones as they were', async () => {
    let current = makeBot();
    const { fetchMock } = stubAuthApi({
      signedIn: true,
      handle: (method, path, body) => {
        if (path === `/v1/bots/${BOT_ID}` && method === 'PATCH') {
          current = applyPatch(current, body as Parameters<typeof applyPatch>[1]);
          return json(200, current);
        }
        if (path === '/v1/rags' || path === '/v1/prompts') return listOf([]);
        if (path === '/v1/models/available') return json(200, { items: [] });
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderRoute(<BotConfigEditor bot={current} />, { session: botSession() });
    await user.click(await screen.findByRole('button', { name: 'Appearance' }));
    expect(screen.getByRole('textbox', { name: 'Visitor bubble' })).toHaveValue('#1971c2');

    await user.click(screen.getByRole('radio', { name: 'Dark mode' }));
    const bubble = screen.getByRole('textbox', { name: 'Visitor bubble' });
    await user.clear(bubble);
    await fill(user, bubble, '#123456');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const [patch] = sentBodies<Patch>(fetchMock, 'PATCH');
    expect(defined(patch).config.appearance?.userBubble).toMatchObject({
      backgroundColor: '#1971c2',
      backgroundColorDark: '#123456',
    });
  });
});
