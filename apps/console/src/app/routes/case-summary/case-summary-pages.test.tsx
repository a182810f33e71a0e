import type { CaseSummaryConfig } from '@omnibot/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { botListOf, makeBot } from '../../../test/bot-fixture';
import { fill } from '../../../test/fill';
import { renderRoute } from '../../../test/render';
import { Component as AddPage } from './case-summary-add-page';
import { Component as ListPage } from './case-summary-list-page';
import { Component as ViewPage } from './case-summary-view-page';

const session = (role: string): Session => ({
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role, tenant_id: 't-acme' },
  features: ['casesummary'],
  signOut: () => Promise.resolve(),
});
const ADMIN = session('administrator');
const AGENT = session('agent');

const BOT_ID = '11111111-1111-4111-8111-111111111111';
const CONFIG: CaseSummaryConfig = {
  id: '22222222-2222-4222-8222-222222222222',
  tenant_id: 't-acme',
  name: 'Support',
  bots: [{ id: BOT_ID, name: 'Help desk' }],
  model_id: null,
  model_name: null,
  sections: ['issue', 'answers', 'open', 'sentiment'],
  max_chars: 800,
  triggers: ['handover'],
  created_by: null,
  updated_by: null,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
};

/** The bots and chat models the form offers. */
function options(method: string, path: string) {
  if (method === 'GET' && path === '/v1/bots') {
    return botListOf([makeBot({ id: BOT_ID, name: 'Help desk' })]);
  }
  if (method === 'GET' && path === '/v1/models/available') return json(200, { items: [] });
  return undefined;
}

describe('/cs/config', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists the configurations with their bots, model and trigger', async () => {
    stubAuthApi({
      signedIn: true,
      handle: (method, path) =>
        method === 'GET' && path === '/v1/case-summary-configs' ? json(200, { items: [CONFIG] }) : undefined,
    });
    renderRoute(<ListPage />, { path: '/cs/config', session: ADMIN });
    const table = await screen.findByRole('table', { name: 'Case-summary configurations' });
    const row = await within(table).findByRole('row', { name: /Support/ });
    expect(row).toHaveTextContent('Help desk');
    expect(row).toHaveTextContent('Extractive');
    expect(row).toHaveTextContent('At hand-over');
    expect(screen.getByRole('link', { name: /add configuration/i })).toHaveAttribute(
      'href',
      '/cs/config/add',
    );
  });

  it('says what to do next when there is none', async () => {
    stubAuthApi({
      signedIn: true,
      handle: (method, path) =>
        method === 'GET' && path === '/v1/case-summary-configs' ? json(200, { items: [] }) : undefined,
    });
    renderRoute(<ListPage />, { path: '/cs/config', session: ADMIN });
    expect(await screen.findByText('No case-summary configurations yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a configuration' })).toBeInTheDocument();
  });

  it('creates a configuration, says so and opens it', async () => {
    const { bodyOf } = stubAuthApi({
      signedIn: true,
      handle: (method, path) =>
        method === 'POST' && path === '/v1/case-summary-configs' ? json(201, CONFIG) : options(method, path),
    });
    const user = userEvent.setup();
    renderRoute(<AddPage />, { path: '/cs/config/add', session: ADMIN });
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Support');
    await user.click(screen.getByRole('combobox', { name: /^bots/i }));
    await user.click(await screen.findByRole('option', { name: 'Help desk' }));
    await user.click(screen.getByRole('checkbox', { name: /At close/ }));
    await user.click(screen.getByRole('button', { name: 'Create configuration' }));
    expect(await screen.findByText('Configuration "Support" was created.')).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('location')).toHaveTextContent(`/cs/config/view?id=${CONFIG.id}`),
    );
    expect(bodyOf('/v1/case-summary-configs')).toEqual({
      name: 'Support',
      bot_ids: [BOT_ID],
      model_id: null,
      sections: ['issue', 'answers', 'open', 'sentiment'],
      max_chars: 800,
      triggers: ['handover', 'close'],
    });
  });

  it('validates before sending: no bot, no section and a length out of range are named', async () => {
    const { calls } = stubAuthApi({ signedIn: true, handle: options });
    const user = userEvent.setup();
    renderRoute(<AddPage />, { path: '/cs/config/add', session: ADMIN });
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Support');
    for (const name of [/^Issue/, /^Bot answered/, /^Still open/, /^Sentiment/]) {
      await user.click(screen.getByRole('checkbox', { name }));
    }
    const length = screen.getByRole('textbox', { name: /length limit/i });
    await user.clear(length);
    await user.type(length, '50');
    await user.click(screen.getByRole('button', { name: 'Create configuration' }));
    expect(await screen.findByText('Choose at least one bot')).toBeInTheDocument();
    expect(screen.getByText('Choose at least one section')).toBeInTheDocument();
    expect(screen.getByText('The length limit is at least 200 characters')).toBeInTheDocument();
    expect(calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it('shows a bot taken by another configuration on the bots field', async () => {
    stubAuthApi({
      signedIn: true,
      handle: (method, path) =>
        method === 'POST' && path === '/v1/case-summary-configs'
          ? json(409, {
              code: 'case-summary/bot-taken',
              message:
                'The bot Help desk is already summarised by the configuration Old; take it out there first.',
            })
          : options(method, path),
    });
    const user = userEvent.setup();
    renderRoute(<AddPage />, { path: '/cs/config/add', session: ADMIN });
    await fill(user, screen.getByRole('textbox', { name: /^name/i }), 'Support');
    await user.click(screen.getByRole('combobox', { name: /^bots/i }));
    await user.click(await screen.findByRole('option', { name: 'Help desk' }));
    await user.click(screen.getByRole('button', { name: 'Create configuration' }));
    expect(
      (await screen.findAllByText(/already summarised by the configuration Old/)).length,
    ).toBeGreaterThan(0);
    expect(screen.getByTestId('location')).toHaveTextContent('/cs/config/add');
  });

  it('saves changes on the view page', async () => {
    const { calls } = stubAuthApi({
      signedIn: true,
      handle: (method, path) => {
        if (path === `/v1/case-summary-configs/${CONFIG.id}`) {
          return method === 'PATCH' ? json(200, { ...CONFIG, max_chars: 500 }) : json(200, CONFIG);
        }
        return options(method, path);
      },
    });
    const user = userEvent.setup();
    renderRoute(<ViewPage />, { path: `/cs/config/view?id=${CONFIG.id}`, session: ADMIN });
    const length = await screen.findByRole('textbox', { name: /length limit/i });
    await user.clear(length);
    await user.type(length, '500');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('The configuration was saved.')).toBeInTheDocument();
    expect(calls()).toContain(`PATCH /v1/case-summary-configs/${CONFIG.id}`);
  });

  it('lets an agent read but not change', async () => {
    stubAuthApi({
      signedIn: true,
      handle: (method, path) => {
        if (path === '/v1/case-summary-configs') return json(200, { items: [CONFIG] });
        if (path === `/v1/case-summary-configs/${CONFIG.id}`) return json(200, CONFIG);
        return options(method, path);
      },
    });
    const list = renderRoute(<ListPage />, { path: '/cs/config', session: AGENT });
    expect(await screen.findByRole('link', { name: 'Support' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /add configuration/i })).toBeNull();
    list.unmount();
    renderRoute(<ViewPage />, { path: `/cs/config/view?id=${CONFIG.id}`, session: AGENT });
    expect(await screen.findByRole('heading', { name: 'Support' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
  });
});
