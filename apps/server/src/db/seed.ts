import { eq } from 'drizzle-orm';
import { FEATURE_CODES, SUBSCRIPTION_CATALOGUE } from '@omnibot/contracts';
import { shortId } from '../lib/ids';
import { theRow } from '../lib/rows';
import type { Db } from './client';
import { subscriptions, tenants, type TenantRow } from './schema';

export interface SeedResult {
  platform: TenantRow;
  created: boolean;
}

/** First start: the platform tenant (type "1") holding every feature code. Idempotent. */
export async function seedPlatform(db: Db, name: string, domain?: string): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    const [existing] = await tx.select().from(tenants).where(eq(tenants.type, '1')).limit(1);
    if (existing) return { platform: existing, created: false };
    const tenantId = shortId();
    // The partial unique index makes a concurrent second seeder fail instead of creating a twin.
    const platform = theRow(
      await tx
        .insert(tenants)
        .values({
          tenantId,
          name,
          type: '1',
          info: domain ? { domain } : {},
          createdBy: 'system',
          updatedBy: 'system',
        })
        .returning(),
    );
    await tx.insert(subscriptions).values(
      FEATURE_CODES.map((code) => ({
        tenantId,
        code,
        info: { code, ...SUBSCRIPTION_CATALOGUE[code] },
        createdBy: 'system',
        updatedBy: 'system',
      })),
    );
    return { platform, created: true };
  });
}
