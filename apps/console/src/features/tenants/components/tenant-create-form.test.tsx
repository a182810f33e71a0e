import { type Account, type AccountCreated, SAFE_TEXT_MESSAGE, type Subscription } from '@omnibot/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { TenantCreateForm } from './tenant-create-form';

const NOW = '2026-01-01T00:00:00.000Z';

const account = (tenant_id: string, name: string, type: Account['type']): Account => ({
  id: `id-${tenant_id}`,
  tenant_id,
  parent_tenant_id: type === '1' ? null : 'platform',
  name,
  type,
  is_active: true,
  address: {},
  info: {},
  created_by: null,
  updated_by: null,
  created_at: NOW,
  updated_at: NOW,
});

const subscription = (code: string, is_current = true): Subscription => ({
  id: `s-${code}`,
  tenant_id: 'partner',
  info: { code, name: code },
  status: is_current ? 'active' : 'revoked',
  starts_at: NOW,
  ends_at: null,
  is_current,
});

const parent = account('partner', 'Northwind', '2');
const held = [subscription('omnirag'), subscription('subtenant'), subscription('casesummary', false)];

describe('TenantCreateForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers only the codes the parent holds now, and no Client Organisations for a client', () => {
    renderRoute(<TenantCreateForm parent={parent} parentSubscriptions={held} onCreated={vi.fn()} />);
    expect(screen.getByRole('checkbox', { name: 'Omni RAG' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Client Organisations' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Case Summarization' })).not.toBeInTheDocument();
    expect(screen.getByText(/new client organisation belongs to/)).toBeInTheDocument();
  });

  it('checks name and subscriptions before anything is sent', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderRoute(<TenantCreateForm parent={parent} parentSubscriptions={held} onCreated={vi.fn()} />);
    await userEvent.type(screen.getByRole('textbox', { name: /^Domain/ }), 'not a domain');
    await userEvent.click(screen.getByRole('button', { name: 'Create organisation' }));
    expect(await screen.findByText('Enter a name')).toBeInTheDocument();
    expect(screen.getByText('Pick at least one subscription')).toBeInTheDocument();
    expect(screen.getByText('must be a domain such as example.com')).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('refuses a name with NUL or an unpaired surrogate, as the server does, before anything is sent', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    renderRoute(<TenantCreateForm parent={parent} parentSubscriptions={held} onCreated={vi.fn()} />);
    await userEvent.click(screen.getByRole('textbox', { name: /^Organisation name/ }));
    await userEvent.paste('Acme\u0000 \ud800');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Omni RAG' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create organisation' }));
    expect(await screen.findByText(SAFE_TEXT_MESSAGE)).toBeInTheDocument();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('creates the child under the parent with the X-App-Id header and hands back the credential', async () => {
    const created: AccountCreated = {
      code: 201,
      account: account('contoso', 'Contoso', '3'),
      credential: { key: 'key-1', secret: 'secret-secret-secret-1234' },
      subscriptions: [subscription('omnirag')],
    };
    const fetch = vi.fn(() => Promise.resolve(json(201, created)));
    vi.stubGlobal('fetch', fetch);
    const onCreated = vi.fn();
    renderRoute(<TenantCreateForm parent={parent} parentSubscriptions={held} onCreated={onCreated} />);
    await userEvent.type(screen.getByRole('textbox', { name: /^Organisation name/ }), '  Contoso ');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Omni RAG' }));
    await userEvent.type(screen.getByRole('textbox', { name: /^Domain/ }), 'Contoso.TEST');
    await userEvent.click(screen.getByRole('button', { name: 'Create organisation' }));

    await waitFor(() => expect(onCreated).toHaveBeenCalledWith(created));
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/v1/Account?tenant_id=partner');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['x-app-id']).toBe('omnibot-console');
    expect(JSON.parse(init.body as string)).toMatchObject({
      name: 'Contoso',
      subscriptions: ['omnirag'],
      info: { domain: 'contoso.test' },
    });
    expect(await screen.findByText('Contoso was created.')).toBeInTheDocument();
  });

  it('shows the server message when the domain is taken, on the field and in a toast', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          json(409, { code: 'domain_taken', message: 'Another organisation already uses this domain.' }),
        ),
      ),
    );
    renderRoute(<TenantCreateForm parent={parent} parentSubscriptions={held} onCreated={vi.fn()} />);
    await userEvent.type(screen.getByRole('textbox', { name: /^Organisation name/ }), 'Contoso');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Omni RAG' }));
    await userEvent.type(screen.getByRole('textbox', { name: /^Domain/ }), 'taken.test');
    await userEvent.click(screen.getByRole('button', { name: 'Create organisation' }));
    expect(await screen.findAllByText('Another organisation already uses this domain.')).toHaveLength(2);
    expect(screen.getByText('The organisation was not created')).toBeInTheDocument();
  });
});
