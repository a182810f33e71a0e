import { afterAll, describe, expect, it, vi } from 'vitest';
import { shutDown } from './shutdown';
import { createTestApp, type TestApp } from './test/app';
import { defined } from './test/defined';

describe('graceful shutdown', () => {
  let t: TestApp | undefined;
  // close() after a shutdown closes nothing twice; it drops the throwaway PostgreSQL database.
  afterAll(async () => {
    await t?.close();
  });

  it('finishes an in-flight request, refuses new ones, then closes the database', async () => {
    t = await createTestApp({ skipReady: true });
    let release: () => void = () => undefined;
    const started = new Promise<void>((resolve) => {
      defined(t).app.get('/v1/test-slow', async () => {
        resolve();
        await new Promise<void>((done) => (release = done));
        return { finished: true };
      });
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const base = `http://127.0.0.1:${address.port}`;

    const inFlight = fetch(`${base}/v1/test-slow`);
    await started;
    const stopping = shutDown(t.app, t.database, 10_000);
    // Waits for the listener to close (a condition, not a fixed time), while the request still runs.
    const { server } = t.app;
    await vi.waitFor(() => expect(server.listening).toBe(false));
    expect(t.database.closed).toBe(false);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    release();

    const response = await inFlight;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ finished: true });
    expect(await stopping).toBe(true);
    expect(t.database.closed).toBe(true);
  });

  it('gives up on a request that outlives the time limit and still closes the database', async () => {
    const slow = await createTestApp({ skipReady: true });
    let arrived: () => void = () => undefined;
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    slow.app.get('/v1/test-hang', () => {
      arrived();
      return new Promise(() => undefined);
    });
    await slow.app.listen({ port: 0, host: '127.0.0.1' });
    const address = slow.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const hanging = fetch(`http://127.0.0.1:${address.port}/v1/test-hang`).catch((error: unknown) => error);
    await reached;
    expect(await shutDown(slow.app, slow.database, 300)).toBe(false);
    expect(slow.database.closed).toBe(true);
    expect(await hanging).toBeInstanceOf(Error);
    await slow.close();
  });
});
