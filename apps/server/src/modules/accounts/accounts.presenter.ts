import type { Account, Profile, Subscription } from '@omnibot/contracts';
import type { SubscriptionRow, TenantRow, UserRow } from '../../db/schema';

const iso = (value: Date | string) => new Date(value).toISOString();

export function presentAccount(row: TenantRow): Account {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    parent_tenant_id: row.parentTenantId,
    name: row.name,
    type: row.type as Account['type'],
    is_active: row.isActive,
    address: row.address,
    info: row.info,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function presentProfile(row: UserRow, emailVerified: boolean): Profile {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    is_active: row.isActive,
    email: row.email,
    username: row.username,
    role: row.role as Profile['role'],
    address: row.address,
    info: row.info,
    must_change_password: row.mustChangePassword,
    email_verified: emailVerified,
    created_by: row.createdBy,
    created_at: iso(row.createdAt),
    updated_by: row.updatedBy,
    updated_at: iso(row.updatedAt),
  };
}

function isCurrentSubscription(row: SubscriptionRow, now = new Date()): boolean {
  return (
    row.status === 'active' && new Date(row.startsAt) <= now && (!row.endsAt || new Date(row.endsAt) > now)
  );
}

export function presentSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    info: row.info,
    status: row.status as Subscription['status'],
    starts_at: iso(row.startsAt),
    ends_at: row.endsAt ? iso(row.endsAt) : null,
    is_current: isCurrentSubscription(row),
  };
}

/** Shows the last 4 characters of a secret, never more. */
export const maskSecret = (last4: string) => `****${last4}`;
