import type { Bot } from '@omnibot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyPatch, BOT_ID, botSession, makeBot, sentBodies } from '../../../../test/bot-fixture';
import { defined } from '../../../../test/defined';
import { json, stubAuthApi } from '../../../../test/fake-auth-api';
import { fill } from '../../../../test/fill';
import { listOf } from '../../../../test/rag-fixture';
import { renderRoute } from '../../../../test/render';
import { BotConfigEditor } from '../bot-config-editor';

function stubBot(bot: Bot) {
  let current = bot;
  return stubAuthApi({
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
}

type Patch = { config: { masking?: { patterns: unknown[] }; feedback?: { disclaimer: string } } };

async function openMasking(bot: Bot) {
  const { fetchMock } = stubBot(bot);
  const user = userEvent.setup();
  renderRoute(<BotConfigEditor bot={bot} />, { session: botSession() });
  await user.click(await screen.findByRole('button', { name: 'Masking' }));
  return { user, fetchMock };
}

describe('the masking section', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('chooses presets, keeps own patterns, and the generated disclaimer names what is masked', async () => {
    const { user, fetchMock } = await openMasking(makeBot());
    const presets = screen.getByRole('group', { name: /what to mask/i });
    expect(within(presets).getByRole('checkbox', { name: /^PIN/ })).toBeChecked();
    expect(within(presets).getByRole('checkbox', { name: /^SSN/ })).toBeChecked();
    expect(within(presets).getByRole('checkbox', { name: /^Card number/ })).not.toBeChecked();
    expect(
      screen.getByText(
        /follows what is masked: “Please do not submit sensitive information such as SSN, PIN etc\.”/,
      ),
    ).toBeInTheDocument();

    await user.click(within(presets).getByRole('checkbox', { name: /^Card number/ }));
    await user.click(within(presets).getByRole('checkbox', { name: /^E-mail/ }));
    await user.click(within(presets).getByRole('checkbox', { name: /^PIN/ }));
    expect(
      screen.getByText(
        /follows what is masked: “Please do not submit sensitive information such as SSN, Credit Card, E-mail etc\.”/,
      ),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add pattern' }));
    await fill(user, screen.getByRole('textbox', { name: 'Name (pattern 1)' }), 'Order');
    await fill(
      user,
      screen.getByRole('textbox', { name: 'Regular expression (pattern 1)' }),
      String.raw`ORD-\d{5}`,
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const [patch] = sentBodies<Patch>(fetchMock, 'PATCH');
    expect(defined(patch).config.masking?.patterns).toEqual([
      expect.objectContaining({ name: 'SSN', preset: 'ssn' }),
      expect.objectContaining({ name: 'Card number', preset: 'card' }),
      expect.objectContaining({ name: 'E-mail', preset: 'email' }),
      { name: 'Order', regExpression: String.raw`ORD-\d{5}` },
    ]);
    expect(defined(patch).config.feedback?.disclaimer).toBe(
      'Please do not submit sensitive information such as SSN, Credit Card, E-mail etc.',
    );
  });

  it('keeps a disclaimer the tenant wrote and says so', async () => {
    const bot = makeBot();
    const { user, fetchMock } = await openMasking({
      ...bot,
      config: { ...bot.config, feedback: { ...bot.config.feedback, disclaimer: 'No secrets, please.' } },
    });
    expect(screen.getByText(/The feedback disclaimer is your own text/)).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /^IBAN/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const [patch] = sentBodies<Patch>(fetchMock, 'PATCH');
    expect(defined(patch).config.feedback).toBeUndefined();
    expect(defined(patch).config.masking?.patterns).toHaveLength(3);
  });

  it('shows the schema message of an unsafe pattern on its field and sends nothing', async () => {
    const { user, fetchMock } = await openMasking(makeBot());
    await user.click(screen.getByRole('button', { name: 'Add pattern' }));
    await fill(user, screen.getByRole('textbox', { name: 'Name (pattern 1)' }), 'Evil');
    await fill(user, screen.getByRole('textbox', { name: 'Regular expression (pattern 1)' }), '(a+)+');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Nested quantifiers/)).toBeInTheDocument();
    expect(sentBodies(fetchMock, 'PATCH')).toHaveLength(0);
  });
});
