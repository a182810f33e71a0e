import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import { actorId, type Principal, principalOf } from './principal';

/** The caller of a write: who, and from which address (for the audit log). */
export interface Actor {
  principal: Principal;
  ip: string;
}

/** The principal and address of a request that passed the principal guard. */
export const actorOf = (request: FastifyRequest): Actor => ({
  principal: principalOf(request),
  ip: request.ip,
});

export interface AuditEntry {
  tenantId: string;
  action: string;
  target: string;
  details?: Record<string, unknown>;
}

/** Writes one audit row: who (user or credential), what, on which tenant, from which IP. Never a secret. */
export async function writeAudit(db: Db, actor: Actor, entry: AuditEntry) {
  await writeAudits(db, actor, [entry]);
}

/** Writes the audit rows of one actor's writes in one statement, as writeAudit writes one. */
export async function writeAudits(db: Db, actor: Actor, entries: readonly AuditEntry[]) {
  if (entries.length === 0) return;
  await db.insert(auditLog).values(
    entries.map((entry) => ({
      tenantId: entry.tenantId,
      actorId: actorId(actor.principal),
      actorKind: actor.principal.kind,
      action: entry.action,
      target: entry.target,
      ip: actor.ip,
      details: entry.details ?? {},
    })),
  );
}
