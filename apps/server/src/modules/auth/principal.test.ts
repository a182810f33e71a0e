import { AGENT_READ_ONLY_MESSAGE } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSignedInUser, makeTenant, platformTenantId } from '../accounts/accounts.fixtures';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { principalOf } from '../../lib/principal';
import { requirePrincipal } from './principal';

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

describe('requirePrincipal and roles', () => {
  let t: TestApp;
  const callers = {} as Record<'agent' | 'user', Caller>;
  beforeAll(async () => {
    t = await createTestApp({ skipReady: true });
    const guard = requirePrincipal(t.app.identity);
    const answer = async () => ({ ok: true });
    // Routes written without a thought for agents: only reads and routes that allow agents let them through.
    t.app.get('/v1/test-read', { onRequest: guard }, answer);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const)
      t.app.route({ method, url: '/v1/test-write', onRequest: guard, handler: answer });
    t.app.post('/v1/test-ask', { onRequest: guard, config: { allowAgent: true } }, answer);
    await t.app.ready();
    await makeTenant(t, {
      tenantId: 'roles-a',
      parent: await platformTenantId(t),
      type: '3',
      domain: 'roles-a.test',
    });
    callers.agent = { cookie: (await makeSignedInUser(t, 'roles-a', 'agent@roles-a.test', 'agent')).cookie };
    callers.user = { cookie: (await makeSignedInUser(t, 'roles-a', 'user@roles-a.test', 'user')).cookie };
  });
  afterAll(() => t.close());

  it('refuses an agent every call but reads, unless the route allows agents; other roles pass', async () => {
    expect((await injectAs(t, 'GET', '/v1/test-read', callers.agent)).statusCode).toBe(200);
    expect((await injectAs(t, 'POST', '/v1/test-ask', callers.agent, {})).statusCode).toBe(200);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const refused = await injectAs(t, method, '/v1/test-write', callers.agent, {});
      expect(refused.statusCode, method).toBe(403);
      expect(refused.json()).toEqual({ code: 'forbidden', message: AGENT_READ_ONLY_MESSAGE });
      expect((await injectAs(t, method, '/v1/test-write', callers.user, {})).statusCode, method).toBe(200);
    }
  });
});
