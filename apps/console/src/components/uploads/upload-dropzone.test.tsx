import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createUploadStore } from '../../lib/files/upload-store';
import { UploadStoreContext } from '../../lib/files/use-uploads';
import { renderRoute } from '../../test/render';
import { UploadDropzone } from './upload-dropzone';
import { defined } from '../../test/defined';

describe('UploadDropzone', () => {
  it('queues the chosen files for its folder', async () => {
    const start = vi.fn(() => ({ pause: vi.fn(), resume: vi.fn(), cancel: vi.fn(() => Promise.resolve()) }));
    const store = createUploadStore({ transport: { start } });
    renderRoute(
      <UploadStoreContext value={store}>
        <UploadDropzone folder="docs" />
      </UploadStoreContext>,
    );
    await userEvent.upload(screen.getByLabelText('Choose files to upload'), [
      new File(['a'], 'a.pdf'),
      new File(['b'], 'b.png'),
    ]);
    await waitFor(() => expect(store.getSnapshot().map((item) => item.name)).toEqual(['a.pdf', 'b.png']));
    expect(defined(store.getSnapshot()[0]).folder).toBe('docs');
  });
});
