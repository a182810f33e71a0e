import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import {
  BUILTIN_ID,
  BUILTIN_INTEGRATION,
  CONNECT_ID,
  CONNECT_INTEGRATION,
  GENESYS_INTEGRATION,
  OPENAI_ID,
  OPENAI_INTEGRATION,
} from '../../../test/integration-fixture';
import { renderRoute } from '../../../test/render';
import { Component as AddPage } from './integration-add-page';
import { Component as ContactCentrePage } from './integration-ccaas-page';
import { Component as ChatbotPage } from './integration-chatbot-page';
import { Component as ListPage } from './integration-list-page';
import { Component as OverviewPage } from './integration-overview-page';
import { Component as ViewPage } from './integration-view-page';

const SESSION: Session = {
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role: 'user', tenant_id: 't-acme' },
  features: [],
  signOut: () => Promise.resolve(),
};

function stub(items: unknown[] = [OPENAI_INTEGRATION, BUILTIN_INTEGRATION]) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      if (method === 'GET' && path === '/v1/integrations') return json(200, { items });
      const found = (items as Array<{ id: string }>).find((item) => path === `/v1/integrations/${item.id}`);
      if (path.startsWith('/v1/integrations/') && !path.endsWith('/test')) {
        if (!found) return json(404, { code: 'not_found', message: 'Integration not found' });
        if (method === 'GET') return json(200, found);
        if (method === 'DELETE') return new Response(null, { status: 204 });
      }
      if (method === 'POST' && path === `/v1/integrations/test`) {
        return json(200, {
          ok: false,
          code: 'provider/unreachable',
          message: 'Could not connect to llm.example.com.',
        });
      }
      return undefined;
    },
  });
}

describe('integration screens', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('/bot/integration counts the chatbot engines per engine and links to the lists and the form', async () => {
    stub();
    renderRoute(<OverviewPage />, { path: '/bot/integration', session: SESSION });
    expect(await screen.findByRole('heading', { level: 1, name: 'Integrations' })).toBeInTheDocument();
    expect(await screen.findByText('Builtin (Omni RAG): 1')).toBeInTheDocument();
    expect(screen.getByText('OpenAI-compatible: 1')).toBeInTheDocument();
    expect(screen.getByText(/1 in use by bots/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Chatbot engines' })).toHaveAttribute(
      'href',
      '/bot/integration/chatbot',
    );
    expect(screen.getByRole('link', { name: 'Add' })).toHaveAttribute('href', '/bot/integration/add');
    expect(screen.getByRole('link', { name: 'See all' })).toHaveAttribute('href', '/bot/integration/list');
    expect(screen.getByRole('link', { name: 'Contact centres' })).toHaveAttribute(
      'href',
      '/bot/integration/ccaas',
    );
    expect(screen.getByText('Genesys Cloud: 0')).toBeInTheDocument();
  });

  it('/bot/integration/list shows chatbot engines and contact centres together, secrets never', async () => {
    stub([OPENAI_INTEGRATION, GENESYS_INTEGRATION, CONNECT_INTEGRATION]);
    renderRoute(<ListPage />, { path: '/bot/integration/list', session: SESSION });
    expect(await screen.findByRole('link', { name: 'Connect desk' })).toHaveAttribute(
      'href',
      `/bot/integration/view?id=${CONNECT_ID}`,
    );
    expect(screen.getByRole('link', { name: 'Genesys desk' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'House GPT' })).toBeInTheDocument();
    expect(screen.getAllByText('Contact centre')).toHaveLength(2);
    expect(
      screen.getByText('Instance 11111111-2222-4333-8444-555555555555 in eu-central-1'),
    ).toBeInTheDocument();
    expect(screen.queryByText(/WXYZ/)).not.toBeInTheDocument();
  });

  it('/bot/integration/ccaas asks for the contact centres only, with the bots using each and an add button', async () => {
    const api = stub([GENESYS_INTEGRATION]);
    renderRoute(<ContactCentrePage />, { path: '/bot/integration/ccaas', session: SESSION });
    expect(await screen.findByRole('link', { name: 'Genesys desk' })).toBeInTheDocument();
    expect(screen.getByText('Shop helper')).toBeInTheDocument();
    const urls = api.fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
    expect(urls.filter((url) => url.startsWith('/v1/integrations'))).toEqual(['/v1/integrations?kind=ccaas']);
    expect(screen.getByRole('link', { name: 'Add contact centre' })).toHaveAttribute(
      'href',
      '/bot/integration/add?kind=ccaas',
    );
  });

  it('/bot/integration/ccaas without contact centres offers to add one', async () => {
    stub([]);
    renderRoute(<ContactCentrePage />, { path: '/bot/integration/ccaas', session: SESSION });
    expect(await screen.findByRole('heading', { name: 'No contact centre yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a contact centre' })).toHaveAttribute(
      'href',
      '/bot/integration/add?kind=ccaas',
    );
  });

  it('/bot/integration/add?kind=ccaas offers Genesys Cloud and Amazon Connect', async () => {
    stub();
    renderRoute(<AddPage />, { path: '/bot/integration/add?kind=ccaas&engine=connect', session: SESSION });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add contact centre' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Amazon Connect' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Genesys Cloud' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^secret access key/i)).toBeInTheDocument();
  });

  it('/bot/integration/view of a Connect integration shows its masked secret and its provider', async () => {
    stub([CONNECT_INTEGRATION]);
    renderRoute(<ViewPage />, { path: `/bot/integration/view?id=${CONNECT_ID}`, session: SESSION });
    expect(await screen.findByRole('heading', { level: 1, name: 'Connect desk' })).toBeInTheDocument();
    expect(screen.getByText('Contact centre · Amazon Connect')).toBeInTheDocument();
    expect(screen.getByLabelText('Stored Secret access key')).toHaveTextContent('****WXYZ');
    expect(screen.getByText(/No bot hands over to this contact centre yet/)).toBeInTheDocument();
  });

  it('/bot/integration/list lists each integration, who uses it, and deletes an unused one after a confirmation', async () => {
    const api = stub();
    const user = userEvent.setup();
    renderRoute(<ListPage />, { path: '/bot/integration/list', session: SESSION });
    expect(await screen.findByRole('link', { name: 'House GPT' })).toHaveAttribute(
      'href',
      `/bot/integration/view?id=${OPENAI_ID}`,
    );
    expect(screen.getByText('gpt-test at https://llm.example.com/v1')).toBeInTheDocument();
    expect(screen.getByText('Shop helper')).toBeInTheDocument();
    expect(screen.queryByText(/sk-|wxyz/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Support RAG' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Delete House GPT' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Integration "House GPT" was deleted.')).toBeInTheDocument();
    expect(api.calls()).toContain(`DELETE /v1/integrations/${OPENAI_ID}`);
  });

  it('/bot/integration/list tells an organisation without integrations what to do next', async () => {
    stub([]);
    renderRoute(<ListPage />, { path: '/bot/integration/list', session: SESSION });
    expect(await screen.findByRole('heading', { name: 'No integrations yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add an integration' })).toHaveAttribute(
      'href',
      '/bot/integration/add',
    );
  });

  it('/bot/integration/chatbot asks for the chatbot engines only, with an add button', async () => {
    const api = stub();
    renderRoute(<ChatbotPage />, { path: '/bot/integration/chatbot', session: SESSION });
    expect(await screen.findByRole('link', { name: 'House GPT' })).toBeInTheDocument();
    const urls = api.fetchMock.mock.calls.map(([input]) => (typeof input === 'string' ? input : ''));
    expect(urls.filter((url) => url.startsWith('/v1/integrations'))).toEqual([
      '/v1/integrations?kind=chatbot',
    ]);
    expect(screen.getByRole('link', { name: 'Add chatbot engine' })).toHaveAttribute(
      'href',
      '/bot/integration/add',
    );
  });

  it('/bot/integration/add offers both engines', async () => {
    stub();
    renderRoute(<AddPage />, { path: '/bot/integration/add', session: SESSION });
    expect(await screen.findByRole('heading', { level: 1, name: 'Add integration' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'OpenAI-compatible' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Builtin (Omni RAG)' })).toBeInTheDocument();
  });

  it('/bot/integration/view shows the settings, tests the connection and lists the bots using it', async () => {
    stub();
    const user = userEvent.setup();
    renderRoute(<ViewPage />, { path: `/bot/integration/view?id=${OPENAI_ID}`, session: SESSION });
    expect(await screen.findByRole('heading', { level: 1, name: 'House GPT' })).toBeInTheDocument();
    expect(screen.getByLabelText('Stored API key')).toHaveTextContent('****wxyz');
    expect(screen.getByText(/No bot answers with this integration yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Test connection' }));
    expect(await screen.findByText('Could not connect to llm.example.com.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeEnabled();
  });

  it('/bot/integration/view of an integration in use names its bots and keeps it from deletion', async () => {
    stub();
    renderRoute(<ViewPage />, { path: `/bot/integration/view?id=${BUILTIN_ID}`, session: SESSION });
    expect(await screen.findByRole('heading', { level: 1, name: 'Support RAG' })).toBeInTheDocument();
    const bots = screen.getByRole('list', { name: 'Bots using this integration' });
    expect(within(bots).getByText('Shop helper')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeDisabled();
  });

  it('/bot/integration/view says when the integration does not exist', async () => {
    stub();
    renderRoute(<ViewPage />, {
      path: '/bot/integration/view?id=00000000-0000-4000-8000-000000000000',
      session: SESSION,
    });
    expect(await screen.findByText('Integration not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the integrations' })).toHaveAttribute(
      'href',
      '/bot/integration/list',
    );
  });
});
