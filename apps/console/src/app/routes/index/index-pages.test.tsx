import { AGENT_READ_ONLY_MESSAGE } from '@omnibot/contracts';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Session } from '../../../lib/session';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import {
  embeddingModelFixture,
  INDEX_ID,
  indexFixture,
  KB_MANUALS,
  knowledgeFixture,
} from '../../../test/index-fixture';
import { renderRoute } from '../../../test/render';
import { TestProviders } from '../../../test/test-providers';
import { routes } from '../../router';
import { Component as IndexAddPage } from './index-add-page';
import { Component as IndexViewPage } from './index-view-page';

const AGENT: Session = {
  tenantName: 'Acme',
  tenantType: '3',
  profile: { role: 'agent', tenant_id: 't-acme' },
  features: ['omnirag'],
  signOut: () => Promise.resolve(),
};

interface FakeIndexesApi {
  knowledge?: unknown[];
  models?: unknown[];
  indexes?: unknown[];
  vectorSearch?: 'hnsw' | 'exact';
  /** Answers of GET /v1/indexes/:id in turn; the last one repeats. */
  details?: unknown[];
  /** Answers POST /v1/indexes and DELETE /v1/indexes/:id. */
  create?: () => Response;
  remove?: () => Response;
  update?: () => Response;
}

function stubIndexesApi(fake: FakeIndexesApi = {}) {
  let detailCalls = 0;
  const list = (items: unknown[], extra: object = {}) =>
    json(200, { items, total: items.length, page: 1, page_size: 100, ...extra });
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      const route = `${method} ${path}`;
      if (route === 'GET /v1/knowledge')
        return list(fake.knowledge ?? [knowledgeFixture(KB_MANUALS, 'Manuals')]);
      if (route === 'GET /v1/models/available')
        return json(200, { items: fake.models ?? [embeddingModelFixture] });
      if (route === 'GET /v1/indexes')
        return list(fake.indexes ?? [], { vector_search: fake.vectorSearch ?? 'hnsw' });
      if (route === 'POST /v1/indexes') return fake.create?.();
      if (route === `GET /v1/indexes/${INDEX_ID}`) {
        const answers = fake.details ?? [indexFixture()];
        const answer = answers[Math.min(detailCalls, answers.length - 1)];
        detailCalls += 1;
        return json(200, answer);
      }
      if (route === `DELETE /v1/indexes/${INDEX_ID}`) return fake.remove?.();
      if (route === `PATCH /v1/indexes/${INDEX_ID}`) return fake.update?.();
      return undefined;
    },
  });
}

const renderAt = (path: string) => {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />, { wrapper: TestProviders });
  return router;
};

const detailCalls = (calls: string[]) =>
  calls.filter((call) => call === `GET /v1/indexes/${INDEX_ID}`).length;

describe('the index pages', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('/index lists the indexes, and without knowledge bases says to create one first', async () => {
    stubIndexesApi({ knowledge: [] });
    renderAt('/index');
    expect(await screen.findByRole('heading', { name: 'Indexes' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Create a knowledge base' })).toHaveAttribute(
      'href',
      '/knowledge/add',
    );
    expect(screen.getByRole('link', { name: 'Create index' })).toHaveAttribute('href', '/index/add');
  });

  it('/index/add creates the index, says so and opens it', async () => {
    const created = indexFixture({
      mode: 'keyword',
      embedding_model_id: null,
      embedding: { state: 'none', done: 0, total: 0, error: null },
    });
    const { bodyOf } = stubIndexesApi({ create: () => json(201, created), details: [created] });
    const user = userEvent.setup();
    const router = renderAt('/index/add');
    await fill(user, await screen.findByRole('textbox', { name: /name/i }), 'Support search');
    await user.click(screen.getByRole('combobox', { name: /knowledge bases/i }));
    await user.click(await screen.findByRole('option', { name: 'Manuals' }));
    await user.click(screen.getByRole('button', { name: 'Create index' }));

    expect((await screen.findAllByText('Index "Support search" was created.')).length).toBeGreaterThan(0);
    await waitFor(() => expect(router.state.location.search).toBe(`?id=${INDEX_ID}`));
    expect(router.state.location.pathname).toBe('/index/view');
    expect(bodyOf('/v1/indexes')).toEqual({
      name: 'Support search',
      knowledge_ids: [KB_MANUALS],
      mode: 'keyword',
      top_k: 5,
      score_threshold: 0,
      embedding_model_id: null,
    });
    expect(await screen.findByRole('heading', { name: 'Support search', level: 1 })).toBeInTheDocument();
  });

  it('/index/add shows a taken name on the name field', async () => {
    stubIndexesApi({
      create: () =>
        json(409, {
          code: 'index/name-taken',
          message: 'Another index of your organisation already has this name.',
        }),
    });
    const user = userEvent.setup();
    const router = renderAt('/index/add');
    await fill(user, await screen.findByRole('textbox', { name: /name/i }), 'Support search');
    await user.click(screen.getByRole('combobox', { name: /knowledge bases/i }));
    await user.click(await screen.findByRole('option', { name: 'Manuals' }));
    await user.click(screen.getByRole('button', { name: 'Create index' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /name/i })).toHaveAccessibleDescription(
        /already has this name/,
      ),
    );
    expect(router.state.location.pathname).toBe('/index/add');
  });

  it('/index/view follows the embedding every 2 s until it is ready, and notes exact vector search', async () => {
    const { calls } = stubIndexesApi({
      vectorSearch: 'exact',
      details: [
        indexFixture({ embedding: { state: 'embedding', done: 10, total: 40, error: null } }),
        indexFixture({ embedding: { state: 'ready', done: 40, total: 40, error: null } }),
      ],
    });
    renderAt(`/index/view?id=${INDEX_ID}`);
    expect(await screen.findByText('10 of 40 chunks embedded (25 %).')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Chunks embedded' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );
    expect(screen.getByText(/answers with keyword retrieval/)).toBeInTheDocument();
    expect(await screen.findByText('Exact vector search')).toBeInTheDocument();

    expect(await screen.findByText('40 of 40 chunks embedded (100 %).')).toBeInTheDocument();
    expect(screen.getByText('Ready')).toBeInTheDocument();
    const callsWhenReady = detailCalls(calls());
    expect(callsWhenReady).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(detailCalls(calls())).toBe(callsWhenReady);
  });

  it("/index/view shows why embedding failed and the index's settings in the form", async () => {
    stubIndexesApi({
      details: [
        indexFixture({
          embedding: {
            state: 'failed',
            done: 3,
            total: 40,
            error: { code: 'embedding_failed', reason: 'The embedding model answered 401 Unauthorized.' },
          },
        }),
      ],
    });
    renderAt(`/index/view?id=${INDEX_ID}`);
    expect(await screen.findByText(/The embedding model answered 401 Unauthorized./)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /^name/i })).toHaveValue('Support search');
    expect(screen.getByRole('radio', { name: /^Hybrid/ })).toBeChecked();
    expect(screen.queryByText('Exact vector search')).not.toBeInTheDocument();
  });

  it('/index/view explains that RAGs keep an index they use', async () => {
    stubIndexesApi({
      remove: () =>
        json(409, {
          code: 'index/in-use',
          message: 'RAGs use this index; point them at another index first.',
        }),
    });
    const user = userEvent.setup();
    const router = renderAt(`/index/view?id=${INDEX_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    // The root route and the test wrapper both hold a ModalsProvider, so the confirmation shows twice.
    const [dialog] = await screen.findAllByRole('dialog', { name: 'Delete index' });
    if (!dialog) throw new Error('No confirmation');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect((await screen.findAllByText('The index is in use')).length).toBeGreaterThan(0);
    expect(
      screen.getAllByText('RAGs use this index; point them at another index first.').length,
    ).toBeGreaterThan(0);
    expect(router.state.location.pathname).toBe('/index/view');
  });

  it('/index/view saves only what changed', async () => {
    const { fetchMock } = stubIndexesApi({ update: () => json(200, indexFixture({ top_k: 8 })) });
    const user = userEvent.setup();
    renderAt(`/index/view?id=${INDEX_ID}`);
    const topK = await screen.findByRole('textbox', { name: 'Results (top k)' });
    await user.clear(topK);
    await user.type(topK, '8');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findAllByText('The index was saved.')).length).toBeGreaterThan(0);
    const patches = fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH');
    expect(
      patches.map(([, init]): unknown => (typeof init?.body === 'string' ? JSON.parse(init.body) : null)),
    ).toEqual([{ top_k: 8 }]);
  });

  it('/index/view shows an agent the settings read-only and keeps the retrieval test', async () => {
    const { calls } = stubIndexesApi();
    renderRoute(<IndexViewPage />, { path: `/index/view?id=${INDEX_ID}`, session: AGENT });
    const name = await screen.findByRole('textbox', { name: /^name/i });
    expect(name).toHaveValue('Support search');
    expect(name).toBeDisabled();
    expect(screen.getByRole('radio', { name: /^Hybrid/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^Hybrid/ })).toBeDisabled();
    expect(screen.getByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^save$|^delete$/i })).toBeNull();

    const test = screen.getByRole('form', { name: 'Retrieval test' });
    expect(within(test).getByRole('textbox', { name: /^query/i })).toBeEnabled();
    expect(within(test).getByRole('button', { name: 'Test retrieval' })).toBeEnabled();
    expect(calls().filter((call) => !call.startsWith('GET '))).toEqual([]);
  });

  it('/index/add tells an agent why there is no form and leads back to the indexes', async () => {
    stubIndexesApi();
    renderRoute(<IndexAddPage />, { path: '/index/add', session: AGENT });
    expect(await screen.findByText(AGENT_READ_ONLY_MESSAGE)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the indexes' })).toHaveAttribute('href', '/index');
    expect(screen.queryByRole('textbox', { name: /^name/i })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Create index' })).toBeNull();
  });
});
