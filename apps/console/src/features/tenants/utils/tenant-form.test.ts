import type { Subscription } from '@omnibot/contracts';
import { describe, expect, it } from 'vitest';
import { codesToOffer } from './tenant-form';

const subscription = (code: string, is_current = true): Subscription => ({
  id: `s-${code}`,
  tenant_id: 'parent',
  info: { code, name: code },
  status: is_current ? 'active' : 'revoked',
  starts_at: '2026-01-01T00:00:00.000Z',
  ends_at: null,
  is_current,
});

describe('codesToOffer', () => {
  it('offers the codes the parent currently holds, with catalogue names', () => {
    const offers = codesToOffer('1', [
      subscription('omnirag'),
      subscription('subtenant'),
      subscription('casesummary', false),
    ]);
    expect(offers.map((offer) => offer.code)).toEqual(['omnirag', 'subtenant']);
    expect(offers[0]?.name).toBe('Omni RAG');
  });

  it('does not offer Client Organisations to a client (child of a partner)', () => {
    const offers = codesToOffer('2', [subscription('omnirag'), subscription('subtenant')]);
    expect(offers.map((offer) => offer.code)).toEqual(['omnirag']);
  });

  it('ignores codes outside the catalogue', () => {
    expect(codesToOffer('1', [subscription('legacy')])).toEqual([]);
  });
});
