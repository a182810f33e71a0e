import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
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
  sync: { frequency: 'off' },
  next_sync_at: null,
  last_sync_result: null,
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

  const PAGE = {
    ...SOURCE,
    id: '1b2c3d4e-5f60-4a7b-8c9d-0e1f2a3b4c5d',
    type: 'url',
    title: 'Ferry times',
    url: 'https://example.com/ferry',
    state: 'ready',
    chunk_count: 3,
    last_synced_at: '2026-01-01T00:01:00.000Z',
    sync: { frequency: 'daily', time: '03:30', time_zone: 'Europe/Berlin' },
    next_sync_at: '2099-01-02T02:30:00.000Z',
    last_sync_result: {
      outcome: 'unchanged',
      message: 'The page has not changed since the last sync (the site answered 304 Not Modified).',
      at: '2026-01-01T00:01:00.000Z',
    },
  };

  it("shows a web page's schedule, its last sync with the result and its next sync", async () => {
    stubSources([[PAGE, SOURCE]]);
    renderRoute(<SourcesTable knowledgeId={KB} onShowChunks={() => undefined} />);
    const row = (await screen.findByText('Ferry times')).closest('tr') ?? document.body;
    expect(within(row).getByText('Daily at 03:30 (Europe/Berlin)')).toBeInTheDocument();
    expect(within(row).getByText(/Unchanged: The page has not changed/)).toBeInTheDocument();
    expect(within(row).getByText(/^in [\d,.\s]+ days$/)).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Re-sync schedule of Ferry times' })).toBeInTheDocument();
    // A pasted text is never fetched again, so it has no schedule.
    const text = screen.getByText('Returns policy').closest('tr') ?? document.body;
    expect(within(text).queryByRole('button', { name: /Re-sync schedule/ })).toBeNull();
    expect(within(text).queryByText(/^Next:/)).toBeNull();
  });

  it('checks the schedule before sending it, then sends a weekly one', async () => {
    const sent: unknown[] = [];
    let call = 0;
    stubAuthApi({
      signedIn: true,
      handle: (method, path, body) => {
        if (method === 'GET' && path === `/v1/knowledge/${KB}/sources`) {
          call += 1;
          return json(200, { items: [PAGE], total: 1, page: 1, page_size: 100 });
        }
        if (method === 'PUT' && path === `/v1/knowledge/${KB}/sources/${PAGE.id}/sync`) {
          sent.push(body);
          return json(200, { ...PAGE, sync: body, next_sync_at: '2099-01-05T07:00:00.000Z' });
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderRoute(<SourcesTable knowledgeId={KB} onShowChunks={() => undefined} />);
    await user.click(await screen.findByRole('button', { name: 'Re-sync schedule of Ferry times' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-sync schedule' });
    expect(within(dialog).getByLabelText('Time')).toHaveValue('03:30');
    await user.click(within(dialog).getByText('Weekly'));
    await user.click(within(dialog).getByRole('combobox', { name: 'Weekday' }));
    await user.click(await screen.findByRole('option', { name: 'Friday' }));
    const time = within(dialog).getByLabelText('Time');
    await user.clear(time);
    await user.type(time, '25:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(
      await within(dialog).findByText('Enter the time as HH:MM on a 24-hour clock, e.g. 03:30'),
    ).toBeInTheDocument();
    expect(sent).toEqual([]);

    await user.clear(time);
    await user.type(time, '08:00');
    await user.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(
      await screen.findByText('"Ferry times" is re-synced: Fridays at 08:00 (Europe/Berlin).'),
    ).toBeInTheDocument();
    expect(sent).toEqual([
      { frequency: 'weekly', weekday: 'friday', time: '08:00', time_zone: 'Europe/Berlin' },
    ]);
    expect(call).toBeGreaterThan(1);
  });

  it('turns the schedule off', async () => {
    const sent: unknown[] = [];
    stubAuthApi({
      signedIn: true,
      handle: (method, path, body) => {
        if (method === 'GET' && path === `/v1/knowledge/${KB}/sources`) {
          return json(200, { items: [PAGE], total: 1, page: 1, page_size: 100 });
        }
        if (method === 'PUT') {
          sent.push(body);
          return json(200, { ...PAGE, sync: { frequency: 'off' }, next_sync_at: null });
        }
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderRoute(<SourcesTable knowledgeId={KB} onShowChunks={() => undefined} />);
    await user.click(await screen.findByRole('button', { name: 'Re-sync schedule of Ferry times' }));
    const dialog = await screen.findByRole('dialog', { name: 'Re-sync schedule' });
    await user.click(within(dialog).getByText('Off'));
    expect(within(dialog).queryByLabelText('Time')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Save schedule' }));
    expect(
      await screen.findByText('"Ferry times" is no longer re-synced on a schedule.'),
    ).toBeInTheDocument();
    expect(sent).toEqual([{ frequency: 'off' }]);
  });
});
