import { AccountInfoInputSchema, AddressInputSchema, UpdateAccountBodySchema } from '@omnibot/contracts';
import { z } from 'zod';
import { accountFormValuesOf, type AccountFormValues } from '../../../lib/account-form';

/** The editable part of an account, validated with the contracts' input schemas before anything is sent. */
export const ServiceAddressFormSchema = z.object({
  name: UpdateAccountBodySchema.shape.name,
  address: AddressInputSchema,
  info: AccountInfoInputSchema,
});

/** Every field as a string, so the inputs are controlled from the first render. */
export type ServiceAddressValues = AccountFormValues;

export const formValuesOf = accountFormValuesOf;
