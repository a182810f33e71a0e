import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { INDEX_ID, indexFixture, KB_FAQ, KB_MANUALS } from '../../../test/index-fixture';
import { renderRoute } from '../../../test/render';
import { IndexList } from './index-list';

function stubIndexes(items: unknown[]) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) =>
      method === 'GET' && path === '/v1/indexes'
        ? json(200, { items, total: items.length, page: 1, page_size: 100, vector_search: 'hnsw' })
        : undefined,
  });
}

describe('IndexList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells the user to create the first index, with a link to the form', async () => {
    stubIndexes([]);
    renderRoute(<IndexList hasKnowledge />);
    expect(await screen.findByRole('heading', { name: 'No indexes yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an index' })).toHaveAttribute('href', '/index/add');
  });

  it('sends the user to create a knowledge base first when there is none', async () => {
    stubIndexes([]);
    renderRoute(<IndexList hasKnowledge={false} />);
    expect(await screen.findByRole('heading', { name: 'No indexes yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a knowledge base' })).toHaveAttribute(
      'href',
      '/knowledge/add',
    );
  });

  it('shows name, mode, knowledge bases, top k and how far the embeddings are', async () => {
    stubIndexes([
      indexFixture({
        knowledge_ids: [KB_MANUALS, KB_FAQ],
        knowledge: [
          { id: KB_MANUALS, name: 'Manuals' },
          { id: KB_FAQ, name: 'FAQ' },
        ],
        top_k: 8,
        embedding: { state: 'embedding', done: 30, total: 120, error: null },
      }),
    ]);
    renderRoute(<IndexList hasKnowledge />);
    const link = await screen.findByRole('link', { name: 'Support search' });
    expect(link).toHaveAttribute('href', `/index/view?id=${INDEX_ID}`);
    const row = link.closest('tr') ?? document.body;
    expect(within(row).getByText('Hybrid')).toBeInTheDocument();
    expect(within(row).getByText('Manuals, FAQ')).toBeInTheDocument();
    expect(within(row).getByText('8')).toBeInTheDocument();
    expect(within(row).getByText('Embedding 25 %')).toBeInTheDocument();
  });
});
