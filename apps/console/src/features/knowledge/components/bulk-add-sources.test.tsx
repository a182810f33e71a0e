import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TransportCallbacks } from '../../../lib/files/tus-transport';
import { createUploadStore } from '../../../lib/files/upload-store';
import { UploadStoreContext } from '../../../lib/files/use-uploads';
import { defined } from '../../../test/defined';
import { stubFilesApi } from '../../../test/fake-files-api';
import { renderRoute } from '../../../test/render';
import { BulkAddSources } from './bulk-add-sources';

const KB = '3d7e2f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';
const NOW = '2026-01-01T00:00:00.000Z';

const sourceOf = (body: Record<string, unknown>, index: number) => ({
  id: `00000000-0000-4000-8000-00000000000${index}`,
  knowledge_id: KB,
  type: body.type,
  title: null,
  url: null,
  path: null,
  state: 'queued',
  error: null,
  chunk_count: 0,
  content_hash: null,
  last_synced_at: null,
  sync: { frequency: 'off' },
  next_sync_at: null,
  last_sync_result: null,
  created_by: 'u1',
  created_at: NOW,
  updated_at: NOW,
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** The files API of the fake store, and the bulk route answering `refuse` (or 201 with the sources). */
function setup(refuse?: { code: string; message: string }) {
  stubFilesApi({
    folders: ['manuals'],
    files: ['faq.md', 'photo.jpg', 'manuals/guide.pdf', 'manuals/setup.docx'],
  });
  const filesFetch = globalThis.fetch;
  const posted: unknown[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(
        typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
        'http://localhost',
      );
      if (init?.method === 'POST' && url.pathname === `/v1/knowledge/${KB}/sources/bulk`) {
        const body = JSON.parse(typeof init.body === 'string' ? init.body : '{}') as {
          sources: Record<string, unknown>[];
        };
        posted.push(body);
        return Promise.resolve(refuse ? json(400, refuse) : json(201, { items: body.sources.map(sourceOf) }));
      }
      return filesFetch(input, init);
    }),
  );
  const uploads: TransportCallbacks[] = [];
  const store = createUploadStore({
    transport: {
      start(_file, _target, callbacks) {
        uploads.push(callbacks);
        return { pause: vi.fn(), resume: vi.fn(), cancel: vi.fn(() => Promise.resolve()) };
      },
    },
  });
  const onAdded = vi.fn();
  renderRoute(
    <UploadStoreContext value={store}>
      <BulkAddSources knowledgeId={KB} onAdded={onAdded} />
    </UploadStoreContext>,
  );
  return { posted, uploads, onAdded, user: userEvent.setup() };
}

const refusal = () => screen.findByRole('alert', { name: 'Nothing was added' });

afterEach(() => vi.unstubAllGlobals());

describe('BulkAddSources', () => {
  it('sends files picked from storage and uploaded here as one request, once the uploads finish', async () => {
    const { posted, uploads, onAdded, user } = setup();
    await user.click(screen.getByRole('button', { name: 'Choose from storage' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose files' });
    await user.click(await within(picker).findByRole('checkbox', { name: 'faq.md' }));
    expect(within(picker).queryByRole('checkbox', { name: 'photo.jpg' })).not.toBeInTheDocument();
    await user.click(within(picker).getByRole('button', { name: 'Open folder manuals' }));
    await user.click(await within(picker).findByRole('checkbox', { name: 'guide.pdf' }));
    await user.click(within(picker).getByRole('button', { name: 'Add chosen files' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const chosen = screen.getByRole('list', { name: 'Chosen files' });
    expect(
      within(chosen)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['faq.md', 'manuals/guide.pdf']);

    await user.upload(
      screen.getByLabelText('Choose files to upload'),
      new File(['%PDF-1.4'], 'new.pdf', { type: 'application/pdf' }),
    );
    defined(uploads[0]).onProgress(4);
    expect(await screen.findByRole('group', { name: 'Upload of new.pdf' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add 2 sources' }));
    expect(await screen.findByText('Wait until the upload finishes.')).toBeInTheDocument();
    expect(posted).toEqual([]);

    defined(uploads[0]).onSuccess('knowledge/new.pdf');
    await user.click(await screen.findByRole('button', { name: 'Add 3 sources' }));
    await waitFor(() =>
      expect(posted).toEqual([
        {
          sources: [
            { type: 'file', path: 'faq.md' },
            { type: 'file', path: 'manuals/guide.pdf' },
            { type: 'file', path: 'knowledge/new.pdf' },
          ],
        },
      ]),
    );
    await waitFor(() => expect(onAdded).toHaveBeenCalledTimes(1));
  });

  it('previews pasted CSV with its problem lines highlighted, and sends the pairs once they are fixed', async () => {
    const { posted, user } = setup();
    await user.click(screen.getByRole('tab', { name: 'Q&A from CSV' }));
    const field = screen.getByRole('textbox', { name: 'CSV text' });
    fireEvent.change(field, {
      target: { value: 'question,answer\r\n"Ship abroad?","Yes, to the EU."\r\nOnly a question\r\n' },
    });
    const table = await screen.findByRole('table', { name: 'Q&A pairs' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      '2Ship abroad?Yes, to the EU.',
      '3Expected 2 columns (question, answer), found 1',
    ]);
    expect(defined(rows[1])).toHaveAttribute('data-problem', 'true');
    expect(screen.getByText('1 pair read, 1 line with problems.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add 1 source' }));
    expect(await refusal()).toHaveTextContent('Fix the CSV lines listed above');
    expect(posted).toEqual([]);

    fireEvent.change(field, {
      target: { value: 'question,answer\r\n"Ship abroad?","Yes, to the EU."\r\n"Say ""hi""?",Hi\r\n' },
    });
    await user.click(await screen.findByRole('button', { name: 'Add 2 sources' }));
    await waitFor(() =>
      expect(posted).toEqual([
        {
          sources: [
            { type: 'qa', question: 'Ship abroad?', answer: 'Yes, to the EU.' },
            { type: 'qa', question: 'Say "hi"?', answer: 'Hi' },
          ],
        },
      ]),
    );
  });

  it('reads a chosen .csv file into the preview', async () => {
    setup();
    const user = userEvent.setup({ applyAccept: false });
    await user.click(screen.getByRole('tab', { name: 'Q&A from CSV' }));
    const input = defined(
      document.querySelector<HTMLInputElement>('input[type="file"][accept=".csv,text/csv"]'),
    );
    await user.upload(input, new File(['\uFEFFOpen Sundays?,No'], 'faq.csv', { type: 'text/csv' }));
    expect(await screen.findByText('Read from faq.csv; edit it here if needed.')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Q&A pairs' });
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent('1Open Sundays?No');
  });

  it('checks the web addresses line by line, drops repeats and sends the crawl settings with each', async () => {
    const { posted, user } = setup();
    await user.click(screen.getByRole('tab', { name: 'Web pages' }));
    const field = screen.getByRole('textbox', { name: 'Web addresses' });
    fireEvent.change(field, {
      target: { value: 'https://example.com/help\nftp://example.com\nhttps://example.com/help\n' },
    });
    expect(
      await screen.findByText('Line 2: The address must be a web address starting with http:// or https://'),
    ).toBeInTheDocument();
    expect(screen.getByText('1 address (1 repeat dropped).')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add 1 source' }));
    expect(await refusal()).toHaveTextContent('Fix or remove the lines listed above.');
    expect(posted).toEqual([]);

    fireEvent.change(field, {
      target: { value: 'https://example.com/help\nhttps://example.com/pricing\nhttps://example.com/help' },
    });
    await user.click(screen.getByRole('switch', { name: /Also read the pages/ }));
    const depth = screen.getByRole('textbox', { name: 'Depth' });
    await user.clear(depth);
    await user.type(depth, '2');
    await user.click(screen.getByRole('button', { name: 'Add 2 sources' }));
    await waitFor(() =>
      expect(posted).toEqual([
        {
          sources: [
            { type: 'url', url: 'https://example.com/help', crawl: { depth: 2, max_pages: 50 } },
            { type: 'url', url: 'https://example.com/pricing', crawl: { depth: 2, max_pages: 50 } },
          ],
        },
      ]),
    );
  });

  it("shows the server's refusal, naming the item, and stays on the page", async () => {
    const { posted, onAdded, user } = setup({
      code: 'storage/object-not-found',
      message: 'Item 1: No file exists at this path.',
    });
    await user.click(screen.getByRole('tab', { name: 'Web pages' }));
    await user.click(screen.getByRole('button', { name: 'Add sources' }));
    expect(await refusal()).toHaveTextContent('Type at least one web address first.');

    await user.click(screen.getByRole('tab', { name: 'Files' }));
    await user.click(screen.getByRole('button', { name: 'Choose from storage' }));
    const picker = await screen.findByRole('dialog', { name: 'Choose files' });
    await user.click(await within(picker).findByRole('checkbox', { name: 'faq.md' }));
    await user.click(within(picker).getByRole('button', { name: 'Add chosen files' }));
    await user.click(await screen.findByRole('button', { name: 'Add 1 source' }));
    expect(await refusal()).toHaveTextContent('Item 1: No file exists at this path.');
    expect(posted).toHaveLength(1);
    expect(onAdded).not.toHaveBeenCalled();
  });
});
