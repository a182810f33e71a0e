/**
 * The upload queue as a pure state machine. Each upload moves
 *
 *   queued -> uploading -> done
 *   uploading -> paused -> queued (resume) -> uploading ...
 *   uploading -> error -> queued (retry) -> uploading ...
 *
 * and leaves the queue when cancelled (from any state but done) or dismissed (done or error). Events that do
 * not apply to an upload's state are ignored, so a late progress report after a pause changes nothing.
 */

export type UploadStatus = 'queued' | 'uploading' | 'paused' | 'done' | 'error';

export interface UploadFailure {
  message: string;
  /** The server's storage code, e.g. storage/quota-exceeded. */
  code?: string;
  /** HTTP status; 0 when the server could not be reached. */
  status?: number;
}

export interface UploadItem {
  id: string;
  name: string;
  size: number;
  /** The folder the file goes to ('' = root). */
  folder: string;
  status: UploadStatus;
  bytesUploaded: number;
  /** Above the resumable threshold: sent in chunks and resumable after a reload. */
  isResumable: boolean;
  /** Picked up an unfinished upload of an earlier visit; the offset it continued from once known. */
  resumedFrom?: number | null;
  /** An automatic retry after a transient failure (network, 408, 429, 5xx) is waiting. */
  retrying?: { attempt: number; at: number } | null;
  /** Where the file was stored (may differ from `name` by a " (1)" suffix). */
  path?: string;
  error?: UploadFailure;
}

export interface NewUpload {
  id: string;
  name: string;
  size: number;
  folder: string;
  isResumable: boolean;
}

export type UploadEvent =
  | { type: 'add'; uploads: NewUpload[] }
  | { type: 'start'; id: string }
  | { type: 'progress'; id: string; bytesUploaded: number }
  | { type: 'resumed'; id: string; offset: number | null }
  | { type: 'retrying'; id: string; attempt: number; at: number }
  | { type: 'pause'; id: string }
  | { type: 'resume'; id: string }
  | { type: 'succeed'; id: string; path: string }
  | { type: 'fail'; id: string; error: UploadFailure }
  | { type: 'retry'; id: string }
  | { type: 'cancel'; id: string }
  | { type: 'dismiss'; id: string }
  | { type: 'clear-finished' };

/** Which states each event applies to. */
const ALLOWED: Record<Exclude<UploadEvent['type'], 'add' | 'clear-finished'>, readonly UploadStatus[]> = {
  start: ['queued'],
  progress: ['uploading'],
  resumed: ['uploading'],
  retrying: ['uploading'],
  pause: ['queued', 'uploading'],
  resume: ['paused'],
  succeed: ['uploading'],
  fail: ['uploading'],
  retry: ['error'],
  cancel: ['queued', 'uploading', 'paused', 'error'],
  dismiss: ['done', 'error'],
};

const canApply = (item: UploadItem, type: keyof typeof ALLOWED) => ALLOWED[type].includes(item.status);

function update(
  item: UploadItem,
  event: Exclude<UploadEvent, { type: 'add' | 'clear-finished' }>,
): UploadItem | null {
  switch (event.type) {
    case 'start':
      return { ...item, status: 'uploading', retrying: null, error: undefined };
    case 'progress':
      return {
        ...item,
        bytesUploaded: Math.min(item.size, Math.max(0, event.bytesUploaded)),
        // Bytes moving again: any automatic retry has happened.
        retrying: event.bytesUploaded > item.bytesUploaded ? null : item.retrying,
      };
    case 'resumed':
      return { ...item, resumedFrom: event.offset };
    case 'retrying':
      return { ...item, retrying: { attempt: event.attempt, at: event.at } };
    case 'pause':
      return { ...item, status: 'paused', retrying: null };
    case 'resume':
    case 'retry':
      return { ...item, status: 'queued', error: undefined, retrying: null };
    case 'succeed':
      return { ...item, status: 'done', bytesUploaded: item.size, path: event.path, retrying: null };
    case 'fail':
      return { ...item, status: 'error', error: event.error, retrying: null };
    case 'cancel':
    case 'dismiss':
      return null;
  }
}

export function uploadQueueReducer(items: UploadItem[], event: UploadEvent): UploadItem[] {
  if (event.type === 'add') {
    const known = new Set(items.map((item) => item.id));
    const added = event.uploads
      .filter((upload) => !known.has(upload.id))
      .map((upload): UploadItem => ({ ...upload, status: 'queued', bytesUploaded: 0 }));
    return added.length ? [...items, ...added] : items;
  }
  if (event.type === 'clear-finished') {
    const kept = items.filter((item) => item.status !== 'done');
    return kept.length === items.length ? items : kept;
  }
  const index = items.findIndex((item) => item.id === event.id);
  const item = items[index];
  if (!item || !canApply(item, event.type)) return items;
  const next = update(item, event);
  return next ? items.with(index, next) : items.filter((_, i) => i !== index);
}

/** The queued uploads to start now, oldest first, so that at most `maxActive` are uploading. */
export function uploadsToStart(items: readonly UploadItem[], maxActive: number): string[] {
  const active = items.filter((item) => item.status === 'uploading').length;
  const room = Math.max(0, maxActive - active);
  return items
    .filter((item) => item.status === 'queued')
    .slice(0, room)
    .map((item) => item.id);
}

/** Totals for a summary line: how many are still to finish and the overall progress in bytes. */
export function queueSummary(items: readonly UploadItem[]) {
  const unfinished = items.filter((item) => item.status !== 'done');
  return {
    total: items.length,
    done: items.length - unfinished.length,
    failed: items.filter((item) => item.status === 'error').length,
    active: items.filter((item) => item.status === 'uploading' || item.status === 'queued').length,
    bytesUploaded: items.reduce((sum, item) => sum + item.bytesUploaded, 0),
    bytesTotal: items.reduce((sum, item) => sum + item.size, 0),
  };
}
