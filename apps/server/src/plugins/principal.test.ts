import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/app';
import { principalOf } from './principal';

describe('principalOf', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ skipReady: true });
    // A route that forgot requirePrincipal: reading the principal must refuse, never act for nobody.
    t.app.get('/v1/test-unguarded', async (request) => ({ tenant: principalOf(request).tenantId }));
    await t.app.ready();
  });
  afterAll(() => t.close());

  it('answers 401 with a code and message when no principal was resolved', async () => {
    const response = await t.app.inject({ url: '/v1/test-unguarded' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ code: 'unauthenticated', message: 'Sign in to continue.' });
  });
});
