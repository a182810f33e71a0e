import {
  AccountInfoInputSchema,
  AddressInputSchema,
  UpdateAccountBodySchema,
  type Account,
} from '@omnibot/contracts';
import { z } from 'zod';

/** The editable part of an account, validated with the contracts' input schemas before anything is sent. */
export const ServiceAddressFormSchema = z.object({
  name: UpdateAccountBodySchema.shape.name,
  address: AddressInputSchema,
  info: AccountInfoInputSchema,
});
export type ServiceAddressForm = z.infer<typeof ServiceAddressFormSchema>;

/** Every field as a string, so the inputs are controlled from the first render. */
export interface ServiceAddressValues {
  name: string;
  address: Required<Record<keyof ServiceAddressForm['address'], string>>;
  info: Required<Record<keyof ServiceAddressForm['info'], string>>;
}

export function formValuesOf(account: Account): ServiceAddressValues {
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
