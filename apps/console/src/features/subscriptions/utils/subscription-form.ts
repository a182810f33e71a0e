import {
  CreateSubscriptionBodySchema,
  FeatureCodeSchema,
  TenantIdSchema,
  type CreateSubscriptionBody,
} from '@omnibot/contracts';
import { z } from 'zod';
import { endAfterDayIso, startOfDayIso } from './subscription-state';

const DaySchema = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Pick a date');

/** The new-subscription form: whole days, turned into the API's date-times on submit. */
export const SubscriptionFormSchema = z
  .object({
    tenant_id: z.string().min(1, 'Pick an organisation').pipe(TenantIdSchema),
    code: z.string().min(1, 'Pick a subscription').pipe(FeatureCodeSchema),
    starts_on: DaySchema,
    /** Empty: no end. */
    last_day: z.union([z.literal(''), DaySchema]),
  })
  .refine((values) => values.last_day === '' || values.last_day >= values.starts_on, {
    path: ['last_day'],
    message: 'The last day cannot be before the first',
  });

export interface SubscriptionFormValues {
  tenant_id: string;
  code: string;
  starts_on: string;
  last_day: string;
}

/** The POST body, checked with the contract's schema before it is sent. */
export function subscriptionBodyOf(values: SubscriptionFormValues): CreateSubscriptionBody {
  const parsed = SubscriptionFormSchema.parse(values);
  return CreateSubscriptionBodySchema.parse({
    info: { code: parsed.code },
    status: 'active',
    starts_at: startOfDayIso(parsed.starts_on),
    ends_at: parsed.last_day ? endAfterDayIso(parsed.last_day) : null,
  });
}

/** The end-date form of /subscription/view: a last day, or none. */
export const EndDateFormSchema = z
  .object({ first_day: DaySchema, last_day: z.union([z.literal(''), DaySchema]) })
  .refine((values) => values.last_day === '' || values.last_day >= values.first_day, {
    path: ['last_day'],
    message: 'The last day cannot be before the first',
  });
