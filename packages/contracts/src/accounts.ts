import { z } from 'zod';
import { RoleSchema, TenantTypeSchema } from './tenancy';

export const APP_ID_HEADER = 'x-app-id';
/** The console's application identifier (spec: a fixed header on every account-service call). */
export const CONSOLE_APP_ID = 'omnibot-console';

export const AddressSchema = z.object({
  street: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  state: z.string().max(100).optional(),
  country: z.string().max(100).optional(),
  zipcode: z.string().max(20).optional(),
});
export type Address = z.infer<typeof AddressSchema>;

export const AccountInfoSchema = z.object({
  website: z.string().max(300).optional(),
  email: z.string().max(254).optional(),
  timezone: z.string().max(64).optional(),
  domain: z.string().max(253).optional(),
  work: z.string().max(40).optional(),
  fax: z.string().max(40).optional(),
});

export const AccountSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  parent_tenant_id: z.string().nullable(),
  name: z.string(),
  type: TenantTypeSchema,
  is_active: z.boolean(),
  address: AddressSchema,
  info: AccountInfoSchema,
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Account = z.infer<typeof AccountSchema>;

/** Account-service "not found" item: a list whose first item carries a code. */
export const CodeItemSchema = z.object({ code: z.number().int(), message: z.string() });
export type CodeItem = z.infer<typeof CodeItemSchema>;

export const AccountLookupSchema = z.array(z.union([AccountSchema, CodeItemSchema]));

export const UserInfoSchema = z.object({
  firstname: z.string().max(100).optional(),
  middlename: z.string().max(100).optional(),
  lastname: z.string().max(100).optional(),
  home: z.string().max(40).optional(),
  mobile: z.string().max(40).optional(),
  work: z.string().max(40).optional(),
  extension: z.string().max(20).optional(),
  fax: z.string().max(40).optional(),
  primary: z.string().max(40).optional(),
});
export type UserInfo = z.infer<typeof UserInfoSchema>;

export const ProfileSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  is_active: z.boolean(),
  email: z.string(),
  username: z.string().nullable(),
  role: RoleSchema,
  address: AddressSchema,
  info: UserInfoSchema,
  must_change_password: z.boolean(),
  email_verified: z.boolean(),
  created_by: z.string().nullable(),
  created_at: z.string(),
  updated_by: z.string().nullable(),
  updated_at: z.string(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const ProfileLookupSchema = z.array(z.union([ProfileSchema, CodeItemSchema]));

export const CredentialStatusSchema = z.union([
  z.object({ code: z.literal(200), key: z.string(), secret: z.string() }),
  z.object({ code: z.literal(404), message: z.string() }),
]);
export type CredentialStatus = z.infer<typeof CredentialStatusSchema>;

export const SubscriptionSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  info: z.object({ code: z.string(), name: z.string(), description: z.string().optional() }),
  status: z.enum(['active', 'revoked']),
  starts_at: z.string(),
  ends_at: z.string().nullable(),
  /** True when status is active and now lies between starts_at and ends_at. */
  is_current: z.boolean(),
});
export type Subscription = z.infer<typeof SubscriptionSchema>;

export const SubscriptionListSchema = z.union([
  z.object({ code: z.literal(200), items: z.array(SubscriptionSchema) }),
  z.object({ code: z.literal(404), message: z.string() }),
]);
export type SubscriptionList = z.infer<typeof SubscriptionListSchema>;

/** True when the response item means "not found" (spec: the first item carries a code). */
export function isCodeItem(item: unknown): item is CodeItem {
  return typeof item === 'object' && item !== null && 'code' in item;
}

/** Spec section 5: a subscription check is true if any stored subscription has the requested code. */
export function hasSubscription(
  subscriptions: ReadonlyArray<{ info: { code: string } }>,
  code: string,
): boolean {
  return subscriptions.some((item) => item.info.code === code);
}
