import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubAuthApi } from '../../../test/fake-auth-api';
import { INDEX, listOf, RAG } from '../../../test/rag-fixture';
import { renderRoute } from '../../../test/render';
import { RagList } from './rag-list';

function stubRags(rags: unknown[], indexes: unknown[]) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      if (method !== 'GET') return undefined;
      if (path === '/v1/rags') return listOf(rags);
      if (path === '/v1/indexes') return listOf(indexes, { vector_search: 'exact' });
      return undefined;
    },
  });
}

describe('RagList', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('tells an organisation without an index to create one first', async () => {
    stubRags([], []);
    renderRoute(<RagList />);
    expect(await screen.findByRole('heading', { name: 'Create an index first' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create an index' })).toHaveAttribute('href', '/index');
    expect(screen.getByRole('link', { name: 'Add a RAG' })).toHaveAttribute('href', '/rag/add');
  });

  it('offers the first RAG once there is an index', async () => {
    stubRags([], [INDEX]);
    renderRoute(<RagList />);
    expect(await screen.findByRole('heading', { name: 'No RAGs yet' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add a RAG' })).toHaveAttribute('href', '/rag/add');
  });

  it('lists each RAG with its index, prompt and model, linked to its page', async () => {
    stubRags(
      [
        RAG,
        {
          ...RAG,
          id: 'r2',
          name: 'Sales answers',
          prompt_id: 'p',
          prompt_name: 'Help desk',
          model_id: 'm',
          model_name: 'House model',
        },
      ],
      [INDEX],
    );
    renderRoute(<RagList />);
    expect(await screen.findByRole('link', { name: 'Support answers' })).toHaveAttribute(
      'href',
      `/rag/view?id=${RAG.id}`,
    );
    expect(screen.getAllByText('Manuals index')).toHaveLength(2);
    expect(screen.getByText('Extractive (no model)')).toBeInTheDocument();
    expect(screen.getByText('Built-in prompt')).toBeInTheDocument();
    expect(screen.getByText('House model')).toBeInTheDocument();
    expect(screen.getByText('Help desk')).toBeInTheDocument();
  });
});
