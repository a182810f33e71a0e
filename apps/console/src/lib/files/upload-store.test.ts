import { describe, expect, it, vi } from 'vitest';
import type { TransportCallbacks, UploadHandle, UploadTarget, UploadTransport } from './tus-transport';
import { createUploadStore } from './upload-store';
import { defined } from '../../test/defined';

interface FakeUpload {
  file: File;
  target: UploadTarget;
  callbacks: TransportCallbacks;
  handle: UploadHandle & {
    pause: ReturnType<typeof vi.fn>;
    resume: ReturnType<typeof vi.fn>;
    cancel: ReturnType<typeof vi.fn>;
  };
}

function fakeTransport() {
  const started: FakeUpload[] = [];
  const transport: UploadTransport = {
    start(file, target, callbacks) {
      const handle = { pause: vi.fn(), resume: vi.fn(), cancel: vi.fn(() => Promise.resolve()) };
      started.push({ file, target, callbacks, handle });
      return handle;
    },
  };
  return { transport, started };
}

const file = (name: string, size = 1000) => new File([new Uint8Array(size)], name);
const target = { folder: 'docs', tenantId: 't1' };

describe('upload store', () => {
  it('starts at most two uploads and the next when one finishes', () => {
    const { transport, started } = fakeTransport();
    const store = createUploadStore({ transport });
    const ids = store.enqueue([file('a'), file('b'), file('c')], target);
    expect(started.map((upload) => upload.file.name)).toEqual(['a', 'b']);
    expect(store.getSnapshot().map((item) => item.status)).toEqual(['uploading', 'uploading', 'queued']);
    defined(started[0]).callbacks.onSuccess('docs/a');
    expect(started.map((upload) => upload.file.name)).toEqual(['a', 'b', 'c']);
    expect(store.getSnapshot().find((item) => item.id === ids[0])).toMatchObject({
      status: 'done',
      path: 'docs/a',
    });
  });

  it('pauses through the transport and resumes the same handle', () => {
    const { transport, started } = fakeTransport();
    const store = createUploadStore({ transport });
    const [id] = store.enqueue([file('a')], target);
    defined(started[0]).callbacks.onProgress(400);
    store.pause(defined(id));
    expect(defined(started[0]).handle.pause).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()[0]).toMatchObject({ status: 'paused', bytesUploaded: 400 });
    store.resume(defined(id));
    expect(started).toHaveLength(1);
    expect(defined(started[0]).handle.resume).toHaveBeenCalledTimes(1);
    expect(defined(store.getSnapshot()[0]).status).toBe('uploading');
  });

  it('a failed upload frees its slot; retry continues it with the same handle', () => {
    const { transport, started } = fakeTransport();
    const store = createUploadStore({ transport, maxActive: 1 });
    const [a] = store.enqueue([file('a'), file('b')], target);
    defined(started[0]).callbacks.onError({ status: 402, code: 'storage/quota-exceeded', message: 'Full' });
    expect(store.getSnapshot()[0]).toMatchObject({
      status: 'error',
      error: { code: 'storage/quota-exceeded' },
    });
    expect(started.map((upload) => upload.file.name)).toEqual(['a', 'b']);
    store.retry(defined(a));
    expect(defined(store.getSnapshot()[0]).status).toBe('queued');
    defined(started[1]).callbacks.onSuccess('docs/b');
    expect(defined(store.getSnapshot()[0]).status).toBe('uploading');
    expect(defined(started[0]).handle.resume).toHaveBeenCalledTimes(1);
  });

  it('cancel stops the transport, deletes the server upload and drops the item', async () => {
    const { transport, started } = fakeTransport();
    const store = createUploadStore({ transport });
    const [id] = store.enqueue([file('a')], target);
    await store.cancel(defined(id));
    expect(defined(started[0]).handle.cancel).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).toEqual([]);
  });

  it('cancel reports a server that could not be told', async () => {
    const { transport, started } = fakeTransport();
    const store = createUploadStore({ transport });
    const [id] = store.enqueue([file('a')], target);
    defined(started[0]).handle.cancel.mockRejectedValueOnce(new Error('offline'));
    await expect(store.cancel(defined(id))).rejects.toThrow('offline');
    expect(store.getSnapshot()).toEqual([]);
  });

  it('records automatic retries with the time of the next attempt', () => {
    const { transport, started } = fakeTransport();
    const store = createUploadStore({ transport, now: () => 10_000 });
    store.enqueue([file('a')], target);
    defined(started[0]).callbacks.onRetrying(3, 5_000);
    expect(defined(store.getSnapshot()[0]).retrying).toEqual({ attempt: 3, at: 15_000 });
  });

  it('tells listeners about finished uploads, and hands one missed completion to the next listener', () => {
    const { transport, started } = fakeTransport();
    const store = createUploadStore({ transport });
    store.enqueue([file('a'), file('b')], target);
    defined(started[0]).callbacks.onSuccess('docs/a');
    const late = vi.fn();
    const stop = store.onUploaded(late);
    expect(late).toHaveBeenCalledTimes(1);
    expect(defined(late.mock.calls[0])[0]).toMatchObject({ path: 'docs/a' });
    defined(started[1]).callbacks.onSuccess('docs/b');
    expect(late).toHaveBeenCalledTimes(2);
    stop();
    const another = vi.fn();
    store.onUploaded(another);
    expect(another).not.toHaveBeenCalled();
  });

  it('notifies subscribers on every change and marks files above 256 KB resumable', () => {
    const { transport } = fakeTransport();
    const store = createUploadStore({ transport });
    const listener = vi.fn();
    store.subscribe(listener);
    store.enqueue([file('small', 256 * 1024), file('large', 256 * 1024 + 1)], target);
    expect(listener).toHaveBeenCalled();
    expect(store.getSnapshot().map((item) => item.isResumable)).toEqual([false, true]);
  });
});
