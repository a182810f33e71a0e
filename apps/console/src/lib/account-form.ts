import type { Account } from '@omnibot/contracts';

/** An account's editable fields with every value a string, so form inputs are controlled from the first render. */
export interface AccountFormValues {
  name: string;
  address: { street: string; city: string; state: string; country: string; zipcode: string };
  info: { website: string; email: string; timezone: string; domain: string; work: string; fax: string };
}

export function accountFormValuesOf(account: Account): AccountFormValues {
  const { address, info } = account;
  return {
    name: account.name,
    address: {
      street: address.street ?? '',
      city: address.city ?? '',
      state: address.state ?? '',
      country: address.country ?? '',
      zipcode: address.zipcode ?? '',
    },
    info: {
      website: info.website ?? '',
      email: info.email ?? '',
      timezone: info.timezone ?? '',
      domain: info.domain ?? '',
      work: info.work ?? '',
      fax: info.fax ?? '',
    },
  };
}
