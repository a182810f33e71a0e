import { describe, expect, it } from 'vitest';
import { BotStatsQuerySchema, ConversationListQuerySchema } from './conversations';

describe('dashboard queries', () => {
  it('takes 1 to 90 whole days, 30 when left out', () => {
    expect(BotStatsQuerySchema.parse({})).toEqual({ days: 30 });
    expect(BotStatsQuerySchema.parse({ days: '1' })).toEqual({ days: 1 });
    expect(BotStatsQuerySchema.parse({ days: '90' })).toEqual({ days: 90 });
    for (const days of ['0', '91', '7.5', 'seven', '-3', '']) {
      expect([days, BotStatsQuerySchema.safeParse({ days }).success]).toEqual([days, false]);
    }
    expect(BotStatsQuerySchema.safeParse({ days: '7', bot: 'x' }).success).toBe(false);
  });

  it('takes real calendar days for from and to, in order, and a bounded search', () => {
    expect(ConversationListQuerySchema.parse({ from: '2026-02-28', to: '2026-03-01', q: ' 100% ' })).toEqual({
      page: 1,
      page_size: 20,
      from: '2026-02-28',
      to: '2026-03-01',
      q: '100%',
    });
    expect(ConversationListQuerySchema.safeParse({ from: '2024-02-29' }).success).toBe(true);
    for (const bad of [
      { from: '2026-02-29' },
      { to: '2026-13-01' },
      { from: '2026-1-5' },
      { from: '2026-01-05T00:00:00Z' },
      { from: '2026-03-02', to: '2026-03-01' },
      { q: 'x'.repeat(201) },
      { q: 'a\u0000b' },
      { page_size: '101' },
    ]) {
      expect([bad, ConversationListQuerySchema.safeParse(bad).success]).toEqual([bad, false]);
    }
  });
});
