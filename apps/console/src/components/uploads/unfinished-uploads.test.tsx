import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PreviousUpload } from 'tus-js-client';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { uploadFingerprint, type UploadTransport } from '../../lib/files/tus-transport';
import { createUploadStore } from '../../lib/files/upload-store';
import { UploadStoreContext } from '../../lib/files/use-uploads';
import type { Session } from '../../lib/session';
import { renderRoute } from '../../test/render';
import { UnfinishedUploads } from './unfinished-uploads';
import { defined } from '../../test/defined';

const MIB = 1024 * 1024;
const session: Session = {
  tenantName: 'Acme',
  tenantType: '2',
  profile: { role: 'administrator', tenant_id: 't-acme' },
  features: [],
  signOut: () => Promise.resolve(),
};
const report = new File([new Uint8Array(4 * MIB)], 'report.bin', { lastModified: 7 });

function remember(tenantId: string, folder: string, file: File, id: string) {
  const stored: Omit<PreviousUpload, 'urlStorageKey'> = {
    size: file.size,
    metadata: { filename: file.name, folder },
    creationTime: new Date('2026-01-02T09:30:00Z').toString(),
    uploadUrl: `http://localhost/v1/files/upload/${id}`,
    parallelUploadUrls: null,
  };
  const key = `tus::${uploadFingerprint(tenantId, folder, file)}::${id}`;
  window.localStorage.setItem(key, JSON.stringify(stored));
  return key;
}

let start: ReturnType<typeof vi.fn<UploadTransport['start']>>;

beforeEach(() => {
  start = vi.fn<UploadTransport['start']>(() => ({
    pause: vi.fn(),
    resume: vi.fn(),
    cancel: vi.fn(() => Promise.resolve()),
  }));
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : input.toString();
      if (init?.method === 'HEAD' && url.endsWith('/alive')) {
        return Promise.resolve(
          new Response(null, {
            status: 200,
            headers: { 'upload-offset': String(MIB), 'upload-length': String(4 * MIB) },
          }),
        );
      }
      return Promise.resolve(new Response(null, { status: 404 }));
    }),
  );
});

function renderUnfinished() {
  const store = createUploadStore({ transport: { start } });
  renderRoute(
    <UploadStoreContext value={store}>
      <UnfinishedUploads />
    </UploadStoreContext>,
    { session },
  );
  return { store, user: userEvent.setup({ applyAccept: false }) };
}

describe('UnfinishedUploads', () => {
  it("lists this tenant's unfinished uploads with how far they got, and forgets expired ones", async () => {
    remember('t-acme', 'docs', report, 'alive');
    const expired = remember('t-acme', '', new File(['x'], 'old.bin'), 'gone');
    remember('t-other', 'docs', report, 'alive');
    renderUnfinished();
    const upload = await screen.findByRole('group', { name: 'Unfinished upload of report.bin' });
    expect(within(upload).getByText(/1 MB of 4 MB uploaded \(25%\) · to “docs”/)).toBeInTheDocument();
    expect(screen.getByText(/Drop the same file again, or choose it with Resume/)).toBeInTheDocument();
    expect(screen.getAllByRole('group', { name: /^Unfinished upload of/ })).toHaveLength(1);
    expect(window.localStorage.getItem(expired)).toBeNull();
  });

  it('Resume with the same file continues that upload; another file is refused', async () => {
    remember('t-acme', 'docs', report, 'alive');
    const { user, store } = renderUnfinished();
    const upload = await screen.findByRole('group', { name: 'Unfinished upload of report.bin' });
    const chooser = upload.querySelector('input[type="file"]') as HTMLInputElement;

    await user.upload(chooser, new File(['other'], 'other.bin'));
    expect(
      await screen.findByText(/Choose report\.bin \(4 MB\) to continue this upload/),
    ).toBeInTheDocument();
    expect(start).not.toHaveBeenCalled();

    await user.upload(chooser, report);
    expect(start).toHaveBeenCalledTimes(1);
    const [file, target, , options] = defined(start.mock.calls[0]);
    expect(file.name).toBe('report.bin');
    expect(target).toEqual({ folder: 'docs', tenantId: 't-acme' });
    expect(options?.resumeFrom?.uploadUrl).toBe('http://localhost/v1/files/upload/alive');
    expect(store.getSnapshot()[0]).toMatchObject({ name: 'report.bin', folder: 'docs' });
    // It is in the queue now, so it is no longer offered here.
    await waitFor(() =>
      expect(
        screen.queryByRole('group', { name: 'Unfinished upload of report.bin' }),
      ).not.toBeInTheDocument(),
    );
  });
});
