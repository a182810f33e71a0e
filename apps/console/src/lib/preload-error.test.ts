import { afterEach, describe, expect, it } from 'vitest';
import {
  PRELOAD_ERROR_EVENT,
  isChunkLoadError,
  lazyRoute,
  listenForVitePreloadErrors,
} from './preload-error';

describe('lazyRoute', () => {
  const seen: Event[] = [];
  const record = (event: Event) => seen.push(event);
  afterEach(() => {
    window.removeEventListener(PRELOAD_ERROR_EVENT, record);
    seen.length = 0;
  });

  it('passes a loaded module through without an event', async () => {
    window.addEventListener(PRELOAD_ERROR_EVENT, record);
    const module = { Component: () => null };
    await expect(lazyRoute(() => Promise.resolve(module))()).resolves.toBe(module);
    expect(seen).toHaveLength(0);
  });

  it('dispatches a cancelable preload-error event carrying the error, then rethrows it', async () => {
    window.addEventListener(PRELOAD_ERROR_EVENT, record);
    const failure = new TypeError('Failed to fetch dynamically imported module: /assets/x.js');
    await expect(lazyRoute(() => Promise.reject(failure))()).rejects.toBe(failure);
    expect(seen).toHaveLength(1);
    const event = seen[0] as CustomEvent<unknown>;
    expect(event.type).toBe('preload-error');
    expect(event.cancelable).toBe(true);
    expect(event.detail).toBe(failure);
  });

  it('marks whatever it rethrows as a chunk load error', async () => {
    const failure = new Error('network went away');
    expect(isChunkLoadError(failure)).toBe(false);
    await expect(lazyRoute(() => Promise.reject(failure))()).rejects.toBe(failure);
    expect(isChunkLoadError(failure)).toBe(true);
  });
});

describe('isChunkLoadError', () => {
  it('recognises the browsers’ messages and nothing else', () => {
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false);
    expect(isChunkLoadError('Failed to fetch dynamically imported module')).toBe(false);
    expect(isChunkLoadError(null)).toBe(false);
  });

  it('recognises errors Vite reported through vite:preloadError', () => {
    const stop = listenForVitePreloadErrors();
    const failure = new Error('something unusual');
    const event = Object.assign(new Event('vite:preloadError', { cancelable: true }), { payload: failure });
    window.dispatchEvent(event);
    stop();
    expect(isChunkLoadError(failure)).toBe(true);
  });
});
