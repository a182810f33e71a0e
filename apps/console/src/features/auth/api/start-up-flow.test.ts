import { AUTH_MESSAGES, type Account, type Profile, type Subscription } from '@omnibot/contracts';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { runStartUpFlow, startUpFailureMessage, type StartUpFetchers } from './start-up-flow';

const NOW = '2026-01-01T00:00:00.000Z';

const profile = (tenantId: string): Profile => ({
  id: 'u1',
  tenant_id: tenantId,
  is_active: true,
  email: 'ada@acme.test',
  username: 'Ada Lovelace',
  role: 'administrator',
  address: {},
  info: { firstname: 'Ada', lastname: 'Lovelace' },
  must_change_password: false,
  email_verified: true,
  created_by: null,
  created_at: NOW,
  updated_by: null,
  updated_at: NOW,
});

const account = (type: Account['type'], tenantId = 't-acme'): Account => ({
  id: 'a1',
  tenant_id: tenantId,
  parent_tenant_id: type === '1' ? null : 'platform',
  name: 'Acme',
  type,
  is_active: true,
  address: {},
  info: { domain: 'acme.test' },
  created_by: null,
  updated_by: null,
  created_at: NOW,
  updated_at: NOW,
});

const subscription = (code: string, isCurrent = true): Subscription => ({
  id: `s-${code}`,
  tenant_id: 't-acme',
  info: { code, name: code },
  status: isCurrent ? 'active' : 'revoked',
  starts_at: NOW,
  ends_at: null,
  is_current: isCurrent,
});

const serverError = () => new ApiError(500, 'internal', 'Internal Server Error');

/** Fetchers for a healthy tenant of `type`, each a mock; override any step. */
function fetchers(type: Account['type'], overrides: Partial<StartUpFetchers> = {}) {
  return {
    getProfileByEmail: vi.fn<StartUpFetchers['getProfileByEmail']>(
      overrides.getProfileByEmail ?? (async () => [profile('t-acme')]),
    ),
    getAccount: vi.fn<StartUpFetchers['getAccount']>(overrides.getAccount ?? (async () => [account(type)])),
    getCredential: vi.fn<StartUpFetchers['getCredential']>(
      overrides.getCredential ?? (async () => ({ code: 200, key: 'k1', secret: '****abcd' })),
    ),
    getSubscriptions: vi.fn<StartUpFetchers['getSubscriptions']>(
      overrides.getSubscriptions ??
        (async () => ({
          code: 200,
          items: [subscription('omnirag'), subscription('subtenant'), subscription('casesummary', false)],
        })),
    ),
  };
}

const user = { tenant_id: 't-session', email: 'ada@acme.test' };

describe('runStartUpFlow', () => {
  it('loads profile, account, credential and subscriptions in order, keeping the current ones', async () => {
    const calls: string[] = [];
    const f = fetchers('2');
    f.getProfileByEmail.mockImplementation(async (tenantId, email) => {
      calls.push(`profile ${tenantId} ${email}`);
      return [profile('t-acme')];
    });
    f.getAccount.mockImplementation(async (tenantId) => {
      calls.push(`account ${tenantId}`);
      return [account('2')];
    });
    f.getCredential.mockImplementation(async (tenantId) => {
      calls.push(`credential ${tenantId}`);
      return { code: 200, key: 'k1', secret: '****abcd' };
    });
    f.getSubscriptions.mockImplementation(async (tenantId) => {
      calls.push(`subscriptions ${tenantId}`);
      return { code: 200, items: [subscription('omnirag'), subscription('casesummary', false)] };
    });

    const result = await runStartUpFlow(user, f);

    // The account is looked up with the profile's tenant_id (the first item's tenant_id is read).
    expect(calls).toEqual([
      'profile t-session ada@acme.test',
      'account t-acme',
      'credential t-acme',
      'subscriptions t-acme',
    ]);
    expect(result).toMatchObject({
      ok: true,
      data: {
        account: { name: 'Acme', type: '2' },
        credential: { key: 'k1' },
        subscriptions: [{ info: { code: 'omnirag' } }],
        features: ['omnirag'],
      },
    });
  });

  it('fails at the profile step when the profile is missing or cannot be fetched', async () => {
    for (const getProfileByEmail of [
      async () => [{ code: 404, message: 'User not found' }],
      async () => [],
      async () => Promise.reject(serverError()),
    ]) {
      const f = fetchers('2', { getProfileByEmail });
      const result = await runStartUpFlow(user, f);
      expect(result).toMatchObject({ ok: false, step: 'profile', message: startUpFailureMessage('profile') });
      expect(f.getAccount).not.toHaveBeenCalled();
    }
    expect(startUpFailureMessage('profile')).toMatch(/^Your profile could not be loaded\./);
  });

  it('treats an account answer whose first item carries a code as not found, even for type "1"', async () => {
    const f = fetchers('1', { getAccount: async () => [{ code: 404, message: 'Account not found' }] });
    const result = await runStartUpFlow(user, f);
    expect(result).toMatchObject({ ok: false, step: 'account' });
    expect(result.ok || result.message).toMatch(/^Your account could not be loaded\./);
    expect(f.getCredential).not.toHaveBeenCalled();

    const failing = fetchers('1', { getAccount: () => Promise.reject(serverError()) });
    expect(await runStartUpFlow(user, failing)).toMatchObject({ ok: false, step: 'account' });
  });

  it('tolerates a type "1" account whose credential is missing (404) or fails (500)', async () => {
    for (const getCredential of [
      async () => ({ code: 404 as const, message: 'No credential' }),
      () => Promise.reject(serverError()),
    ]) {
      const result = await runStartUpFlow(user, fetchers('1', { getCredential }));
      expect(result).toMatchObject({
        ok: true,
        data: { credential: null, features: ['omnirag', 'subtenant'] },
      });
    }
  });

  it('tolerates a type "1" account whose subscriptions are missing (404) or fail (500)', async () => {
    for (const getSubscriptions of [
      async () => ({ code: 404 as const, message: 'No subscription' }),
      () => Promise.reject(serverError()),
    ]) {
      const result = await runStartUpFlow(user, fetchers('1', { getSubscriptions }));
      expect(result).toMatchObject({ ok: true, data: { subscriptions: [], features: [] } });
    }
  });

  it('sends a type "2" tenant whose credential is missing or fails back with the credential message', async () => {
    for (const getCredential of [
      async () => ({ code: 404 as const, message: 'No credential' }),
      () => Promise.reject(serverError()),
    ]) {
      const f = fetchers('2', { getCredential });
      const result = await runStartUpFlow(user, f);
      expect(result).toMatchObject({ ok: false, step: 'credential' });
      expect(result.ok || result.message).toMatch(/^Your account's credential could not be loaded\./);
      expect(f.getSubscriptions).not.toHaveBeenCalled();
    }
  });

  it('also refuses a type "3" tenant without a credential', async () => {
    const f = fetchers('3', {
      getCredential: async () => ({ code: 404 as const, message: 'No credential' }),
    });
    expect(await runStartUpFlow(user, f)).toMatchObject({ ok: false, step: 'credential' });
  });

  it('refuses a tenant that is not type "1" without a current subscription', async () => {
    const none = fetchers('2', {
      getSubscriptions: async () => ({ code: 404 as const, message: 'No subscription' }),
    });
    expect(await runStartUpFlow(user, none)).toMatchObject({
      ok: false,
      step: 'subscription',
      message: AUTH_MESSAGES.noActiveSubscription,
    });

    const expired = fetchers('3', {
      getSubscriptions: async () => ({ code: 200 as const, items: [subscription('omnirag', false)] }),
    });
    expect(await runStartUpFlow(user, expired)).toMatchObject({
      ok: false,
      message: AUTH_MESSAGES.noActiveSubscription,
    });

    const failing = fetchers('2', { getSubscriptions: () => Promise.reject(serverError()) });
    const result = await runStartUpFlow(user, failing);
    expect(result).toMatchObject({ ok: false, step: 'subscription' });
    expect(result.ok || result.message).toMatch(/^Your account's subscriptions could not be loaded\./);
  });
});
