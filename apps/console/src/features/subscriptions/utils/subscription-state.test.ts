import type { Subscription } from '@omnibot/contracts';
import { describe, expect, it } from 'vitest';
import {
  dayOf,
  endAfterDayIso,
  heldCodes,
  isAssigned,
  lastDayOf,
  planAssignment,
  startOfDayIso,
  subscriptionState,
} from './subscription-state';

const NOW = new Date('2026-06-15T12:00:00Z');

const sub = (code: string, overrides: Partial<Subscription> = {}): Subscription => ({
  id: `id-${code}`,
  tenant_id: 'child',
  info: { code, name: code },
  status: 'active',
  starts_at: '2026-01-01T00:00:00.000Z',
  ends_at: null,
  is_current: true,
  ...overrides,
});

describe('subscriptionState', () => {
  it('tells current, starting later, lapsed and revoked apart', () => {
    expect(subscriptionState(sub('a'), NOW)).toBe('current');
    expect(subscriptionState(sub('a', { is_current: false, starts_at: '2026-07-01T00:00:00Z' }), NOW)).toBe(
      'scheduled',
    );
    expect(subscriptionState(sub('a', { is_current: false, ends_at: '2026-03-01T00:00:00Z' }), NOW)).toBe(
      'lapsed',
    );
    expect(subscriptionState(sub('a', { status: 'revoked', is_current: false }), NOW)).toBe('revoked');
    expect(isAssigned(undefined, NOW)).toBe(false);
  });

  it('lists the codes held now, once each', () => {
    expect(
      heldCodes([
        sub('omnirag'),
        sub('omnirag'),
        sub('subtenant'),
        sub('casesummary', { is_current: false }),
      ]),
    ).toEqual(['omnirag', 'subtenant']);
  });
});

describe('whole days', () => {
  it('starts at local midnight and ends when the day after the last day begins', () => {
    expect(new Date(startOfDayIso('2026-03-10')).getHours()).toBe(0);
    expect(dayOf(startOfDayIso('2026-03-10'))).toBe('2026-03-10');
    expect(dayOf(endAfterDayIso('2026-03-31'))).toBe('2026-04-01');
    expect(lastDayOf(endAfterDayIso('2026-03-31'))).toBe('2026-03-31');
    expect(lastDayOf(endAfterDayIso('2026-12-31'))).toBe('2026-12-31');
  });
});

describe('planAssignment', () => {
  const codes = ['casesummary', 'omniassist', 'omnirag'];

  it('creates what the child never had and revokes what is no longer ticked', () => {
    const changes = planAssignment(codes, [sub('casesummary')], new Set(['omnirag']), NOW);
    expect(changes.map(({ kind, code }) => [kind, code])).toEqual([
      ['revoke', 'casesummary'],
      ['create', 'omnirag'],
    ]);
  });

  it('reactivates a revoked or lapsed subscription, dropping an end date that has passed', () => {
    const revoked = sub('omnirag', { status: 'revoked', is_current: false, ends_at: '2027-01-01T00:00:00Z' });
    const lapsed = sub('omniassist', { is_current: false, ends_at: '2026-02-01T00:00:00Z' });
    const changes = planAssignment(codes, [revoked, lapsed], new Set(['omnirag', 'omniassist']), NOW);
    expect(changes).toEqual([
      { kind: 'reactivate', code: 'omniassist', subscription: lapsed, clearEnd: true },
      { kind: 'reactivate', code: 'omnirag', subscription: revoked, clearEnd: false },
    ]);
  });

  it('changes nothing when the ticks match, and leaves codes outside the list alone', () => {
    const scheduled = sub('omnirag', { is_current: false, starts_at: '2026-09-01T00:00:00Z' });
    expect(planAssignment(codes, [scheduled, sub('subtenant')], new Set(['omnirag']), NOW)).toEqual([]);
  });
});
