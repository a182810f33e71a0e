import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { fill } from '../../../test/fill';
import { hitFixture, INDEX_ID, indexFixture } from '../../../test/index-fixture';
import { renderRoute } from '../../../test/render';
import { RetrievalTest } from './retrieval-test';

function stubSearch(answer: unknown) {
  return stubAuthApi({
    signedIn: true,
    handle: (method, path) =>
      method === 'POST' && path === `/v1/indexes/${INDEX_ID}/search` ? json(200, answer) : undefined,
  });
}

describe('RetrievalTest', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('refuses an empty query without asking the API', async () => {
    const { calls } = stubSearch({ mode: 'hybrid', items: [], took_ms: 1 });
    const user = userEvent.setup();
    renderRoute(<RetrievalTest index={indexFixture()} />);
    await user.click(screen.getByRole('button', { name: 'Test retrieval' }));
    expect(await screen.findByText('The query is required')).toBeInTheDocument();
    expect(calls().filter((call) => call.includes('/search'))).toEqual([]);
  });

  it('shows the ranked hits with score, source link, heading path and page, the mode and the time', async () => {
    const { bodyOf } = stubSearch({
      mode: 'hybrid',
      took_ms: 23.4,
      items: [
        hitFixture(),
        hitFixture({
          id: 'c2',
          text: 'Returns are free within 30 days.',
          score: 0.5,
          heading_path: [],
          page: null,
          source: { id: 's2', knowledge_id: 'k', title: 'Returns', url: 'https://acme.test/returns' },
        }),
        hitFixture({
          id: 'c3',
          source: {
            id: 's3',
            knowledge_id: 'k',
            title: 'Hostile',
            url: "javascript:window.__xss=1;void'.pdf'",
          },
        }),
      ],
    });
    const user = userEvent.setup();
    renderRoute(<RetrievalTest index={indexFixture()} />);
    await fill(user, screen.getByRole('textbox', { name: 'Query' }), 'how do I reset the router');
    await fill(user, screen.getByRole('textbox', { name: 'Top k for this test' }), '3');
    await user.click(screen.getByRole('button', { name: 'Test retrieval' }));

    const first = await screen.findByRole('listitem', { name: 'Hit 1' });
    expect(bodyOf(`/v1/indexes/${INDEX_ID}/search`)).toEqual({
      query: 'how do I reset the router',
      top_k: 3,
    });
    expect(screen.getByText('3 chunks')).toBeInTheDocument();
    expect(screen.getByText('Hybrid')).toBeInTheDocument();
    expect(screen.getByText('in 23 ms')).toBeInTheDocument();

    expect(within(first).getByText('Score 0.8123')).toBeInTheDocument();
    expect(within(first).getByText('Troubleshooting › Reset › page 12')).toBeInTheDocument();
    expect(within(first).getByRole('link', { name: 'Router manual (opens in a new tab)' })).toHaveAttribute(
      'href',
      `${window.location.origin}/v1/files/download?tenant=t&path=docs%2Fmanuals%2Frouter.pdf&expires=1&signature=s`,
    );
    const second = screen.getByRole('listitem', { name: 'Hit 2' });
    const web = within(second).getByRole('link', { name: 'Returns (opens in a new tab)' });
    expect(web).toHaveAttribute('href', 'https://acme.test/returns');
    expect(web).toHaveAttribute('target', '_blank');
    expect(within(second).getByText('Returns are free within 30 days.')).toBeInTheDocument();
    // Any other address is named, never linked.
    const third = screen.getByRole('listitem', { name: 'Hit 3' });
    expect(within(third).getByText('Hostile')).toBeInTheDocument();
    expect(within(third).queryByRole('link')).toBeNull();
  });

  it('explains an empty result and says when keyword retrieval stood in', async () => {
    stubSearch({ mode: 'keyword', items: [], took_ms: 4 });
    const user = userEvent.setup();
    renderRoute(<RetrievalTest index={indexFixture({ score_threshold: 0.4 })} />);
    await fill(user, screen.getByRole('textbox', { name: 'Query' }), 'warranty');
    await user.click(screen.getByRole('button', { name: 'Test retrieval' }));
    expect(await screen.findByText('No chunk matched')).toBeInTheDocument();
    expect(screen.getByText(/No chunk scored at least 0.4, the index's score threshold/)).toBeInTheDocument();
    expect(
      screen.getByText('Hybrid retrieval is not ready yet, so keyword retrieval ran.'),
    ).toBeInTheDocument();
    expect(screen.getByText('0 chunks')).toBeInTheDocument();
  });
});
