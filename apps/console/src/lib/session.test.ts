import { describe, expect, it } from 'vitest';
import { ANONYMOUS_MENU_CONTEXT, menuContextFor, type Session } from './session';

const session = (overrides: Partial<Session> & { role?: string } = {}): Session => ({
  tenantName: 'Acme',
  tenantType: '2',
  profile: {
    firstname: 'Ada',
    lastname: 'Lovelace',
    role: overrides.role ?? 'administrator',
    tenant_id: 't1',
  },
  features: ['subtenant'],
  signOut: () => Promise.resolve(),
  ...overrides,
});

describe('menuContextFor', () => {
  it('gives the least-privileged view without a session', () => {
    expect(menuContextFor(null)).toEqual({ level: '3', role: 'user', features: [] });
    expect(menuContextFor(null)).toBe(ANONYMOUS_MENU_CONTEXT);
  });

  it('takes level, role and features from the session', () => {
    expect(menuContextFor(session())).toEqual({ level: '2', role: 'administrator', features: ['subtenant'] });
    expect(menuContextFor(session({ tenantType: '1', role: 'master' })).level).toBe('1');
  });

  it('adds whether the organisation has live agents once it is known, never without a session', () => {
    expect(menuContextFor(session(), true)).toEqual({
      level: '2',
      role: 'administrator',
      features: ['subtenant'],
      liveAgents: true,
    });
    expect(menuContextFor(session(), false).liveAgents).toBe(false);
    expect(menuContextFor(session())).not.toHaveProperty('liveAgents');
    expect(menuContextFor(null, true)).toBe(ANONYMOUS_MENU_CONTEXT);
  });

  it('treats type "3" and unknown types as level 3, and unknown roles as user', () => {
    expect(menuContextFor(session({ tenantType: '3' })).level).toBe('3');
    expect(menuContextFor(session({ tenantType: 'x' })).level).toBe('3');
    expect(menuContextFor(session({ role: 'owner' })).role).toBe('user');
  });
});
