import { AGENT_READ_ONLY_MESSAGE } from '@omnibot/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../lib/session';
import { botListOf, makeBot } from '../../test/bot-fixture';
import { json, stubAuthApi } from '../../test/fake-auth-api';
import { BUILTIN_INTEGRATION, OPENAI_INTEGRATION } from '../../test/integration-fixture';
import { listOf, optionsHandler, PROMPT, RAG, RAG_ID } from '../../test/rag-fixture';
import { renderRoute } from '../../test/render';
import { Component as BotManagePage } from './bot/bot-manage-page';
import { Component as IndexListPage } from './index/index-list-page';
import { Component as IntegrationListPage } from './integration/integration-list-page';
import { Component as IntegrationViewPage } from './integration/integration-view-page';
import { Component as KnowledgeListPage } from './knowledge/knowledge-list-page';
import { Component as PromptListPage } from './prompt/prompt-list-page';
import { Component as RagAddPage } from './rag/rag-add-page';
import { Component as RagListPage } from './rag/rag-list-page';
import { Component as RagViewPage } from './rag/rag-view-page';

const sessionOf = (role: string): Session => ({
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role, tenant_id: 't-acme' },
  features: ['omnirag'],
  signOut: () => Promise.resolve(),
});
const AGENT = sessionOf('agent');
const USER = sessionOf('user');

function stubReads() {
  const options = optionsHandler();
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      if (method !== 'GET') return undefined;
      if (path === '/v1/rags') return listOf([RAG]);
      if (path === `/v1/rags/${RAG_ID}`) return json(200, RAG);
      if (path === '/v1/integrations') return json(200, { items: [OPENAI_INTEGRATION, BUILTIN_INTEGRATION] });
      if (path === `/v1/integrations/${OPENAI_INTEGRATION.id}`) return json(200, OPENAI_INTEGRATION);
      if (path === '/v1/bots') return botListOf([makeBot()]);
      if (path === '/v1/prompts') return listOf([PROMPT]);
      if (path === '/v1/knowledge') return listOf([]);
      return options(method, path);
    },
  });
}

const noButton = (name: RegExp) => expect(screen.queryByRole('button', { name })).toBeNull();
const noLink = (name: RegExp) => expect(screen.queryByRole('link', { name })).toBeNull();

describe('an agent reads bots, integrations, prompts and RAGs without the actions it may not use', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists RAGs without Add or Delete, and shows a RAG with its test box but no form', async () => {
    stubReads();
    const list = renderRoute(<RagListPage />, { path: '/rag', session: AGENT });
    expect(await screen.findByRole('link', { name: RAG.name })).toBeInTheDocument();
    noLink(/add rag/i);
    noButton(/delete/i);
    list.unmount();

    const view = renderRoute(<RagViewPage />, { path: `/rag/view?id=${RAG_ID}`, session: AGENT });
    expect(await screen.findByRole('heading', { name: RAG.name })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Test' })).toBeInTheDocument();
    expect(screen.getByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    noButton(/^save$/i);
    noButton(/delete/i);
    view.unmount();

    renderRoute(<RagAddPage />, { path: '/rag/add', session: AGENT });
    expect(await screen.findByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the RAGs' })).toHaveAttribute('href', '/rag');
    noButton(/create rag/i);
  });

  it('lists integrations, prompts and bots without create, delete or switches it could use', async () => {
    stubReads();
    const integrations = renderRoute(<IntegrationListPage />, {
      path: '/bot/integration/list',
      session: AGENT,
    });
    expect(await screen.findByRole('link', { name: OPENAI_INTEGRATION.name })).toBeInTheDocument();
    noLink(/add integration/i);
    noButton(/delete/i);
    integrations.unmount();

    const integration = renderRoute(<IntegrationViewPage />, {
      path: `/bot/integration/view?id=${OPENAI_INTEGRATION.id}`,
      session: AGENT,
    });
    expect(await screen.findByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    noButton(/^save|delete|test connection/i);
    integration.unmount();

    const prompts = renderRoute(<PromptListPage />, { path: '/prompt', session: AGENT });
    expect(await screen.findByText(PROMPT.name)).toBeInTheDocument();
    noLink(/create prompt/i);
    prompts.unmount();

    for (const [page, path, create] of [
      [<KnowledgeListPage key="knowledge" />, '/knowledge', /create knowledge base/i],
      [<IndexListPage key="index" />, '/index', /create index/i],
    ] as const) {
      const shown = renderRoute(page, { path, session: AGENT });
      expect(await screen.findByRole('heading', { level: 1 })).toBeInTheDocument();
      noLink(create);
      shown.unmount();
    }

    renderRoute(<BotManagePage />, { path: '/bot/manage', session: AGENT });
    const bot = await screen.findByRole('listitem', { name: makeBot().name });
    noButton(/create bot/i);
    expect(within(bot).queryByRole('button', { name: /more actions/i })).toBeNull();
    expect(within(bot).getByRole('switch', { name: /enabled/i })).toBeDisabled();
  });

  it('offers the same screens their actions for a user', async () => {
    stubReads();
    const list = renderRoute(<RagListPage />, { path: '/rag', session: USER });
    expect(await screen.findByRole('link', { name: 'Add RAG' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: `Delete ${RAG.name}` })).toBeInTheDocument();
    list.unmount();
    renderRoute(<BotManagePage />, { path: '/bot/manage', session: USER });
    const bot = await screen.findByRole('listitem', { name: makeBot().name });
    expect(screen.getByRole('button', { name: /create bot/i })).toBeInTheDocument();
    expect(within(bot).getByRole('switch', { name: /enabled/i })).toBeEnabled();
  });
});
