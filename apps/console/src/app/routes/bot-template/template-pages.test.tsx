import { screen, waitFor } from '@testing-library/react';
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

const SESSION: Session = {
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role: 'user', tenant_id: 't-acme' },
  features: [],
  signOut: () => Promise.resolve(),
};

function stub() {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path, body) => {
      if (method === 'GET' && path === '/v1/bots') return listOf([BOT]);
      if (method === 'GET' && path === '/v1/bot-templates') return json(200, { items: [] });
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
});
