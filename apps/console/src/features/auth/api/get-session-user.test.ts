import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { getSessionUser } from './get-session-user';

describe('getSessionUser', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('reads a signed-out answer (200 null) as nobody signed in', async () => {
    stubAuthApi();
    expect(await getSessionUser()).toBeNull();
  });

  it('reads the signed-in user', async () => {
    stubAuthApi({ signedIn: true });
    expect(await getSessionUser()).toMatchObject({ email: 'grace@acme.test', tenant_id: 't-acme' });
  });

  it('throws on a refusal, such as a disabled user', async () => {
    stubAuthApi({
      handle: (_method, path) =>
        path === '/v1/session'
          ? json(403, { code: 'auth/user-disabled', message: "The user is disabled and can't sign in" })
          : undefined,
    });
    await expect(getSessionUser()).rejects.toThrow("The user is disabled and can't sign in");
  });
});
