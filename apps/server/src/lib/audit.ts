import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import { actorId, type Principal, principalOf } from '../plugins/principal';

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

/** Writes one audit row: who (user or credential), what, on which tenant, from which IP. Never a secret. */
export async function writeAudit(
  db: Db,
  actor: Actor,
  entry: { tenantId: string; action: string; target: string; details?: Record<string, unknown> },
) {
  await db.insert(auditLog).values({
    tenantId: entry.tenantId,
    actorId: actorId(actor.principal),
    actorKind: actor.principal.kind,
    action: entry.action,
    target: entry.target,
    ip: actor.ip,
    details: entry.details ?? {},
  });
}
