import { childType, SUBSCRIPTION_CATALOGUE, type FeatureCode, type Subscription } from '@omnibot/contracts';

/** Every field as a string, so the inputs are controlled from the first render. */
export interface TenantFormValues {
  name: string;
  address: { street: string; city: string; state: string; country: string; zipcode: string };
  info: { website: string; email: string; timezone: string; domain: string; work: string; fax: string };
  subscriptions: string[];
}

export const EMPTY_TENANT_FORM: TenantFormValues = {
  name: '',
  address: { street: '', city: '', state: '', country: '', zipcode: '' },
  info: { website: '', email: '', timezone: '', domain: '', work: '', fax: '' },
  subscriptions: [],
};

interface CodeOffer {
  code: FeatureCode;
  name: string;
  description: string;
}

const isFeatureCode = (code: string): code is FeatureCode => Object.hasOwn(SUBSCRIPTION_CATALOGUE, code);

/**
 * The codes a new child may get: those its parent currently holds. A client (type "3") cannot have children of
 * its own, so it is not offered Client Organisations.
 */
export function codesToOffer(parentType: string, parentSubscriptions: readonly Subscription[]): CodeOffer[] {
  const forClient = childType(parentType) === '3';
  const held = new Set(parentSubscriptions.filter((item) => item.is_current).map((item) => item.info.code));
  return [...held]
    .filter(isFeatureCode)
    .filter((code) => !(forClient && code === 'subtenant'))
    .sort()
    .map((code) => ({ code, ...SUBSCRIPTION_CATALOGUE[code] }));
}
