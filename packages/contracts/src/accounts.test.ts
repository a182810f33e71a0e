import { describe, expect, it } from 'vitest';
import {
  AccountLookupQuerySchema,
  assignableRoles,
  CreateAccountBodySchema,
  EmptyBodySchema,
  UpdateUserBodySchema,
  UserListQuerySchema,
} from './accounts';

describe('account-service contracts', () => {
  it("offers roles up to the actor's own, and master only in the platform tenant", () => {
    expect(assignableRoles('master', '1')).toEqual(['master', 'administrator', 'user', 'agent']);
    expect(assignableRoles('master', '2')).toEqual(['administrator', 'user', 'agent']);
    expect(assignableRoles('administrator', '1')).toEqual(['administrator', 'user', 'agent']);
    expect(assignableRoles('user', '3')).toEqual(['user', 'agent']);
    expect(assignableRoles('agent', '3')).toEqual(['agent']);
  });

  it('accepts echoed identity fields on a create but refuses unknown ones', () => {
    const echoed = CreateAccountBodySchema.safeParse({
      name: ' Acme ',
      subscriptions: ['omnirag'],
      tenant_id: 'mine',
      type: '1',
      created_by: 'me',
    });
    expect(echoed.success && echoed.data.name).toBe('Acme');
    expect(
      CreateAccountBodySchema.safeParse({ name: 'Acme', subscriptions: ['omnirag'], role: 'x' }).success,
    ).toBe(false);
    expect(CreateAccountBodySchema.safeParse({ name: 'Acme', subscriptions: [] }).success).toBe(false);
    expect(CreateAccountBodySchema.safeParse({ name: 'Acme', subscriptions: ['gold'] }).success).toBe(false);
  });

  it('lower-cases and checks domains; an empty domain clears it', () => {
    const parsed = CreateAccountBodySchema.parse({
      name: 'A',
      subscriptions: ['omnirag'],
      info: { domain: 'Client.Example.COM' },
    });
    expect(parsed.info?.domain).toBe('client.example.com');
    expect(
      CreateAccountBodySchema.parse({ name: 'A', subscriptions: ['omnirag'], info: { domain: '' } }).info,
    ).toEqual({ domain: '' });
    expect(AccountLookupQuerySchema.safeParse({ type: 'domain', data: "x'--" }).success).toBe(false);
  });

  it('takes no body on credential calls, and pages users 1..100', () => {
    expect(EmptyBodySchema.safeParse(undefined).success).toBe(true);
    expect(EmptyBodySchema.safeParse(null).success).toBe(true);
    expect(EmptyBodySchema.safeParse({}).success).toBe(true);
    expect(EmptyBodySchema.safeParse({ key: 'chosen' }).success).toBe(false);
    expect(UserListQuerySchema.parse({})).toEqual({ page: 1, page_size: 20, sort: 'email', order: 'asc' });
    expect(UserListQuerySchema.safeParse({ page_size: '101' }).success).toBe(false);
    expect(UserListQuerySchema.safeParse({ page: '0' }).success).toBe(false);
    expect(UpdateUserBodySchema.safeParse({ email: 'ignored@x.test', role: 'agent' }).success).toBe(true);
  });
});
