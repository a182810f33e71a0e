import { AGENT_READ_ONLY_MESSAGE } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { BOT } from '../../../test/integration-fixture';
import { listOf } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { Component as CreatePage } from './template-create-page';
import { Component as ManagePage } from './template-manage-page';

const sessionOf = (role: string): Session => ({
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role, tenant_id: 't-acme' },
  features: [],
  signOut: () => Promise.resolve(),
});
const SESSION = sessionOf('user');

const { identity, welcome, appearance, feedback, titles, masking, launcher, window: shape } = BOT.config;
const TEMPLATE = {
  id: '8b9c0d1e-2f3a-4b4c-8d5e-6f7a8b9c0d1e',
  tenant_id: 't-acme',
  name: 'Shop look',
  description: 'Orange, left launcher',
  config: { identity, welcome, appearance, feedback, titles, masking, launcher, window: shape },
  created_by: 'u1',
  updated_by: 'u1',
  created_at: BOT.created_at,
  updated_at: BOT.updated_at,
};

function stub(templates: unknown[] = []) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'GET' && path === '/v1/bots') return listOf([BOT]);
      if (method === 'GET' && path === '/v1/bot-templates') return json(200, { items: templates });
      if (method === 'POST' && path === '/v1/bot-templates') {
        return json(201, {
          id: 'tpl-1',
          tenant_id: 't-acme',
          description: '',
          ...(body as object),
          config: BOT.config,
          created_by: 'u1',
          updated_by: 'u1',
          created_at: BOT.created_at,
          updated_at: BOT.updated_at,
        });
      }
      return undefined;
    },
  });
}

describe('bot template screens', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('/bot/template/manage lists the templates with a way to create one', async () => {
    stub();
    renderRoute(<ManagePage />, { path: '/bot/template/manage', session: SESSION });
    expect(await screen.findByRole('heading', { level: 1, name: 'Bot templates' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create template' })).toHaveAttribute(
      'href',
      '/bot/template/create',
    );
    expect(await screen.findByRole('heading', { name: 'No templates yet' })).toBeInTheDocument();
  });

  it('/bot/template/create saves a template and moves to the templates', async () => {
    stub();
    const user = userEvent.setup();
    renderRoute(<CreatePage />, { path: '/bot/template/create', session: SESSION });
    expect(await screen.findByRole('heading', { level: 1, name: 'Create template' })).toBeInTheDocument();
    await user.click(await screen.findByRole('combobox', { name: /^bot/i }));
    await user.click(await screen.findByRole('option', { name: 'Shop helper' }));
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Shop look');
    await user.click(screen.getByRole('button', { name: 'Save template' }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/bot/template/manage'));
  });

  it('/bot/template/manage shows an agent the templates without create, rename, delete or a bot from one', async () => {
    stub([TEMPLATE]);
    renderRoute(<ManagePage />, { path: '/bot/template/manage', session: sessionOf('agent') });
    const table = await screen.findByRole('table', { name: 'Bot templates' });
    expect(await within(table).findByText('Shop look')).toBeInTheDocument();
    expect(within(table).getByText('Orange, left launcher')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /create (a )?template/i })).toBeNull();
    expect(screen.queryByRole('button', { name: /rename|delete|create bot/i })).toBeNull();
  });

  it('/bot/template/create tells an agent why there is no form and leads back to the templates', async () => {
    stub();
    renderRoute(<CreatePage />, { path: '/bot/template/create', session: sessionOf('agent') });
    expect(await screen.findByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the bot templates' })).toHaveAttribute(
      'href',
      '/bot/template/manage',
    );
    expect(screen.queryByRole('combobox', { name: /^bot/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save template' })).toBeNull();
  });
});
