import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { stubFilesApi } from '../../../test/fake-files-api';
import { renderRoute } from '../../../test/render';
import { AddSource } from './add-source';

const KB = '3d7e2f0a-1b2c-4d5e-8f90-a1b2c3d4e5f6';

describe('AddSource', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('posts exactly the title and text of a text source', async () => {
    const posted: unknown[] = [];
    stubAuthApi({
      signedIn: true,
      handle: (method, path, body) => {
        if (method !== 'POST' || path !== `/v1/knowledge/${KB}/sources`) return undefined;
        posted.push(body);
        return json(201, {
          id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
          knowledge_id: KB,
          type: 'text',
          title: 'Returns',
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
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        });
      },
    });
    const user = userEvent.setup();
    renderRoute(<AddSource knowledgeId={KB} />);

    await user.click(screen.getByRole('button', { name: 'Add source' }));
    expect(await screen.findByText('The title is required')).toBeInTheDocument();
    expect(screen.getByText('The text is required')).toBeInTheDocument();
    expect(posted).toEqual([]);

    await user.type(screen.getByRole('textbox', { name: /title/i }), 'Returns');
    await user.type(screen.getByRole('textbox', { name: /^text/i }), 'Items can be returned within 30 days.');
    await user.click(screen.getByRole('button', { name: 'Add source' }));
    await waitFor(() =>
      expect(posted).toEqual([
        { type: 'text', title: 'Returns', text: 'Items can be returned within 30 days.' },
      ]),
    );
    await waitFor(() => expect(screen.getByRole('textbox', { name: /title/i })).toHaveValue(''));
  });

  it('fills the file path from the storage picker', async () => {
    stubFilesApi({ folders: ['manuals'], files: ['manuals/guide.pdf', 'manuals/photo.png'] });
    const user = userEvent.setup();
    renderRoute(<AddSource knowledgeId={KB} />);
    await user.click(screen.getByRole('tab', { name: 'File' }));
    await user.click(screen.getByRole('button', { name: 'Choose from storage' }));
    await user.click(await screen.findByRole('button', { name: 'Open folder manuals' }));
    await user.click(await screen.findByRole('checkbox', { name: 'guide.pdf' }));
    expect(screen.queryByRole('checkbox', { name: 'photo.png' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Choose' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: /file path/i })).toHaveValue('manuals/guide.pdf'),
    );
  });
});
