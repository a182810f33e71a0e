import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { credentials, type CredentialRow } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { theRow } from '../../lib/rows';
import { type Actor, writeAudit } from '../../lib/audit';
import { isUniqueViolation } from '../../lib/unique-violation';
import { actorId, type Principal } from '../../lib/principal';
import { manageableTenant, readableTenant } from '../tenancy/tenant-access';
import { principalsChanged } from '../tenancy/principals-changed';
import { conflict } from '../../lib/errors';
import { type AccountsContext, findCredential } from './accounts.service';
import { hashCredentialSecret, newCredentialKey, newCredentialSecret } from '../auth/credential-secrets';

export type CredentialChange = 'create' | 'reset' | 'key' | 'secret';

/** The new key and, when it changed, the new secret in full (the only time anybody sees it). */
export interface CredentialChanged {
  row: CredentialRow;
  secret: string | null;
}

/** The credential of a readable tenant; undefined when there is none or the principal cannot read the tenant. */
export async function readCredential(db: Db, principal: Principal, tenantId: string) {
  return (await readableTenant(db, principal, tenantId)) ? findCredential(db, tenantId) : undefined;
}

const noCredential = () => notFound('This organisation has no credential yet. Create one first.');

/**
 * Creates (409 when one exists), resets (new key and secret), or regenerates the key or the secret of a
 * tenant's API credential. Every change writes an audit row; the secret is only ever stored as a hash.
 */
export async function changeCredential(
  ctx: AccountsContext,
  actor: Actor,
  tenantId: string,
  change: CredentialChange,
): Promise<CredentialChanged> {
  const { db } = ctx;
  const tenant = await manageableTenant(db, actor.principal, tenantId);
  const existing = await findCredential(db, tenant.tenantId);
  if (change === 'create' && existing) {
    throw conflict('This organisation already has a credential. Reset it to get a new secret.');
  }
  if (change !== 'create' && !existing) throw noCredential();

  const newKey = existing && change === 'secret' ? existing.key : newCredentialKey();
  const secret = change === 'key' ? null : newCredentialSecret();
  const { secret: serverSecret } = await ctx.auth.$context;
  const by = actorId(actor.principal);
  const secretFields = secret
    ? { secretHash: hashCredentialSecret(serverSecret, secret), secretLast4: secret.slice(-4) }
    : null;
  try {
    const changed = await db.transaction(async (tx) => {
      // Without an existing credential the change is a 'create', which always comes with a secret.
      const row = theRow(
        existing
          ? await tx
              .update(credentials)
              .set({ key: newKey, ...secretFields, updatedBy: by, updatedAt: new Date() })
              .where(eq(credentials.id, existing.id))
              .returning()
          : secretFields
            ? await tx
                .insert(credentials)
                .values({
                  tenantId: tenant.tenantId,
                  key: newKey,
                  ...secretFields,
                  createdBy: by,
                  updatedBy: by,
                })
                .returning()
            : [],
      );
      await writeAudit(tx, actor, {
        tenantId: tenant.tenantId,
        action: `credential.${change}`,
        target: `credential:${newKey}`,
        details: {
          key: newKey,
          ...(existing && existing.key !== newKey ? { previous_key: existing.key } : {}),
          secret_changed: secret !== null,
        },
      });
      return { row, secret };
    });
    principalsChanged(db);
    return changed;
  } catch (error) {
    // Two concurrent creates: the second finds the unique tenant_id taken.
    if (isUniqueViolation(error)) throw conflict('This organisation already has a credential.');
    throw error;
  }
}
