import { SUBSCRIPTION_CATALOGUE, type FeatureCode, type Subscription } from '@omnibot/contracts';

/** How a subscription stands today: what the console shows, and whether it counts as assigned. */
type SubscriptionState = 'current' | 'scheduled' | 'lapsed' | 'revoked';

export function subscriptionState(subscription: Subscription, now = new Date()): SubscriptionState {
  if (subscription.status === 'revoked') return 'revoked';
  if (subscription.is_current) return 'current';
  return new Date(subscription.starts_at) > now ? 'scheduled' : 'lapsed';
}

export const SUBSCRIPTION_STATE_LABELS: Record<SubscriptionState, { label: string; color: string }> = {
  current: { label: 'Current', color: 'teal' },
  scheduled: { label: 'Starts later', color: 'blue' },
  lapsed: { label: 'Lapsed', color: 'orange' },
  revoked: { label: 'Revoked', color: 'gray' },
};

/** Assigned means active and not over: current now, or starting later. */
export const isAssigned = (subscription: Subscription | undefined, now = new Date()) =>
  subscription !== undefined && ['current', 'scheduled'].includes(subscriptionState(subscription, now));

export const codeName = (code: string) => SUBSCRIPTION_CATALOGUE[code as FeatureCode]?.name ?? code;

/** The codes a tenant holds now (is_current), sorted: what it can pass on to its children. */
export const heldCodes = (subscriptions: readonly Subscription[]): FeatureCode[] =>
  [
    ...new Set(
      subscriptions
        .filter((item) => item.is_current)
        .map((item) => item.info.code)
        .filter((code): code is FeatureCode => Object.hasOwn(SUBSCRIPTION_CATALOGUE, code)),
    ),
  ].sort();

// ---- Dates: the forms pick whole days in the reader's time zone ----

const pad = (value: number) => String(value).padStart(2, '0');
const dayString = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

function localMidnight(day: string, addDays = 0): Date {
  const [year = NaN, month = NaN, date = NaN] = day.split('-').map(Number);
  return new Date(year, month - 1, date + addDays);
}

/** "2026-11-22": today in the reader's time zone. */
export const today = (now = new Date()) => dayString(now);

/** The first moment of `day` (local), as the API's ISO date-time. */
export const startOfDayIso = (day: string) => localMidnight(day).toISOString();

/** A subscription with last day `day` ends when the next day starts (local): ends_at is exclusive. */
export const endAfterDayIso = (day: string) => localMidnight(day, 1).toISOString();

/** The day (local) a starts_at falls on, for a date input. */
export const dayOf = (iso: string) => dayString(new Date(iso));

/** The moment before `endsAt` (exclusive): formatted as a date, it is the subscription's last day. */
export const lastMomentOf = (endsAt: string) => new Date(new Date(endsAt).getTime() - 1);

/** The last whole day of a subscription ending at `endsAt` (exclusive), for a date input. */
export const lastDayOf = (endsAt: string) => dayString(new Date(new Date(endsAt).getTime() - 1));

// ---- Assigning codes to a child ----

export type AssignmentChange =
  | { kind: 'create'; code: string }
  | { kind: 'revoke'; code: string; subscription: Subscription }
  /** `clearEnd`: the old end date has passed, so the reactivated subscription runs without one. */
  | { kind: 'reactivate'; code: string; subscription: Subscription; clearEnd: boolean };

/**
 * The calls that make a child hold exactly the ticked codes among `codes`: a new subscription for a code it never
 * had, reactivation for a revoked or lapsed one, revocation for an assigned code that is no longer ticked.
 */
export function planAssignment(
  codes: readonly string[],
  childSubscriptions: readonly Subscription[],
  ticked: ReadonlySet<string>,
  now = new Date(),
): AssignmentChange[] {
  const changes: AssignmentChange[] = [];
  for (const code of codes) {
    const subscription = childSubscriptions.find((item) => item.info.code === code);
    const has = isAssigned(subscription, now);
    const wants = ticked.has(code);
    if (wants && !has) {
      if (!subscription) changes.push({ kind: 'create', code });
      else {
        const ended = subscription.ends_at !== null && new Date(subscription.ends_at) <= now;
        changes.push({ kind: 'reactivate', code, subscription, clearEnd: ended });
      }
    } else if (!wants && has && subscription) {
      changes.push({ kind: 'revoke', code, subscription });
    }
  }
  return changes;
}

/** "Omni RAG will be assigned; Case Summarization will be revoked." */
export function describeChanges(changes: readonly AssignmentChange[]): string[] {
  return changes.map((change) =>
    change.kind === 'revoke'
      ? `${codeName(change.code)} will be revoked (also in the organisations below it).`
      : `${codeName(change.code)} will be assigned${change.kind === 'reactivate' ? ' again' : ''}.`,
  );
}
