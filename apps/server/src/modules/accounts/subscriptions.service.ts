import {
  type CreateSubscriptionBody,
  type FeatureCode,
  SUBSCRIPTION_CATALOGUE,
  type UpdateSubscriptionBody,
} from '@omnibot/contracts';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { subscriptions, type TenantRow } from '../../db/schema';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors';
import { theRow } from '../../lib/rows';
import { tenantHoldsFeature } from '../tenancy/tenant-features';
import { actorId, type Principal } from '../../lib/principal';
import { type Actor, writeAudit } from '../../lib/audit';
import { isUniqueViolation } from '../../lib/unique-violation';
import { descendantIds, manageableTenant, readableTenant } from '../tenancy/tenant-access';
import { principalsChanged } from '../tenancy/principals-changed';
import { conflict } from '../../lib/errors';
import { type AccountsContext } from './accounts.service';

const SUBSCRIPTION_NOT_FOUND = 'Subscription not found';

/** The subscriptions of a readable tenant, by code; none when the principal cannot read the tenant. */
export async function listSubscriptions(db: Db, principal: Principal, tenantId: string) {
  if (!(await readableTenant(db, principal, tenantId))) return [];
  return db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.tenantId, tenantId))
    .orderBy(asc(subscriptions.code));
}

/** One subscription of a readable tenant, or undefined. */
export async function findSubscription(db: Db, principal: Principal, tenantId: string, id: string) {
  if (!(await readableTenant(db, principal, tenantId))) return undefined;
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.tenantId, tenantId)))
    .limit(1);
  return row;
}

/** A parent manages its descendants' subscriptions; nobody their own, except a master on the platform tenant. */
async function subscriptionManager(db: Db, principal: Principal, tenantId: string): Promise<TenantRow> {
  const tenant = await manageableTenant(db, principal, tenantId);
  const own = tenant.tenantId === principal.tenantId;
  if (own && !(principal.role === 'master' && tenant.type === '1')) {
    throw forbidden("Your organisation's subscriptions are managed by its parent organisation.");
  }
  return tenant;
}

/** A tenant can hold only codes its parent currently holds (the platform tenant has no parent). */
async function assertParentHolds(db: Db, tenant: TenantRow, code: string) {
  if (!tenant.parentTenantId) return;
  if (!(await tenantHoldsFeature(db, tenant.parentTenantId, code))) {
    const name = SUBSCRIPTION_CATALOGUE[code as FeatureCode]?.name ?? code;
    throw new AppError(
      403,
      'subscription_not_held',
      `The parent organisation has no current ${name} subscription to pass on.`,
    );
  }
}

function period(startsAt: Date, endsAt: Date | null) {
  if (endsAt && endsAt <= startsAt) throw badRequest('body.ends_at: must be after starts_at');
  return { startsAt, endsAt };
}

export async function createSubscription(
  ctx: AccountsContext,
  actor: Actor,
  tenantId: string,
  body: CreateSubscriptionBody,
) {
  const { db } = ctx;
  const tenant = await subscriptionManager(db, actor.principal, tenantId);
  const code = body.info.code;
  const status = body.status ?? 'active';
  if (status === 'active') await assertParentHolds(db, tenant, code);
  const dates = period(
    body.starts_at ? new Date(body.starts_at) : new Date(),
    body.ends_at ? new Date(body.ends_at) : null,
  );
  const by = actorId(actor.principal);
  const exists = () =>
    conflict(
      `This organisation already has the ${SUBSCRIPTION_CATALOGUE[code].name} subscription; update it instead.`,
    );
  const [existing] = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.tenantId, tenant.tenantId), eq(subscriptions.code, code)))
    .limit(1);
  if (existing) throw exists();
  try {
    const created = await db.transaction(async (tx) => {
      const row = theRow(
        await tx
          .insert(subscriptions)
          .values({
            tenantId: tenant.tenantId,
            code,
            info: { code, ...SUBSCRIPTION_CATALOGUE[code] },
            status,
            ...dates,
            createdBy: by,
            updatedBy: by,
          })
          .returning(),
      );
      await writeAudit(tx, actor, {
        tenantId: tenant.tenantId,
        action: 'subscription.create',
        target: `subscription:${row.id}`,
        details: { code, status },
      });
      return row;
    });
    principalsChanged(db);
    return created;
  } catch (error) {
    if (isUniqueViolation(error)) throw exists();
    throw error;
  }
}

/**
 * Changes status and period. Re-activating needs the parent to hold the code; revoking also revokes the code
 * in every descendant, so no tenant keeps a code its parent no longer has.
 */
export async function updateSubscription(
  ctx: AccountsContext,
  actor: Actor,
  tenantId: string,
  id: string,
  body: UpdateSubscriptionBody,
) {
  const { db } = ctx;
  const tenant = await subscriptionManager(db, actor.principal, tenantId);
  const [current] = await db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.id, id), eq(subscriptions.tenantId, tenant.tenantId)))
    .limit(1);
  if (!current) throw notFound(SUBSCRIPTION_NOT_FOUND);
  if (body.status === 'active') await assertParentHolds(db, tenant, current.code);
  const dates = period(
    body.starts_at ? new Date(body.starts_at) : new Date(current.startsAt),
    body.ends_at === undefined
      ? current.endsAt
        ? new Date(current.endsAt)
        : null
      : body.ends_at
        ? new Date(body.ends_at)
        : null,
  );
  const by = actorId(actor.principal);
  const below = body.status === 'revoked' ? await descendantIds(db, tenant.tenantId) : [];
  const updated = await db.transaction(async (tx) => {
    const row = theRow(
      await tx
        .update(subscriptions)
        .set({ status: body.status, ...dates, updatedBy: by, updatedAt: new Date() })
        .where(eq(subscriptions.id, current.id))
        .returning(),
    );
    let cascaded = 0;
    if (below.length > 0) {
      const revoked = await tx
        .update(subscriptions)
        .set({ status: 'revoked', updatedBy: by, updatedAt: new Date() })
        .where(
          and(
            inArray(subscriptions.tenantId, below),
            eq(subscriptions.code, current.code),
            eq(subscriptions.status, 'active'),
          ),
        )
        .returning({ id: subscriptions.id });
      cascaded = revoked.length;
    }
    await writeAudit(tx, actor, {
      tenantId: tenant.tenantId,
      action: 'subscription.update',
      target: `subscription:${current.id}`,
      details: { code: current.code, status: body.status, revoked_in_descendants: cascaded },
    });
    return row;
  });
  principalsChanged(db);
  return updated;
}
