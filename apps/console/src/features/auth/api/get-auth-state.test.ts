import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { getAuthState, type AuthStateDeps } from './get-auth-state';
import type { SessionUser } from '@omnibot/contracts';
import type { StartUpFetchers } from './start-up-flow';
import { defined } from '../../../test/defined';

const NOW = '2026-01-01T00:00:00.000Z';
const user: SessionUser = {
  user_id: 'u1',
  email: 'ada@acme.test',
  name: 'Ada Lovelace',
  tenant_id: 't1',
  role: 'administrator',
  must_change_password: false,
};

const fetchers = (credential: 200 | 404 = 200): StartUpFetchers => ({
  getProfileByEmail: async () => [
    {
      id: 'u1',
      tenant_id: 't1',
      is_active: true,
      email: user.email,
      username: null,
      role: 'administrator',
      address: {},
      info: { firstname: 'Ada', lastname: 'Lovelace' },
      must_change_password: false,
      email_verified: true,
      created_by: null,
      created_at: NOW,
      updated_by: null,
      updated_at: NOW,
    },
  ],
  getAccount: async () => [
    {
      id: 'a1',
      tenant_id: 't1',
      parent_tenant_id: 'p',
      name: 'Acme',
      type: '2',
      is_active: true,
      address: {},
      info: {},
      created_by: null,
      updated_by: null,
      created_at: NOW,
      updated_at: NOW,
    },
  ],
  getCredential: async () =>
    credential === 200
      ? { code: 200, key: 'k', secret: '****1234' }
      : { code: 404, message: 'No credential' },
  getSubscriptions: async () => ({
    code: 200,
    items: [
      {
        id: 's1',
        tenant_id: 't1',
        info: { code: 'omnirag', name: 'Omni RAG' },
        status: 'active',
        starts_at: NOW,
        ends_at: null,
        is_current: true,
      },
    ],
  }),
});

function deps(overrides: Partial<AuthStateDeps> = {}) {
  const storage = window.sessionStorage;
  storage.clear();
  storage.setItem('tenant_name', 'Someone else');
  return {
    getSessionUser: vi.fn(async () => user),
    signOut: vi.fn(async () => undefined),
    fetchers: fetchers(),
    storage,
    ...overrides,
  };
}

describe('getAuthState', () => {
  it('stores tenant_id, tenant_type, tenant_name, profile and the current subscriptions after the start-up flow', async () => {
    const d = deps();
    const state = await getAuthState(d);
    expect(state).toMatchObject({ status: 'signed-in', user, data: { features: ['omnirag'] } });
    expect(d.storage.getItem('tenant_id')).toBe('t1');
    expect(d.storage.getItem('tenant_type')).toBe('2');
    expect(d.storage.getItem('tenant_name')).toBe('Acme');
    expect(JSON.parse(defined(d.storage.getItem('profile')))).toMatchObject({
      tenant_id: 't1',
      role: 'administrator',
      info: { firstname: 'Ada', lastname: 'Lovelace' },
    });
    expect(JSON.parse(defined(d.storage.getItem('subscription')))).toEqual([
      expect.objectContaining({ info: { code: 'omnirag', name: 'Omni RAG' } }),
    ]);
    expect(d.signOut).not.toHaveBeenCalled();
  });

  it('is signed out, with session storage cleared, when nobody is signed in', async () => {
    const d = deps({ getSessionUser: vi.fn(async () => null) });
    expect(await getAuthState(d)).toEqual({ status: 'signed-out' });
    expect(d.storage.length).toBe(0);
  });

  it('stops at the password change while the password is a one-time one', async () => {
    const getProfileByEmail = vi.fn();
    const d = deps({
      getSessionUser: vi.fn(async () => ({ ...user, must_change_password: true })),
      fetchers: { ...fetchers(), getProfileByEmail },
    });
    expect(await getAuthState(d)).toMatchObject({ status: 'password-change' });
    expect(getProfileByEmail).not.toHaveBeenCalled();
  });

  it('signs out with the message saying what could not be loaded when a step fails', async () => {
    const d = deps({ fetchers: fetchers(404) });
    const state = await getAuthState(d);
    expect(state).toMatchObject({ status: 'signed-out' });
    expect(state.status === 'signed-out' && state.notice).toMatch(
      /^Your account's credential could not be loaded\./,
    );
    expect(d.signOut).toHaveBeenCalledOnce();
    expect(d.storage.length).toBe(0);
  });

  it("ends a session the server refuses with the server's message, and explains other failures", async () => {
    const disabled = deps({
      getSessionUser: vi.fn(() =>
        Promise.reject(new ApiError(403, 'auth/user-disabled', "The user is disabled and can't sign in")),
      ),
    });
    expect(await getAuthState(disabled)).toEqual({
      status: 'signed-out',
      notice: "The user is disabled and can't sign in",
    });
    expect(disabled.signOut).toHaveBeenCalledOnce();

    const down = deps({
      getSessionUser: vi.fn(() =>
        Promise.reject(new ApiError(0, 'network_error', 'The server could not be reached.')),
      ),
      signOut: vi.fn(() => Promise.reject(new Error('offline'))),
    });
    expect(await getAuthState(down)).toEqual({
      status: 'signed-out',
      notice: 'Your sign-in could not be checked. The server could not be reached.',
    });
  });
});
