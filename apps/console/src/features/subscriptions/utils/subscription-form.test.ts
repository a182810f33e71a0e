import { describe, expect, it } from 'vitest';
import { dayOf, lastDayOf } from './subscription-state';
import { SubscriptionFormSchema, subscriptionBodyOf } from './subscription-form';
import { defined } from '../../../test/defined';

const valid = { tenant_id: 'abc123', code: 'omnirag', starts_on: '2026-03-01', last_day: '2026-03-31' };

describe('the new-subscription form', () => {
  it('turns whole days into the API body', () => {
    const body = subscriptionBodyOf(valid);
    expect(body.info.code).toBe('omnirag');
    expect(body.status).toBe('active');
    expect(dayOf(defined(body.starts_at))).toBe('2026-03-01');
    expect(lastDayOf(defined(body.ends_at))).toBe('2026-03-31');
    expect(subscriptionBodyOf({ ...valid, last_day: '' }).ends_at).toBeNull();
  });

  it('says what is missing or wrong, field by field', () => {
    const result = SubscriptionFormSchema.safeParse({
      tenant_id: '',
      code: '',
      starts_on: '',
      last_day: 'x',
    });
    expect(result.success).toBe(false);
    const fields = defined(result.error).issues.map((issue) => issue.path.join('.'));
    expect(fields).toEqual(expect.arrayContaining(['tenant_id', 'code', 'starts_on', 'last_day']));
    const order = SubscriptionFormSchema.safeParse({ ...valid, last_day: '2026-02-01' });
    expect(order.error?.issues[0]).toMatchObject({ path: ['last_day'] });
    expect(SubscriptionFormSchema.safeParse({ ...valid, code: 'unknown' }).success).toBe(false);
  });
});
