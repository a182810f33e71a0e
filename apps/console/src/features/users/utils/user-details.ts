import {
  AddressInputSchema,
  UserInfoInputSchema,
  type Profile,
  type UpdateUserBody,
} from '@omnibot/contracts';
import { z } from 'zod';

/** Display name, names, phones and address: validated with the contracts' input schemas before sending. */
export const UserDetailsFormSchema = z.object({
  // Empty means "no display name" (sent as null); otherwise the contract's 1-120 characters.
  username: z.string().trim().max(120, 'Use at most 120 characters'),
  info: UserInfoInputSchema,
  address: AddressInputSchema,
});

export type UserInfoField = keyof z.infer<typeof UserInfoInputSchema>;
export type AddressField = keyof z.infer<typeof AddressInputSchema>;

/** Every field as a string, so the inputs are controlled from the first render. */
export interface UserDetailsValues {
  username: string;
  info: Record<UserInfoField, string>;
  address: Record<AddressField, string>;
}

const INFO_FIELDS: UserInfoField[] = [
  'firstname',
  'middlename',
  'lastname',
  'home',
  'mobile',
  'work',
  'extension',
  'fax',
  'primary',
];
const ADDRESS_FIELDS: AddressField[] = ['street', 'city', 'state', 'country', 'zipcode'];

const pick = <K extends string>(keys: K[], source: Partial<Record<K, string>>) =>
  Object.fromEntries(keys.map((key) => [key, source[key] ?? ''])) as Record<K, string>;

export function userDetailsValuesOf(profile: Profile): UserDetailsValues {
  return {
    username: profile.username ?? '',
    info: pick(INFO_FIELDS, profile.info),
    address: pick(ADDRESS_FIELDS, profile.address),
  };
}

/** The PUT body for the details (the server drops empty strings); an empty display name clears it. */
export function userDetailsBody(values: UserDetailsValues): UpdateUserBody {
  const { username, info, address } = UserDetailsFormSchema.parse(values);
  return { username: username === '' ? null : username, info, address };
}
