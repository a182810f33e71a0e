import { boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { authUsers } from './auth';
import { tenants } from './tenants';

export interface UserAddress {
  street?: string;
  city?: string;
  state?: string;
  country?: string;
  zipcode?: string;
}

export interface UserInfo {
  firstname?: string;
  middlename?: string;
  lastname?: string;
  home?: string;
  mobile?: string;
  work?: string;
  extension?: string;
  fax?: string;
  primary?: string;
}

/** Our profile of a person, beside better-auth's user row (same id). */
export const users = pgTable(
  'users',
  {
    id: text('id')
      .primaryKey()
      .references(() => authUsers.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    email: text('email').notNull().unique(),
    username: text('username'),
    role: text('role').notNull().default('user'),
    isActive: boolean('is_active').notNull().default(true),
    mustChangePassword: boolean('must_change_password').notNull().default(false),
    address: jsonb('address').$type<UserAddress>().notNull().default({}),
    info: jsonb('info').$type<UserInfo>().notNull().default({}),
    createdBy: text('created_by'),
    updatedBy: text('updated_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('users_tenant_idx').on(t.tenantId)],
);

export type UserRow = typeof users.$inferSelect;
