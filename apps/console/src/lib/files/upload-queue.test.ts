import { describe, expect, it } from 'vitest';
import {
  queueSummary,
  uploadQueueReducer,
  uploadsToStart,
  type UploadEvent,
  type UploadItem,
} from './upload-queue';
import { defined } from '../../test/defined';

const added = (id: string, size = 1000): UploadEvent => ({
  type: 'add',
  uploads: [{ id, name: `${id}.bin`, size, folder: 'docs', isResumable: true }],
});

const run = (events: UploadEvent[], start: UploadItem[] = []) => events.reduce(uploadQueueReducer, start);
const only = (items: UploadItem[]) => {
  expect(items).toHaveLength(1);
  return defined(items[0]);
};

describe('upload queue state machine', () => {
  it('goes queued -> uploading -> paused -> queued (resumed) -> uploading -> done', () => {
    let items = run([added('a')]);
    expect(only(items)).toMatchObject({ status: 'queued', bytesUploaded: 0, folder: 'docs' });
    items = run(
      [
        { type: 'start', id: 'a' },
        { type: 'progress', id: 'a', bytesUploaded: 300 },
      ],
      items,
    );
    expect(only(items)).toMatchObject({ status: 'uploading', bytesUploaded: 300 });
    items = run([{ type: 'pause', id: 'a' }], items);
    expect(only(items)).toMatchObject({ status: 'paused', bytesUploaded: 300 });
    items = run([{ type: 'resume', id: 'a' }], items);
    expect(only(items).status).toBe('queued');
    items = run(
      [
        { type: 'start', id: 'a' },
        { type: 'progress', id: 'a', bytesUploaded: 1000 },
        { type: 'succeed', id: 'a', path: 'docs/a (1).bin' },
      ],
      items,
    );
    expect(only(items)).toMatchObject({ status: 'done', bytesUploaded: 1000, path: 'docs/a (1).bin' });
  });

  it('goes uploading -> error -> queued (retry) and keeps the bytes already sent', () => {
    const failure = { status: 503, code: 'storage/unknown', message: 'Down for a moment' };
    let items = run([
      added('a'),
      { type: 'start', id: 'a' },
      { type: 'progress', id: 'a', bytesUploaded: 400 },
      { type: 'fail', id: 'a', error: failure },
    ]);
    expect(only(items)).toMatchObject({ status: 'error', error: failure, bytesUploaded: 400 });
    items = run([{ type: 'retry', id: 'a' }], items);
    expect(only(items)).toMatchObject({ status: 'queued', error: undefined, bytesUploaded: 400 });
  });

  it('records automatic retries and clears them once bytes move again', () => {
    let items = run([
      added('a'),
      { type: 'start', id: 'a' },
      { type: 'progress', id: 'a', bytesUploaded: 100 },
      { type: 'retrying', id: 'a', attempt: 2, at: 5000 },
    ]);
    expect(only(items).retrying).toEqual({ attempt: 2, at: 5000 });
    items = run([{ type: 'progress', id: 'a', bytesUploaded: 100 }], items);
    expect(only(items).retrying).toEqual({ attempt: 2, at: 5000 });
    items = run([{ type: 'progress', id: 'a', bytesUploaded: 200 }], items);
    expect(only(items).retrying).toBeNull();
  });

  it('notes where a resumed upload continued from', () => {
    const items = run([
      added('a'),
      { type: 'start', id: 'a' },
      { type: 'resumed', id: 'a', offset: null },
      { type: 'resumed', id: 'a', offset: 640 },
    ]);
    expect(only(items).resumedFrom).toBe(640);
  });

  it('ignores events that do not fit the state', () => {
    const queued = run([added('a')]);
    for (const event of [
      { type: 'progress', id: 'a', bytesUploaded: 10 },
      { type: 'succeed', id: 'a', path: 'x' },
      { type: 'fail', id: 'a', error: { message: 'x' } },
      { type: 'resume', id: 'a' },
      { type: 'retry', id: 'a' },
      { type: 'dismiss', id: 'a' },
      { type: 'pause', id: 'nope' },
    ] satisfies UploadEvent[]) {
      expect(uploadQueueReducer(queued, event), event.type).toBe(queued);
    }
    const paused = run(
      [
        { type: 'start', id: 'a' },
        { type: 'pause', id: 'a' },
      ],
      queued,
    );
    // A progress report or an error that arrives after the pause changes nothing.
    expect(uploadQueueReducer(paused, { type: 'progress', id: 'a', bytesUploaded: 999 })).toBe(paused);
    expect(uploadQueueReducer(paused, { type: 'fail', id: 'a', error: { message: 'aborted' } })).toBe(paused);
    const done = run(
      [
        { type: 'resume', id: 'a' },
        { type: 'start', id: 'a' },
        { type: 'succeed', id: 'a', path: 'p' },
      ],
      paused,
    );
    expect(uploadQueueReducer(done, { type: 'cancel', id: 'a' })).toBe(done);
    expect(uploadQueueReducer(done, { type: 'pause', id: 'a' })).toBe(done);
  });

  it('a queued upload can be paused before it starts', () => {
    const items = run([added('a'), { type: 'pause', id: 'a' }]);
    expect(only(items).status).toBe('paused');
  });

  it('cancel removes queued, uploading, paused and failed uploads; dismiss removes done and failed ones', () => {
    const base = run([added('q'), added('u'), added('p'), added('e'), added('d')]);
    const states = run(
      [
        { type: 'start', id: 'u' },
        { type: 'pause', id: 'p' },
        { type: 'start', id: 'e' },
        { type: 'fail', id: 'e', error: { message: 'x' } },
        { type: 'start', id: 'd' },
        { type: 'succeed', id: 'd', path: 'd' },
      ],
      base,
    );
    expect(states.map((item) => item.status)).toEqual(['queued', 'uploading', 'paused', 'error', 'done']);
    const cancelled = run(
      ['q', 'u', 'p', 'e', 'd'].map((id): UploadEvent => ({ type: 'cancel', id })),
      states,
    );
    expect(cancelled.map((item) => item.id)).toEqual(['d']);
    expect(run([{ type: 'dismiss', id: 'd' }], cancelled)).toEqual([]);
  });

  it('clear-finished drops only done uploads', () => {
    const items = run([
      added('a'),
      added('b'),
      { type: 'start', id: 'a' },
      { type: 'succeed', id: 'a', path: 'a' },
      { type: 'clear-finished' },
    ]);
    expect(only(items).id).toBe('b');
  });

  it('adding an id twice keeps the first', () => {
    const items = run([added('a', 10), added('a', 20)]);
    expect(only(items).size).toBe(10);
  });

  it('clamps progress to the file size', () => {
    const items = run([
      added('a', 100),
      { type: 'start', id: 'a' },
      { type: 'progress', id: 'a', bytesUploaded: 150 },
    ]);
    expect(only(items).bytesUploaded).toBe(100);
  });
});

describe('uploadsToStart', () => {
  it('starts the oldest queued uploads up to the limit of active ones', () => {
    const items = run([added('a'), added('b'), added('c'), added('d')]);
    expect(uploadsToStart(items, 2)).toEqual(['a', 'b']);
    const oneActive = run(
      [
        { type: 'start', id: 'a' },
        { type: 'pause', id: 'b' },
      ],
      items,
    );
    expect(uploadsToStart(oneActive, 2)).toEqual(['c']);
    expect(uploadsToStart(run([{ type: 'start', id: 'c' }], oneActive), 2)).toEqual([]);
  });
});

describe('queueSummary', () => {
  it('counts and sums', () => {
    const items = run([
      added('a', 100),
      added('b', 300),
      { type: 'start', id: 'a' },
      { type: 'succeed', id: 'a', path: 'a' },
      { type: 'start', id: 'b' },
      { type: 'progress', id: 'b', bytesUploaded: 150 },
    ]);
    expect(queueSummary(items)).toEqual({
      total: 2,
      done: 1,
      failed: 0,
      active: 1,
      bytesUploaded: 250,
      bytesTotal: 400,
    });
  });
});
