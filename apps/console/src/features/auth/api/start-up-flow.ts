import {
  AUTH_MESSAGES,
  isCodeItem,
  type Account,
  type CredentialStatus,
  type Profile,
  type Subscription,
  type SubscriptionList,
} from '@omnibot/contracts';
import {
  getAccountLookup,
  getCredentialStatus,
  getProfileByEmail,
  getSubscriptionList,
  type AccountLookup,
  type ProfileLookup,
} from '../../../lib/account-api';

/** The account-service reads of the start-up flow, injectable for tests. */
export interface StartUpFetchers {
  getProfileByEmail(tenantId: string, email: string): Promise<ProfileLookup>;
  getAccount(tenantId: string): Promise<AccountLookup>;
  getCredential(tenantId: string): Promise<CredentialStatus>;
  getSubscriptions(tenantId: string): Promise<SubscriptionList>;
}

export const accountServiceFetchers: StartUpFetchers = {
  getProfileByEmail: (tenantId, email) => getProfileByEmail(tenantId, email),
  getAccount: (tenantId) => getAccountLookup(tenantId),
  getCredential: (tenantId) => getCredentialStatus(tenantId),
  getSubscriptions: (tenantId) => getSubscriptionList(tenantId),
};

export interface StartUpData {
  profile: Profile;
  account: Account;
  /** Null when a type "1" account's credential could not be loaded (tolerated). */
  credential: Extract<CredentialStatus, { code: 200 }> | null;
  /** The current subscriptions only (active, within their dates). */
  subscriptions: Subscription[];
  /** Feature flags: the codes of the current subscriptions. */
  features: string[];
}

type StartUpStep = 'profile' | 'account' | 'credential' | 'subscription';

type StartUpResult =
  { ok: true; data: StartUpData } | { ok: false; step: StartUpStep; message: string; cause?: unknown };

const COULD_NOT_LOAD: Record<StartUpStep, string> = {
  profile: 'Your profile could not be loaded.',
  account: 'Your account could not be loaded.',
  credential: "Your account's credential could not be loaded.",
  subscription: "Your account's subscriptions could not be loaded.",
};

const AFTER = ' Sign in again, or contact your administrator if this keeps happening.';

export const startUpFailureMessage = (step: StartUpStep) => `${COULD_NOT_LOAD[step]}${AFTER}`;

const fail = (step: StartUpStep, cause?: unknown, message = startUpFailureMessage(step)): StartUpResult => ({
  ok: false,
  step,
  message,
  cause,
});

/** Runs a step; a thrown error (network, 5xx, unreadable answer) becomes `undefined`, with the cause kept. */
async function attempt<T>(step: () => Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await step() };
  } catch (error) {
    return { error };
  }
}

/** Account type "1" (the platform) still starts when its credential or subscriptions cannot be loaded. */
const isTolerant = (account: Account) => account.type === '1';

/**
 * The start-up flow after sign-in: the profile by e-mail, then the account by the profile's
 * tenant_id, then the credential, then the subscriptions. Any failing step ends it with a message saying what
 * could not be loaded, except that a type "1" account is tolerated when the credential or subscription fetch
 * fails. An account answer whose first item carries a `code` means not found. A tenant of any other type needs
 * at least one current subscription.
 */
export async function runStartUpFlow(
  user: { tenant_id: string; email: string },
  fetchers: StartUpFetchers,
): Promise<StartUpResult> {
  const profiles = await attempt(() => fetchers.getProfileByEmail(user.tenant_id, user.email));
  const profile = profiles.value?.[0];
  if (!profile || isCodeItem(profile)) return fail('profile', profiles.error ?? profile);

  const accounts = await attempt(() => fetchers.getAccount(profile.tenant_id));
  const account = accounts.value?.[0];
  // The account store is cleared to nothing: a code item is never used as an account.
  if (!account || isCodeItem(account)) return fail('account', accounts.error ?? account);

  const credentials = await attempt(() => fetchers.getCredential(account.tenant_id));
  const credential = credentials.value?.code === 200 ? credentials.value : null;
  if (!credential && !isTolerant(account)) return fail('credential', credentials.error ?? credentials.value);

  const lists = await attempt(() => fetchers.getSubscriptions(account.tenant_id));
  const list = lists.value;
  let subscriptions: Subscription[] = [];
  if (list?.code === 200) {
    subscriptions = list.items.filter((item) => item.is_current);
  } else if (!isTolerant(account)) {
    // A 404 answer means the tenant has no subscription at all; a thrown error means it could not be read.
    return list
      ? fail('subscription', list, AUTH_MESSAGES.noActiveSubscription)
      : fail('subscription', lists.error);
  }
  if (subscriptions.length === 0 && !isTolerant(account)) {
    return fail('subscription', list, AUTH_MESSAGES.noActiveSubscription);
  }

  const features = [...new Set(subscriptions.map((item) => item.info.code))];
  return { ok: true, data: { profile, account, credential, subscriptions, features } };
}
