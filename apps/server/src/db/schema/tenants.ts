import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  index,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

export interface TenantAddress {
  street?: string;
  city?: string;
  state?: string;
  country?: string;
  zipcode?: string;
}

export interface TenantInfo {
  website?: string;
  email?: string;
  timezone?: string;
  domain?: string;
  work?: string;
  fax?: string;
}

export const tenants = pgTable(
  'tenants',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull().unique(),
    parentTenantId: text('parent_tenant_id').references((): AnyPgColumn => tenants.tenantId),
    name: text('name').notNull(),
    type: text('type').notNull(),
    isActive: boolean('is_active').notNull().default(true),
    address: jsonb('address').$type<TenantAddress>().notNull().default({}),
    info: jsonb('info').$type<TenantInfo>().notNull().default({}),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Exactly one platform tenant, enforced by the database rather than by start-up code.
    uniqueIndex('tenants_one_platform_idx')
      .on(t.type)
      .where(sql`${t.type} = '1'`),
    index('tenants_parent_idx').on(t.parentTenantId),
    uniqueIndex('tenants_domain_idx').on(sql`lower(${t.info}->>'domain')`),
  ],
);

export type TenantRow = typeof tenants.$inferSelect;
