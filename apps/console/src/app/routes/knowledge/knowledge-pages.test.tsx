import { AGENT_READ_ONLY_MESSAGE } from '@omnibot/contracts';
import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { Component as AddPage } from './knowledge-add-page';
import { Component as BulkPage } from './knowledge-bulk-page';
import { Component as ViewPage } from './knowledge-view-page';

const sessionOf = (role: string): Session => ({
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role, tenant_id: 't-acme' },
  features: ['omnirag'],
  signOut: () => Promise.resolve(),
});

const KB = '3d7e2f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const BASE = {
  id: KB,
  tenant_id: 't-acme',
  name: 'Support articles',
  language: 'english',
  text_search_config: 'english',
  chunking: { target_words: 300, overlap: 0.1 },
  created_by: 'u1',
  updated_by: 'u1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};
const SOURCE = {
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  knowledge_id: KB,
  type: 'text',
  title: 'Returns policy',
  url: null,
  path: null,
  state: 'ready',
  error: null,
  chunk_count: 3,
  content_hash: null,
  last_synced_at: '2026-01-02T00:00:00.000Z',
  sync: { frequency: 'off' },
  next_sync_at: null,
  last_sync_result: null,
  created_by: 'u1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function stub() {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      if (method !== 'GET') return undefined;
      if (path === `/v1/knowledge/${KB}`) return json(200, BASE);
      if (path === `/v1/knowledge/${KB}/sources`) {
        return json(200, { items: [SOURCE], total: 1, page: 1, page_size: 100 });
      }
      return undefined;
    },
  });
}

describe('knowledge base screens', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('/knowledge/view offers a user the settings, the sources and their actions', async () => {
    stub();
    renderRoute(<ViewPage />, { path: `/knowledge/view?id=${KB}`, session: sessionOf('user') });
    expect(await screen.findByRole('textbox', { name: /^name/i })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Save' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Bulk add' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Add source' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Sync Returns policy now' })).toBeInTheDocument();
    expect(screen.queryByText(AGENT_READ_ONLY_MESSAGE)).toBeNull();
  });

  it('/knowledge/view shows an agent the settings and sources read-only, with their chunks', async () => {
    stub();
    renderRoute(<ViewPage />, { path: `/knowledge/view?id=${KB}`, session: sessionOf('agent') });
    const name = await screen.findByRole('textbox', { name: /^name/i });
    expect(name).toHaveValue('Support articles');
    expect(name).toBeDisabled();
    expect(screen.getByRole('textbox', { name: /words per chunk/i })).toHaveValue('300');
    expect(screen.getByRole('textbox', { name: /words per chunk/i })).toBeDisabled();
    expect(screen.getByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();

    const sources = await screen.findByRole('table', { name: 'Sources' });
    expect(await within(sources).findByText('Returns policy')).toBeInTheDocument();
    expect(within(sources).getByRole('button', { name: 'Show the chunks of Returns policy' })).toBeEnabled();
    expect(screen.queryByRole('button', { name: /^save$|^delete|re-sync/i })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Bulk add' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Add source' })).toBeNull();
  });

  it('/knowledge/add and /knowledge/bulk tell an agent why there is no form and lead back', async () => {
    stub();
    const add = renderRoute(<AddPage />, { path: '/knowledge/add', session: sessionOf('agent') });
    expect(await screen.findByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the knowledge bases' })).toHaveAttribute(
      'href',
      '/knowledge',
    );
    expect(screen.queryByRole('textbox', { name: /^name/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create knowledge base' })).toBeNull();
    add.unmount();

    renderRoute(<BulkPage />, { path: `/knowledge/bulk?id=${KB}`, session: sessionOf('agent') });
    expect(await screen.findByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Support articles' })).toHaveAttribute(
      'href',
      `/knowledge/view?id=${KB}`,
    );
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.queryByRole('button', { name: /^add/i })).toBeNull();
  });
});
