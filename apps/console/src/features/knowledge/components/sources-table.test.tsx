import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { renderRoute } from '../../../test/render';
import { SourcesTable } from './sources-table';

const KB = '3d7e2f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const SOURCE = {
  id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  knowledge_id: KB,
  type: 'text',
  title: 'Returns policy',
  url: null,
  path: null,
  state: 'indexing',
  error: null,
  chunk_count: 0,
  content_hash: null,
  last_synced_at: null,
  created_by: 'u1',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

function stubSources(answers: unknown[][]) {
  let call = 0;
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) => {
      if (method !== 'GET' || path !== `/v1/knowledge/${KB}/sources`) return undefined;
      const items = answers[Math.min(call, answers.length - 1)] ?? [];
      call += 1;
      return json(200, { items, total: items.length, page: 1, page_size: 100 });
    },
  });
}

const sourceCalls = (calls: unknown[][]) =>
  calls.filter(([input]) => String(input).includes(`/v1/knowledge/${KB}/sources`)).length;

describe('SourcesTable', () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows a failed source's reason in plain words", async () => {
    stubSources([
      [
        {
          ...SOURCE,
          state: 'failed',
          error: { code: 'fetch_failed', reason: 'The page answered 404 Not Found.' },
        },
      ],
    ]);
    renderRoute(<SourcesTable knowledgeId={KB} onShowChunks={() => undefined} />);
    expect(await screen.findByText('The page answered 404 Not Found.')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
  });

  it('asks again while a source is indexing and stops once it is ready', async () => {
    const ready = {
      ...SOURCE,
      state: 'ready',
      chunk_count: 4,
      content_hash: 'ab12cd34ef56ab12cd34ef56',
      last_synced_at: '2026-01-01T00:01:00.000Z',
    };
    const { fetchMock } = stubSources([[SOURCE], [ready]]);
    renderRoute(<SourcesTable knowledgeId={KB} onShowChunks={() => undefined} />);
    expect(await screen.findByText('Indexing')).toBeInTheDocument();

    expect(await screen.findByText('Ready')).toBeInTheDocument();
    const row = screen.getByText('Returns policy').closest('tr') ?? document.body;
    expect(within(row).getByText('4')).toBeInTheDocument();
    expect(within(row).getByText('ab12cd34ef56')).toBeInTheDocument();
    const callsWhenReady = sourceCalls(fetchMock.mock.calls);
    expect(callsWhenReady).toBe(2);

    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(sourceCalls(fetchMock.mock.calls)).toBe(callsWhenReady);
  });
});
