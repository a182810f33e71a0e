import { emailDomain } from '@omnibot/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tenants, type TenantRow } from '../../db/schema';
import type { Env } from '../../env';

/** The active tenant whose info.domain is the e-mail's domain, if any. */
export async function tenantForEmail(db: Db, email: string): Promise<TenantRow | undefined> {
  const [tenant] = await db
    .select()
    .from(tenants)
    .where(and(eq(tenants.isActive, true), sql`lower(${tenants.info}->>'domain') = ${emailDomain(email)}`))
    .limit(1);
  return tenant;
}

/** Allowed for sign-in: ALLOWED_EMAIL_DOMAINS, the master's domain, and every active tenant's domain. */
export async function isAllowedEmailDomain(db: Db, env: Env, email: string): Promise<boolean> {
  const domain = emailDomain(email);
  const configured = [...env.ALLOWED_EMAIL_DOMAINS, emailDomain(env.ADMIN_EMAIL)].map((d) => d.toLowerCase());
  if (configured.includes(domain)) return true;
  return (await tenantForEmail(db, email)) !== undefined;
}
