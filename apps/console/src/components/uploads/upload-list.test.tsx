import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { TransportCallbacks } from '../../lib/files/tus-transport';
import { createUploadStore } from '../../lib/files/upload-store';
import { UploadStoreContext } from '../../lib/files/use-uploads';
import { renderRoute } from '../../test/render';
import { UploadList } from './upload-list';
import { defined } from '../../test/defined';

function setup() {
  const uploads: {
    callbacks: TransportCallbacks;
    handle: Record<'pause' | 'resume' | 'cancel', ReturnType<typeof vi.fn>>;
  }[] = [];
  const store = createUploadStore({
    transport: {
      start(_file, _target, callbacks) {
        const handle = { pause: vi.fn(), resume: vi.fn(), cancel: vi.fn(() => Promise.resolve()) };
        uploads.push({ callbacks, handle });
        return handle;
      },
    },
  });
  renderRoute(
    <UploadStoreContext value={store}>
      <UploadList />
    </UploadStoreContext>,
  );
  return { store, uploads, user: userEvent.setup() };
}

const row = (name: string) => screen.getByRole('group', { name: `Upload of ${name}` });
const mib = (n: number) => new File([new Uint8Array(n * 1024 * 1024)], `${n}mb.bin`);

describe('UploadList', () => {
  it('shows nothing without uploads', () => {
    setup();
    expect(screen.queryByRole('region', { name: 'Uploads' })).not.toBeInTheDocument();
  });

  it('shows progress, and pauses, resumes and cancels through the store', async () => {
    const { store, uploads, user } = setup();
    store.enqueue([mib(4)], { folder: 'docs', tenantId: 't' });
    defined(uploads[0]).callbacks.onProgress(1024 * 1024);
    const upload = await screen.findByRole('group', { name: 'Upload of 4mb.bin' });
    expect(within(upload).getByText('1 MB of 4 MB · 25% · to “docs”')).toBeInTheDocument();
    expect(within(upload).getByRole('progressbar', { name: 'Upload progress of 4mb.bin' })).toHaveAttribute(
      'aria-valuenow',
      '25',
    );

    await user.click(within(upload).getByRole('button', { name: 'Pause: 4mb.bin' }));
    expect(defined(uploads[0]).handle.pause).toHaveBeenCalled();
    expect(row('4mb.bin')).toHaveAttribute('data-upload-status', 'paused');
    expect(within(row('4mb.bin')).getByText(/Paused at 25%/)).toBeInTheDocument();

    await user.click(within(row('4mb.bin')).getByRole('button', { name: 'Resume: 4mb.bin' }));
    expect(defined(uploads[0]).handle.resume).toHaveBeenCalled();
    expect(row('4mb.bin')).toHaveAttribute('data-upload-status', 'uploading');

    await user.click(within(row('4mb.bin')).getByRole('button', { name: 'Cancel: 4mb.bin' }));
    expect(defined(uploads[0]).handle.cancel).toHaveBeenCalled();
    expect(screen.queryByRole('group', { name: 'Upload of 4mb.bin' })).not.toBeInTheDocument();
  });

  it('says when it is retrying by itself, and when a resumed upload picked up', async () => {
    const { store, uploads } = setup();
    store.enqueue([mib(4)], { folder: '', tenantId: 't' });
    defined(uploads[0]).callbacks.onResumed(null);
    defined(uploads[0]).callbacks.onResumed(2 * 1024 * 1024);
    defined(uploads[0]).callbacks.onProgress(3 * 1024 * 1024);
    expect(
      await screen.findByText('3 MB of 4 MB · 75% · resumed at 50% · to the root folder'),
    ).toBeInTheDocument();
    defined(uploads[0]).callbacks.onRetrying(2, 1000);
    expect(await screen.findByText(/Connection problem: trying again \(attempt 2\)/)).toBeInTheDocument();
  });

  it("shows a failure's message, a full quota plainly, and retries", async () => {
    const { store, uploads, user } = setup();
    store.enqueue([mib(1)], { folder: '', tenantId: 't' });
    defined(uploads[0]).callbacks.onError({
      status: 402,
      code: 'storage/quota-exceeded',
      message: "This upload does not fit in your organisation's storage quota.",
    });
    const failed = await screen.findByRole('group', { name: 'Upload of 1mb.bin' });
    expect(within(failed).getByRole('alert')).toHaveTextContent(/does not fit/);
    expect(screen.getByText("Your organisation's storage is full")).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Retry: 1mb.bin' }));
    expect(defined(uploads[0]).handle.resume).toHaveBeenCalled();
    expect(screen.queryByText("Your organisation's storage is full")).not.toBeInTheDocument();
  });

  it('counts finished uploads and clears them', async () => {
    const { store, uploads, user } = setup();
    store.enqueue([mib(1), mib(2)], { folder: '', tenantId: 't' });
    defined(uploads[0]).callbacks.onSuccess('1mb (1).bin');
    expect(await screen.findByText('Uploads · 1 of 2 done')).toBeInTheDocument();
    expect(within(row('1mb.bin')).getByText(/Uploaded as “1mb \(1\)\.bin”/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear finished' }));
    expect(screen.queryByRole('group', { name: 'Upload of 1mb.bin' })).not.toBeInTheDocument();
    expect(row('2mb.bin')).toBeInTheDocument();
  });
});
