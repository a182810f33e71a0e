import { AGENT_READ_ONLY_MESSAGE, type Bot } from '@omnibot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyPatch, BOT_ID, botListOf, botSession, makeBot, sentBodies } from '../../../test/bot-fixture';
import { defined } from '../../../test/defined';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { listOf, RAG, RAG_ID } from '../../../test/rag-fixture';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { Component as RagPage } from './bot-rag-page';

const PATH = `/v1/bots/${BOT_ID}`;

function stubBot({ bot = makeBot(), refuse = false }: { bot?: Bot; refuse?: boolean } = {}) {
  let current = bot;
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path === '/v1/bots' && method === 'GET') return botListOf([current]);
      if (path === PATH && method === 'GET') return json(200, current);
      if (path === '/v1/rags' && method === 'GET') return listOf([RAG]);
      if (path === PATH && method === 'PATCH') {
        if (refuse)
          return json(400, {
            code: 'bot/unknown-rag',
            message: 'The RAG does not exist in your organisation.',
          });
        current = applyPatch(current, body as Parameters<typeof applyPatch>[1]);
        return json(200, current);
      }
      return undefined;
    },
  });
}

async function chooseRag(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('combobox', { name: /the rag this bot answers from/i }));
  await user.click(await screen.findByRole('option', { name: 'Support answers' }));
}

describe('/bot/config/rag', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('saves the languages, automatic translation with its translator, and the RAG', async () => {
    const { fetchMock } = stubBot();
    const user = userEvent.setup();
    renderRoute(<RagPage />, { path: `/bot/config/rag?bot_id=${BOT_ID}`, session: botSession() });
    await user.click(await screen.findByRole('combobox', { name: /^fallback language/i }));
    await user.click(await screen.findByRole('option', { name: 'French (fr)' }));
    // Without a translator the switch is off and says why.
    expect(screen.getByRole('switch', { name: /translate automatically/i })).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: /^translator/i }));
    await user.click(await screen.findByRole('option', { name: 'A LibreTranslate server' }));
    await fill(
      user,
      screen.getByRole('textbox', { name: /^libretranslate address/i }),
      'https://translate.example.com',
    );
    await user.click(screen.getByRole('switch', { name: /translate automatically/i }));
    await chooseRag(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The language and RAG settings were saved.')).toBeInTheDocument();
    const sent = defined(
      sentBodies<{ config: Record<string, Record<string, unknown>> }>(fetchMock, 'PATCH')[0],
    );
    expect(Object.keys(sent.config).sort()).toEqual(['engines', 'language', 'libretranslate']);
    expect(sent.config.libretranslate).toMatchObject({ url: 'https://translate.example.com' });
    expect(sent.config.language).toMatchObject({
      default_language: 'en',
      fallback_language: 'fr',
      autoTranslate: true,
    });
    expect(sent.config.engines).toMatchObject({
      rag_id: RAG_ID,
      botEngine: 'builtin',
      translateEngine: 'libretranslate',
    });
  });

  it('shows a refused RAG on its field', async () => {
    stubBot({ refuse: true });
    const user = userEvent.setup();
    renderRoute(<RagPage />, { path: `/bot/config/rag?bot_id=${BOT_ID}`, session: botSession() });
    await chooseRag(user);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: /the rag this bot answers from/i })).toHaveAttribute(
        'aria-invalid',
        'true',
      ),
    );
    expect(screen.getAllByText('The RAG does not exist in your organisation.').length).toBeGreaterThan(0);
  });

  it('says the RAG is unused while the bot answers with another engine', async () => {
    const bot = makeBot();
    bot.config.engines.botEngine = 'openai';
    stubBot({ bot });
    renderRoute(<RagPage />, { path: `/bot/config/rag?bot_id=${BOT_ID}`, session: botSession() });
    expect(await screen.findByText("Not used by this bot's engine")).toBeInTheDocument();
  });

  it('says so when the organisation has no Omni RAG', async () => {
    const { calls } = stubBot();
    renderRoute(<RagPage />, { path: `/bot/config/rag?bot_id=${BOT_ID}`, session: botSession([]) });
    expect(screen.getByRole('heading', { name: 'Language RAG needs Omni RAG' })).toBeInTheDocument();
    expect(calls()).not.toContain(`GET ${PATH}`);
  });

  it('shows an agent the languages and the RAG read-only, with nothing to save', async () => {
    const base = makeBot();
    stubBot({
      bot: makeBot({ config: { ...base.config, engines: { ...base.config.engines, rag_id: RAG_ID } } }),
    });
    renderRoute(<RagPage />, {
      path: `/bot/config/rag?bot_id=${BOT_ID}`,
      session: botSession(['omnirag'], 'agent'),
    });
    const rag = await screen.findByRole('combobox', { name: /the rag this bot answers from/i });
    await waitFor(() => expect(rag).toHaveValue('Support answers'));
    expect(rag).toBeDisabled();
    expect(screen.getByRole('combobox', { name: /^default language/i })).toBeDisabled();
    expect(screen.getByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
