import type { Bot, Schedule } from '@omnibot/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyPatch, BOT_ID, botSession, makeBot, sentBodies } from '../../../../test/bot-fixture';
import { defined } from '../../../../test/defined';
import { json, stubAuthApi } from '../../../../test/fake-auth-api';
import { fill } from '../../../../test/fill';
import { CHAT_MODEL, listOf, RAG, RAG_ID } from '../../../../test/rag-fixture';
import { GENESYS_ID, GENESYS_INTEGRATION } from '../../../../test/integration-fixture';
import { renderRoute } from '../../../../test/render';
import { SCHEDULE, SCHEDULE_ID } from '../../../../test/schedule-fixture';
import { BotConfigEditor } from '../bot-config-editor';

const STALE_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c6b';
const LEX_ID = '5d4c3b2a-1f0e-4d9c-8b7a-6f5e4d3c2b1a';

function botWith(change: (config: Bot['config']) => void): Bot {
  const bot = makeBot();
  change(bot.config);
  return bot;
}

async function openEngines(
  bot: Bot,
  {
    rags = [RAG],
    models = [CHAT_MODEL],
    features = ['omnirag'],
    contactCentres = [GENESYS_INTEGRATION],
    schedules = [] as Schedule[],
  } = {},
) {
  let current = bot;
  const { fetchMock } = stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (path === `/v1/bots/${BOT_ID}` && method === 'PATCH') {
        current = applyPatch(current, body as Parameters<typeof applyPatch>[1]);
        return json(200, current);
      }
      if (path === '/v1/rags') return listOf(rags);
      if (path === '/v1/prompts') return listOf([]);
      if (path === '/v1/schedules') return listOf(schedules);
      if (path === '/v1/models/available') return json(200, { items: models });
      if (path === '/v1/integrations') return json(200, { items: contactCentres });
      return undefined;
    },
  });
  const user = userEvent.setup();
  renderRoute(<BotConfigEditor bot={bot} />, { session: botSession(features) });
  await user.click(await screen.findByRole('button', { name: 'Engines' }));
  return Object.assign(user, { fetchMock });
}

describe('the engines section', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('offers every engine, each of which answers, and shows the stored one by its name', async () => {
    const user = await openEngines(
      botWith((config) => {
        config.engines.botEngine = 'dialogflowcx';
      }),
    );
    const engine = screen.getByRole('combobox', { name: /bot engine/i });
    expect(engine).toHaveValue('Dialogflow CX: agents of a Dialogflow CX integration');
    await user.click(engine);
    expect(
      within(await screen.findByRole('listbox'))
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual([
      'Built-in: answers from a RAG of your knowledge',
      'Chat model: a model from /model with a prompt, no retrieval',
      'Dialogflow CX: agents of a Dialogflow CX integration',
      'Amazon Lex V2: a Lex bot answers',
      'Amazon Bedrock: a Bedrock model answers, from the RAG when one is chosen',
    ]);
    expect(screen.queryByText(/not available yet/)).not.toBeInTheDocument();
  });

  it('answers with Lex or Bedrock through an integration of that engine, picked and saved with the engine', async () => {
    const lexIntegration = {
      ...GENESYS_INTEGRATION,
      id: LEX_ID,
      engine: 'lex' as const,
      name: 'Flower shop',
    };
    const user = await openEngines(makeBot(), { contactCentres: [lexIntegration] });
    await user.click(screen.getByRole('combobox', { name: /bot engine/i }));
    await user.click(await screen.findByRole('option', { name: 'Amazon Lex V2: a Lex bot answers' }));
    const picker = await screen.findByRole('combobox', { name: /amazon lex integration/i });
    const urls = user.fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
    expect(urls).toContain('/v1/integrations?kind=chatbot&engine=lex');
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Flower shop' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(
      sentBodies<{ config: Record<string, Record<string, unknown>> }>(user.fetchMock, 'PATCH')[0],
    );
    expect(patch.config.engines).toMatchObject({ botEngine: 'lex', integration_id: LEX_ID });

    // Another engine starts without the integration; Bedrock with none of its own links to add one.
    await user.click(screen.getByRole('combobox', { name: /bot engine/i }));
    await user.click(await screen.findByRole('option', { name: /^Amazon Bedrock/ }));
    expect(await screen.findByRole('combobox', { name: /amazon bedrock integration/i })).toHaveValue('');
    const asked = user.fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
    expect(asked).toContain('/v1/integrations?kind=chatbot&engine=bedrock');
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

  it('asks where and when to hand over only once a live agent is offered', async () => {
    const user = await openEngines(makeBot());
    expect(screen.queryByRole('combobox', { name: /hand over to/i })).not.toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: /offer a live agent/i }));
    expect(screen.getByRole('combobox', { name: /hand over to/i })).toBeInTheDocument();
    expect(
      screen.getByText('Genesys Cloud and Amazon Connect need a contact-centre integration.'),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('textbox', { name: /hand over after this many fallbacks in a row/i }),
    ).toHaveValue('0');
  });

  it('offers the inbox, Genesys Cloud and Amazon Connect, and saves the choice and the fallback count', async () => {
    const user = await openEngines(
      botWith((config) => {
        config.engines.enableliveagent = true;
      }),
    );
    const provider = screen.getByRole('combobox', { name: /hand over to/i });
    expect(provider).toHaveValue('Genesys Cloud');
    await user.click(provider);
    const listbox = await screen.findByRole('listbox');
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Agent inbox (built in)', 'Genesys Cloud', 'Amazon Connect']);
    await user.click(within(listbox).getByRole('option', { name: 'Agent inbox (built in)' }));
    const fallbacks = screen.getByRole('textbox', { name: /hand over after this many fallbacks in a row/i });
    await user.clear(fallbacks);
    await user.type(fallbacks, '3');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(
      sentBodies<{ config: Record<string, Record<string, unknown>> }>(user.fetchMock, 'PATCH')[0],
    );
    expect(patch.config.engines).toMatchObject({
      enableliveagent: true,
      liveagent: 'inbox',
      handoverAfterFallbacks: 3,
    });
  });

  it('keeps the fallback count between 0 and 10', async () => {
    const user = await openEngines(
      botWith((config) => {
        config.engines.enableliveagent = true;
      }),
    );
    const fallbacks = screen.getByRole('textbox', { name: /hand over after this many fallbacks in a row/i });
    await user.clear(fallbacks);
    // Typing stops at the largest count; a minus sign is not taken.
    await user.type(fallbacks, '25');
    expect(fallbacks).toHaveValue('2');
    await user.clear(fallbacks);
    await user.type(fallbacks, '-7');
    expect(fallbacks).toHaveValue('7');
  });

  it('picks the contact-centre integration of the chosen provider, and links to add one when there is none', async () => {
    const user = await openEngines(
      botWith((config) => {
        config.engines.enableliveagent = true;
      }),
    );
    const picker = await screen.findByRole('combobox', { name: /genesys cloud integration/i });
    const urls = user.fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
    expect(urls).toContain('/v1/integrations?kind=ccaas&engine=genesys');
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: GENESYS_INTEGRATION.name }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(
      sentBodies<{ config: Record<string, Record<string, unknown>> }>(user.fetchMock, 'PATCH')[0],
    );
    expect(patch.config.engines).toMatchObject({
      liveagent: 'genesys',
      liveagent_integration_id: GENESYS_ID,
    });

    // Another provider starts without an integration; with none of its own, the bot offers no person.
    await user.click(screen.getByRole('combobox', { name: /hand over to/i }));
    await user.click(await screen.findByRole('option', { name: 'Amazon Connect' }));
    expect(await screen.findByRole('combobox', { name: /amazon connect integration/i })).toHaveValue('');
    const asked = user.fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
    expect(asked).toContain('/v1/integrations?kind=ccaas&engine=connect');
  });

  it('says a contact centre needs an integration first, with a link to add one', async () => {
    await openEngines(
      botWith((config) => {
        config.engines.enableliveagent = true;
        config.engines.liveagent = 'connect';
      }),
      { contactCentres: [] },
    );
    expect(await screen.findByText('No Amazon Connect integration yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Amazon Connect integration' })).toHaveAttribute(
      'href',
      '/bot/integration/add?kind=ccaas&engine=connect',
    );
  });

  const liveBot = () =>
    botWith((config) => {
      config.engines.enableliveagent = true;
      config.engines.liveagent = 'inbox';
    });

  it('says a person is offered at any time while the organisation has no schedule', async () => {
    await openEngines(liveBot());
    expect(await screen.findByText(/No schedule yet: a person is offered at any time/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add business hours' })).toHaveAttribute('href', '/schedule/add');
  });

  it('follows business hours: saves the schedule picked and the offline text', async () => {
    const user = await openEngines(liveBot(), { schedules: [SCHEDULE] });
    await user.click(await screen.findByRole('combobox', { name: /business hours/i }));
    await user.click(await screen.findByRole('option', { name: 'Support hours' }));
    const offline = screen.getByRole('textbox', { name: /offline text/i });
    await user.clear(offline);
    await fill(user, offline, 'Back at nine.');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/were saved/)).toBeInTheDocument();
    const patch = defined(
      sentBodies<{ config: Record<string, Record<string, unknown>> }>(user.fetchMock, 'PATCH')[0],
    );
    expect(patch.config.engines).toMatchObject({ schedule_id: SCHEDULE_ID, offlineText: 'Back at nine.' });
  });
});
