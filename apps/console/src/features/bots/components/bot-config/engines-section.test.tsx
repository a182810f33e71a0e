import type { Bot } from '@omnibot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { botSession, makeBot } from '../../../../test/bot-fixture';
import { json, stubAuthApi } from '../../../../test/fake-auth-api';
import { CHAT_MODEL, listOf, RAG, RAG_ID } from '../../../../test/rag-fixture';
import { renderRoute } from '../../../../test/render';
import { BotConfigEditor } from '../bot-config-editor';

const STALE_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';

function botWith(change: (config: Bot['config']) => void): Bot {
  const bot = makeBot();
  change(bot.config);
  return bot;
}

async function openEngines(bot: Bot, { rags = [RAG], models = [CHAT_MODEL], features = ['omnirag'] } = {}) {
  stubAuthApi({
    signedIn: true,
    handle: (_method, path) => {
      if (path === '/v1/rags') return listOf(rags);
      if (path === '/v1/prompts') return listOf([]);
      if (path === '/v1/models/available') return json(200, { items: models });
      return undefined;
    },
  });
  const user = userEvent.setup();
  renderRoute(<BotConfigEditor bot={bot} />, { session: botSession(features) });
  await user.click(await screen.findByRole('button', { name: 'Engines' }));
  return user;
}

describe('the engines section', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('shows a stored engine that does not answer yet under its name, beside the engines that do', async () => {
    const user = await openEngines(
      botWith((config) => {
        config.engines.botEngine = 'lex';
      }),
    );
    const engine = screen.getByRole('combobox', { name: /bot engine/i });
    expect(engine).toHaveValue('lex (not available yet: answers with the fallback text)');
    await user.click(engine);
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Built-in: answers from a RAG of your knowledge',
      'Chat model: a model from /model with a prompt, no retrieval',
      'lex (not available yet: answers with the fallback text)',
    ]);
  });

  it('names a stored RAG that is gone, without asking for a first RAG', async () => {
    await openEngines(
      botWith((config) => {
        config.engines.rag_id = STALE_ID;
      }),
    );
    expect(await screen.findByRole('combobox', { name: /^rag/i })).toHaveValue('No longer available');
    expect(screen.queryByText('No RAG yet')).not.toBeInTheDocument();
  });

  it('asks for a RAG first when the organisation has none', async () => {
    await openEngines(makeBot(), { rags: [] });
    expect(await screen.findByText('No RAG yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a RAG' })).toBeInTheDocument();
  });

  it('says built-in answers need Omni RAG, and offers no RAG, without the subscription', async () => {
    await openEngines(makeBot(), { features: [] });
    expect(screen.getByText('Built-in answers need Omni RAG')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: /^rag/i })).not.toBeInTheDocument();
  });

  it('asks for a chat model first when the chat model engine has none to use', async () => {
    await openEngines(
      botWith((config) => {
        config.engines.botEngine = 'openai';
      }),
      { models: [] },
    );
    expect(await screen.findByText('No chat model offered')).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: /^rag/i })).not.toBeInTheDocument();
  });

  it('shows the chosen RAG by its name', async () => {
    await openEngines(
      botWith((config) => {
        config.engines.rag_id = RAG_ID;
      }),
    );
    expect(await screen.findByRole('combobox', { name: /^rag/i })).toHaveValue(RAG.name);
  });
});
