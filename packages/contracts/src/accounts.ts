import { z } from 'zod';
import { EmailSchema } from './auth';
import { safeString } from './text';
import { FEATURE_CODES, FeatureCodeSchema, type Role, ROLES, RoleSchema, TenantTypeSchema } from './tenancy';

export const APP_ID_HEADER = 'x-app-id';
/** The console's application identifier, a fixed header on every account-service call. */
export const CONSOLE_APP_ID = 'omnibot-console';

const AddressSchema = z.object({
  street: z.string().max(200).optional(),
  city: z.string().max(100).optional(),
  state: z.string().max(100).optional(),
  country: z.string().max(100).optional(),
  zipcode: z.string().max(20).optional(),
});
export type Address = z.infer<typeof AddressSchema>;

const AccountInfoSchema = z.object({
  website: z.string().max(300).optional(),
  email: z.string().max(254).optional(),
  timezone: z.string().max(64).optional(),
  domain: z.string().max(253).optional(),
  work: z.string().max(40).optional(),
  fax: z.string().max(40).optional(),
});

const AccountSchema = z.object({
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
const CodeItemSchema = z.object({ code: z.number().int(), message: z.string() });
type CodeItem = z.infer<typeof CodeItemSchema>;

export const AccountLookupSchema = z.array(z.union([AccountSchema, CodeItemSchema]));

const UserInfoSchema = z.object({
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

const ProfileSchema = z.object({
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

const SubscriptionSchema = z.object({
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

/** True when the response item means "not found" (the first item carries a code). */
export function isCodeItem(item: unknown): item is CodeItem {
  return typeof item === 'object' && item !== null && 'code' in item;
}

// ---- The account service's writes and lists ----

/** A tenant id in a path or query: generated ids are lower-case letters and digits; older ones may have dashes. */
export const TenantIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, dashes or underscores');

/**
 * Fields a client may echo back from a read (the console sends whole objects on PUT). The server accepts and
 * ignores them: ownership and identity come from the path and the principal, never from a body.
 */
const echoed = <const K extends string>(...keys: K[]) =>
  Object.fromEntries(keys.map((key) => [key, z.unknown().optional()])) as Record<
    K,
    z.ZodOptional<z.ZodUnknown>
  >;

const ACCOUNT_ECHOED = echoed(
  'id',
  'tenant_id',
  'parent_tenant_id',
  'parent',
  'type',
  'created_by',
  'updated_by',
  'created_at',
  'updated_at',
);

const optionalText = (max: number) => safeString().trim().max(max).optional();

/** A domain name such as `example.com` (lower-cased); an empty string clears it. */
const DomainSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(
    /^$|^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    'must be a domain such as example.com',
  );

export const AddressInputSchema = z
  .object({
    street: optionalText(200),
    city: optionalText(100),
    state: optionalText(100),
    country: optionalText(100),
    zipcode: optionalText(20),
  })
  .strict();

export const AccountInfoInputSchema = z
  .object({
    website: optionalText(300),
    email: z.union([z.literal(''), z.email().max(254)]).optional(),
    timezone: optionalText(64),
    domain: DomainSchema.optional(),
    work: optionalText(40),
    fax: optionalText(40),
  })
  .strict();

const AccountNameSchema = safeString().trim().min(1, 'Enter a name').max(120);

/** POST /v1/Account: a child of the caller's tenant (or of `?tenant_id=`), holding codes its parent holds. */
export const CreateAccountBodySchema = z
  .object({
    name: AccountNameSchema,
    address: AddressInputSchema.optional(),
    info: AccountInfoInputSchema.optional(),
    subscriptions: z
      .array(FeatureCodeSchema)
      .min(1, 'Pick at least one subscription')
      .max(FEATURE_CODES.length),
    ...ACCOUNT_ECHOED,
    is_active: z.unknown().optional(),
  })
  .strict();
export type CreateAccountBody = z.infer<typeof CreateAccountBodySchema>;

/** PUT /v1/Account/{tenant_id}: the full object; `is_active` only changes when a parent or a master sends it. */
export const UpdateAccountBodySchema = z
  .object({
    name: AccountNameSchema,
    address: AddressInputSchema,
    info: AccountInfoInputSchema,
    is_active: z.boolean().optional(),
    ...ACCOUNT_ECHOED,
  })
  .strict();
export type UpdateAccountBody = z.infer<typeof UpdateAccountBodySchema>;

/** `?tenant_id=` of the list call (defaults to the caller's tenant) and of the create call (the parent). */
export const AccountParentQuerySchema = z.object({ tenant_id: TenantIdSchema.optional() }).strict();

/** `GET /v1/Account/{tenant_id}?type=domain&data=example.com` finds by domain. */
export const AccountLookupQuerySchema = z
  .object({
    type: z.literal('domain').optional(),
    data: DomainSchema.optional(),
  })
  .strict();

/** Account-service calls refuse query parameters they do not know (400), like unknown body fields. */
export const NoQuerySchema = z.object({}).strict();

export const UserLookupQuerySchema = z.object({ type: z.enum(['email', 'user_id']) }).strict();

const NotFoundCodeSchema = z.object({ code: z.literal(404), message: z.string() });

/** A tenant's children: `{ code: 200, items }`, or `{ code: 404 }` when there are none or none visible. */
export const AccountListSchema = z.union([
  z.object({ code: z.literal(200), items: z.array(AccountSchema) }),
  NotFoundCodeSchema,
]);
export type AccountList = z.infer<typeof AccountListSchema>;

/** A credential with its secret in full: only in the response that creates or replaces the secret. */
export const CredentialSecretSchema = z.object({
  code: z.union([z.literal(200), z.literal(201)]),
  key: z.string(),
  /** The full secret once (create, reset, new secret), or `****` + last 4 after a new key. */
  secret: z.string(),
});
export type CredentialSecret = z.infer<typeof CredentialSecretSchema>;

export const AccountCreatedSchema = z.object({
  code: z.literal(201),
  account: AccountSchema,
  /** Shown once: only a hash of the secret is stored. */
  credential: z.object({ key: z.string(), secret: z.string() }),
  subscriptions: z.array(SubscriptionSchema),
});
export type AccountCreated = z.infer<typeof AccountCreatedSchema>;

export const AccountResultSchema = z.object({ code: z.literal(200), account: AccountSchema });

/** Credential calls (create, reset, key, secret) take no body: nothing (Fastify makes it null), or `{}`. */
export const EmptyBodySchema = z.object({}).strict().nullish();

const SUBSCRIPTION_STATUSES = ['active', 'revoked'] as const;
const SubscriptionStatusSchema = z.enum(SUBSCRIPTION_STATUSES);
const DateTimeSchema = z.iso.datetime({ offset: true });

const SUBSCRIPTION_ECHOED = echoed(
  'id',
  'tenant_id',
  'is_current',
  'created_by',
  'updated_by',
  'created_at',
  'updated_at',
);

/** A parent gives a child a code it holds itself; name and description come from the catalogue. */
export const CreateSubscriptionBodySchema = z
  .object({
    info: z
      .object({ code: FeatureCodeSchema, name: z.unknown().optional(), description: z.unknown().optional() })
      .strict(),
    status: SubscriptionStatusSchema.optional(),
    starts_at: DateTimeSchema.optional(),
    ends_at: DateTimeSchema.nullable().optional(),
    ...SUBSCRIPTION_ECHOED,
  })
  .strict();
export type CreateSubscriptionBody = z.infer<typeof CreateSubscriptionBodySchema>;

/** The full subscription object; its code (`info`) never changes. */
export const UpdateSubscriptionBodySchema = z
  .object({
    status: SubscriptionStatusSchema,
    starts_at: DateTimeSchema.optional(),
    ends_at: DateTimeSchema.nullable().optional(),
    info: z.unknown().optional(),
    ...SUBSCRIPTION_ECHOED,
  })
  .strict();
export type UpdateSubscriptionBody = z.infer<typeof UpdateSubscriptionBodySchema>;

export const SubscriptionResultSchema = z.object({
  code: z.union([z.literal(200), z.literal(201)]),
  subscription: SubscriptionSchema,
});

export const SubscriptionLookupSchema = z.union([
  z.object({ code: z.literal(200), subscription: SubscriptionSchema }),
  NotFoundCodeSchema,
]);

const USER_ECHOED = echoed(
  'id',
  'tenant_id',
  'must_change_password',
  'email_verified',
  'created_by',
  'updated_by',
  'created_at',
  'updated_at',
);

export const UserInfoInputSchema = z
  .object({
    firstname: optionalText(100),
    middlename: optionalText(100),
    lastname: optionalText(100),
    home: optionalText(40),
    mobile: optionalText(40),
    work: optionalText(40),
    extension: optionalText(20),
    fax: optionalText(40),
    primary: optionalText(40),
  })
  .strict();

const UsernameSchema = safeString().trim().min(1).max(120);

/** POST /v1/Account/{tenant_id}/User: the person gets an invitation mail with a set-password link. */
export const CreateUserBodySchema = z
  .object({
    email: EmailSchema,
    role: RoleSchema,
    username: UsernameSchema.optional(),
    info: UserInfoInputSchema.optional(),
    address: AddressInputSchema.optional(),
    ...USER_ECHOED,
    is_active: z.unknown().optional(),
  })
  .strict();
export type CreateUserBody = z.infer<typeof CreateUserBodySchema>;

/** PUT /v1/Account/{tenant_id}/User/{id}: fields left out stay as they are; the e-mail never changes here. */
export const UpdateUserBodySchema = z
  .object({
    username: UsernameSchema.nullable().optional(),
    role: RoleSchema.optional(),
    is_active: z.boolean().optional(),
    info: UserInfoInputSchema.optional(),
    address: AddressInputSchema.optional(),
    ...USER_ECHOED,
    email: z.unknown().optional(),
  })
  .strict();
export type UpdateUserBody = z.infer<typeof UpdateUserBodySchema>;

export const UserResultSchema = z.object({
  code: z.union([z.literal(200), z.literal(201)]),
  user: ProfileSchema,
});

export const USER_SORT_FIELDS = ['email', 'created_at', 'role'] as const;

export const UserListQuerySchema = z
  .object({
    page: z.coerce.number().int().min(1).max(100_000).default(1),
    page_size: z.coerce.number().int().min(1).max(100).default(20),
    /** Searched in e-mail, username, first and last name (case-insensitive). */
    q: safeString().trim().max(100).optional(),
    sort: z.enum(USER_SORT_FIELDS).default('email'),
    order: z.enum(['asc', 'desc']).default('asc'),
  })
  .strict();
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

export const UserListSchema = z.union([
  z.object({
    code: z.literal(200),
    items: z.array(ProfileSchema),
    total: z.number().int(),
    page: z.number().int(),
    page_size: z.number().int(),
  }),
  NotFoundCodeSchema,
]);
export type UserList = z.infer<typeof UserListSchema>;

/** Role order: master > administrator > user > agent. */
export const ROLE_RANK: Record<Role, number> = { master: 4, administrator: 3, user: 2, agent: 1 };

/**
 * The roles someone with `actorRole` may give in a tenant of `tenantType`: never above their own, and `master`
 * only in the platform tenant (type "1").
 */
export function assignableRoles(actorRole: Role, tenantType: string): Role[] {
  return ROLES.filter(
    (role) => ROLE_RANK[role] <= ROLE_RANK[actorRole] && (role !== 'master' || tenantType === '1'),
  );
}
