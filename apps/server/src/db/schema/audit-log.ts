import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * Who changed what, when, from which IP (credential changes and other account-service writes). No foreign key:
 * the trail outlives the rows it talks about. Never holds a secret.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    actorId: text('actor_id').notNull(),
    actorKind: text('actor_kind').notNull(),
    action: text('action').notNull(),
    target: text('target').notNull(),
    ip: text('ip'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_log_tenant_idx').on(t.tenantId, t.createdAt)],
);

export type AuditLogRow = typeof auditLog.$inferSelect;
