import type { Bot } from '@omnibot/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyPatch, BOT_ID, botSession, makeBot, sentBodies } from '../../../../test/bot-fixture';
import { defined } from '../../../../test/defined';
import { json, stubAuthApi } from '../../../../test/fake-auth-api';
import { CHAT_MODEL, listOf, RAG, RAG_ID } from '../../../../test/rag-fixture';
import { fill } from '../../../../test/fill';
import { renderRoute } from '../../../../test/render';
import { BotConfigEditor } from '../bot-config-editor';

type Patch = { config: Record<string, Record<string, unknown>> };

function botWith(change: (config: Bot['config']) => void): Bot {
  const bot = makeBot();
  change(bot.config);
  return bot;
}

async function openTranslation(bot: Bot) {
  let current = bot;
  const { fetchMock } = stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path === `/v1/bots/${BOT_ID}` && method === 'PATCH') {
        current = applyPatch(current, body as Parameters<typeof applyPatch>[1]);
        return json(200, current);
      }
      if (path === '/v1/rags') return listOf([RAG]);
      if (path === '/v1/prompts') return listOf([]);
      if (path === '/v1/models/available') return json(200, { items: [CHAT_MODEL] });
      return undefined;
    },
  });
  const user = userEvent.setup();
  renderRoute(<BotConfigEditor bot={bot} />, { session: botSession() });
  await user.click(await screen.findByRole('button', { name: 'Translation' }));
  return { user, fetchMock };
}

const toggle = () => screen.getByRole('switch', { name: /translate automatically/i });

describe('the translation section', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps automatic translation off, saying why, until a RAG bot has a chat model to translate with', async () => {
    const { user, fetchMock } = await openTranslation(
      botWith((config) => {
        config.engines.rag_id = RAG_ID;
      }),
    );
    expect(toggle()).toBeDisabled();
    expect(
      screen.getByText('Choose the chat model that translates first, or a LibreTranslate server.'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: /^chat model for translation/i }));
    await user.click(await screen.findByRole('option', { name: 'House model (gpt-test)' }));
    expect(toggle()).toBeEnabled();
    await user.click(toggle());
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(sentBodies<Patch>(fetchMock, 'PATCH')[0]);
    expect(patch.config.language).toMatchObject({ autoTranslate: true });
    expect(patch.config.engines).toMatchObject({
      botEngine: 'builtin',
      rag_id: RAG_ID,
      translateEngine: 'builtin',
      model_id: CHAT_MODEL.id,
    });
  });

  it('asks for the LibreTranslate key again when the address changes, and sends the new one', async () => {
    const { user, fetchMock } = await openTranslation(
      botWith((config) => {
        config.engines.translateEngine = 'libretranslate';
        config.libretranslate = { url: 'https://old.example.com', apiKey: '****WXYZ' };
        config.language.autoTranslate = true;
      }),
    );
    expect(toggle()).toBeEnabled();
    expect(screen.getByLabelText('Stored API key')).toHaveTextContent('****WXYZ');
    expect(screen.queryByText('Enter the API key again')).not.toBeInTheDocument();

    const address = screen.getByRole('textbox', { name: /^libretranslate address/i });
    await user.clear(address);
    await fill(user, address, 'https://new.example.com');
    expect(screen.getByText('Enter the API key again')).toBeInTheDocument();
    expect(screen.queryByLabelText('Stored API key')).not.toBeInTheDocument();
    await fill(user, screen.getByLabelText(/^API key/), 'new-secret-key');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(sentBodies<Patch>(fetchMock, 'PATCH')[0]);
    expect(patch.config.libretranslate).toEqual({ url: 'https://new.example.com', apiKey: 'new-secret-key' });
  });

  it('keeps the stored key untouched while the address stays', async () => {
    const { user, fetchMock } = await openTranslation(
      botWith((config) => {
        config.engines.translateEngine = 'libretranslate';
        config.libretranslate = { url: 'https://old.example.com', apiKey: '****WXYZ' };
      }),
    );
    await user.click(toggle());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(sentBodies<Patch>(fetchMock, 'PATCH')[0]);
    expect(patch.config.libretranslate).toBeUndefined();
    expect(patch.config.language).toMatchObject({ autoTranslate: true });
  });

  it('turns on translation between visitors and agents once the bot has a translator', async () => {
    const agentToggle = () => screen.getByRole('switch', { name: /translate live-agent conversations/i });
    const { user, fetchMock } = await openTranslation(
      botWith((config) => {
        config.engines.translateEngine = 'libretranslate';
      }),
    );
    expect(agentToggle()).toBeDisabled();
    expect(screen.getByText('Enter the address of the LibreTranslate server first.')).toBeInTheDocument();
    await fill(
      user,
      screen.getByRole('textbox', { name: /^libretranslate address/i }),
      'https://translate.example.com',
    );
    expect(agentToggle()).toBeEnabled();
    await user.click(agentToggle());
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(sentBodies<Patch>(fetchMock, 'PATCH')[0]);
    expect(patch.config.language).toMatchObject({ autoAgentTranslate: true });
  });

  it('says the answering chat model translates for a chat-model bot', async () => {
    await openTranslation(
      botWith((config) => {
        config.engines.botEngine = 'openai';
        config.engines.translateEngine = 'openai';
        config.engines.model_id = CHAT_MODEL.id;
      }),
    );
    expect(screen.getByRole('combobox', { name: /^translator/i })).toHaveValue('A chat model');
    expect(
      screen.getByText('The chat model that answers (under Engines) translates too.'),
    ).toBeInTheDocument();
    expect(toggle()).toBeEnabled();
  });
});
