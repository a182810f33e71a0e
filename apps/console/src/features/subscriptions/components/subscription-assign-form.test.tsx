import type { Subscription } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { SubscriptionAssignForm } from './subscription-assign-form';

const subscription = (code: string, overrides: Partial<Subscription> = {}): Subscription => ({
  id: `00000000-0000-4000-8000-00000000000${code.length}`,
  tenant_id: 'client',
  info: { code, name: code },
  status: 'active',
  starts_at: '2026-01-01T00:00:00.000Z',
  ends_at: null,
  is_current: true,
  ...overrides,
});

describe('SubscriptionAssignForm', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('ticks what the organisation holds and saves the difference after a confirmation', async () => {
    const calls: Array<{ method: string; url: string; body: unknown }> = [];
    let subscriptions = [subscription('casesummary')];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string, init: RequestInit = {}) => {
        const method = init.method ?? 'GET';
        if (method === 'GET') return Promise.resolve(json(200, { code: 200, items: subscriptions }));
        const body: unknown = init.body ? JSON.parse(init.body as string) : undefined;
        calls.push({ method, url, body });
        if (method === 'POST') {
          const created = subscription('omnirag');
          subscriptions = [...subscriptions, created];
          return Promise.resolve(json(201, { code: 201, subscription: created }));
        }
        const revoked = subscription('casesummary', { status: 'revoked', is_current: false });
        subscriptions = [revoked, ...subscriptions.slice(1)];
        return Promise.resolve(json(200, { code: 200, subscription: revoked }));
      }),
    );
    renderRoute(
      <SubscriptionAssignForm
        tenantId="client"
        organisationName="Contoso"
        codes={['casesummary', 'omnirag']}
      />,
    );
    const caseSummary = await screen.findByRole('checkbox', { name: 'Case Summarization' });
    const omniRag = screen.getByRole('checkbox', { name: 'Omni RAG' });
    expect(caseSummary).toBeChecked();
    expect(omniRag).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Save changes' })).toBeDisabled();

    await userEvent.click(caseSummary);
    await userEvent.click(omniRag);
    expect(screen.getByText('2 changes to save.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));

    const dialog = await screen.findByRole('dialog', { name: 'Change the subscriptions of Contoso?' });
    expect(dialog).toHaveTextContent(
      'Case Summarization will be revoked (also in the organisations below it).',
    );
    expect(dialog).toHaveTextContent('Omni RAG will be assigned.');
    expect(calls).toEqual([]);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save changes' }));

    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[0]).toEqual({
      method: 'PUT',
      url: `/v1/Account/client/Subscription/${subscription('casesummary').id}`,
      body: { status: 'revoked' },
    });
    expect(calls[1]).toEqual({
      method: 'POST',
      url: '/v1/Account/client/Subscription',
      body: { info: { code: 'omnirag' }, status: 'active' },
    });
    expect(await screen.findByText('2 changes saved for Contoso.')).toBeInTheDocument();
    expect(await screen.findByText('No changes.')).toBeInTheDocument();
  });

  it('asks nothing and sends nothing when the user cancels', async () => {
    const fetch = vi.fn(() => Promise.resolve(json(200, { code: 200, items: [subscription('omnirag')] })));
    vi.stubGlobal('fetch', fetch);
    renderRoute(<SubscriptionAssignForm tenantId="client" organisationName="Contoso" codes={['omnirag']} />);
    await userEvent.click(await screen.findByRole('checkbox', { name: 'Omni RAG' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(screen.getByText('1 change to save.')).toBeInTheDocument();
  });
});
