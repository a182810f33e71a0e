import type { PreviousUpload } from 'tus-js-client';
import type { UploadHandle, UploadTarget, UploadTransport } from './tus-transport';
import { RESUMABLE_THRESHOLD_BYTES } from './tus-transport';
import { uploadQueueReducer, uploadsToStart, type UploadEvent, type UploadItem } from './upload-queue';

/** Two at a time: the rest wait their turn, and a slow upload does not starve the others. */
const MAX_ACTIVE_UPLOADS = 2;

export interface UploadStore {
  getSnapshot: () => UploadItem[];
  subscribe: (listener: () => void) => () => void;
  /** Queues files for `target.folder`; answers their ids in the queue. */
  enqueue: (
    files: readonly File[],
    target: UploadTarget,
    options?: { resumeFrom?: PreviousUpload },
  ) => string[];
  pause: (id: string) => void;
  resume: (id: string) => void;
  retry: (id: string) => void;
  /** Stops the upload and deletes what reached the server; rejects when the server could not be told. */
  cancel: (id: string) => Promise<void>;
  dismiss: (id: string) => void;
  clearFinished: () => void;
  /**
   * Called for each finished upload. A completion nobody listened for is handed to the next listener once,
   * so a page opened later still refreshes its listing.
   */
  onUploaded: (listener: (item: UploadItem) => void) => () => void;
}

interface Entry {
  file: File;
  target: UploadTarget;
  resumeFrom?: PreviousUpload;
  handle?: UploadHandle;
}

export function createUploadStore({
  transport,
  maxActive = MAX_ACTIVE_UPLOADS,
  now = Date.now,
}: {
  transport: UploadTransport;
  maxActive?: number;
  now?: () => number;
}): UploadStore {
  let items: UploadItem[] = [];
  let nextId = 0;
  let missed: UploadItem | null = null;
  const entries = new Map<string, Entry>();
  const listeners = new Set<() => void>();
  const uploadedListeners = new Set<(item: UploadItem) => void>();

  const itemOf = (id: string) => items.find((item) => item.id === id);

  function dispatch(event: UploadEvent) {
    const next = uploadQueueReducer(items, event);
    if (next === items) return false;
    items = next;
    for (const listener of listeners) listener();
    return true;
  }

  function schedule() {
    for (const id of uploadsToStart(items, maxActive)) {
      const entry = entries.get(id);
      if (!entry || !dispatch({ type: 'start', id })) continue;
      if (entry.handle) {
        entry.handle.resume();
        continue;
      }
      entry.handle = transport.start(
        entry.file,
        entry.target,
        {
          onProgress: (bytesUploaded) => dispatch({ type: 'progress', id, bytesUploaded }),
          onResumed: (offset) => dispatch({ type: 'resumed', id, offset }),
          onRetrying: (attempt, delayMs) => dispatch({ type: 'retrying', id, attempt, at: now() + delayMs }),
          onSuccess: (path) => {
            if (!dispatch({ type: 'succeed', id, path })) return;
            entries.delete(id);
            const item = itemOf(id);
            if (!item) return;
            if (uploadedListeners.size === 0) missed = item;
            for (const listener of uploadedListeners) listener(item);
            schedule();
          },
          onError: (error) => {
            if (dispatch({ type: 'fail', id, error })) schedule();
          },
        },
        { resumeFrom: entry.resumeFrom },
      );
    }
  }

  return {
    getSnapshot: () => items,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    enqueue(files, target, options = {}) {
      const uploads = files.map((file) => {
        nextId += 1;
        const id = `upload-${nextId}`;
        entries.set(id, { file, target, resumeFrom: options.resumeFrom });
        return {
          id,
          name: file.name,
          size: file.size,
          folder: target.folder,
          isResumable: file.size > RESUMABLE_THRESHOLD_BYTES,
        };
      });
      dispatch({ type: 'add', uploads });
      schedule();
      return uploads.map((upload) => upload.id);
    },
    pause(id) {
      const wasUploading = itemOf(id)?.status === 'uploading';
      if (!dispatch({ type: 'pause', id })) return;
      if (wasUploading) entries.get(id)?.handle?.pause();
      schedule();
    },
    resume(id) {
      if (dispatch({ type: 'resume', id })) schedule();
    },
    retry(id) {
      if (dispatch({ type: 'retry', id })) schedule();
    },
    async cancel(id) {
      const entry = entries.get(id);
      if (!dispatch({ type: 'cancel', id })) return;
      entries.delete(id);
      schedule();
      await entry?.handle?.cancel();
    },
    dismiss(id) {
      if (dispatch({ type: 'dismiss', id })) entries.delete(id);
    },
    clearFinished() {
      dispatch({ type: 'clear-finished' });
    },
    onUploaded(listener) {
      uploadedListeners.add(listener);
      if (missed) {
        const item = missed;
        missed = null;
        listener(item);
      }
      return () => uploadedListeners.delete(listener);
    },
  };
}
