import { emailDomain } from '@omnibot/contracts';
import { getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tenants, type TenantRow } from '../../db/schema';
import type { Env } from '../../env';
import { tenantUsableSql } from '../tenancy/tenant-usable';

/** The tenant whose info.domain is the e-mail's domain, whether usable or not, if any. */
export async function domainOwner(
  db: Db,
  email: string,
): Promise<(TenantRow & { usable: boolean }) | undefined> {
  const [tenant] = await db
    .select({ ...getTableColumns(tenants), usable: tenantUsableSql(tenants.tenantId) })
    .from(tenants)
    .where(sql`lower(${tenants.info}->>'domain') = ${emailDomain(email)}`)
    .limit(1);
  return tenant;
}

/** The usable tenant (it and every ancestor active) whose info.domain is the e-mail's domain, if any. */
export async function tenantForEmail(db: Db, email: string): Promise<TenantRow | undefined> {
  const owner = await domainOwner(db, email);
  return owner?.usable ? owner : undefined;
}

/** Allowed for sign-in: ALLOWED_EMAIL_DOMAINS, the master's domain, and every usable tenant's domain. */
export async function isAllowedEmailDomain(db: Db, env: Env, email: string): Promise<boolean> {
  const domain = emailDomain(email);
  const configured = [...env.ALLOWED_EMAIL_DOMAINS, emailDomain(env.ADMIN_EMAIL)].map((d) => d.toLowerCase());
  if (configured.includes(domain)) return true;
  return (await tenantForEmail(db, email)) !== undefined;
}
