import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/app';
import { openDatabase } from './client';
import { subscriptions, tenants } from './schema';
import { seedPlatform } from './seed';
import { defined } from '../test/defined';

describe('first-start seeding', () => {
  it('creates one platform tenant holding every feature code, once', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      const first = await seedPlatform(database.db, 'Acme Platform');
      const second = await seedPlatform(database.db, 'Another name');
      expect(first.created).toBe(true);
      expect(second.created).toBe(false);
      expect(second.platform.tenantId).toBe(first.platform.tenantId);
      const platforms = await database.db.select().from(tenants).where(eq(tenants.type, '1'));
      expect(platforms).toHaveLength(1);
      expect(defined(platforms[0]).name).toBe('Acme Platform');
      expect(defined(platforms[0]).tenantId).toMatch(/^[a-z2-9]{12}$/);
      const codes = await database.db
        .select({ code: subscriptions.code })
        .from(subscriptions)
        .where(eq(subscriptions.tenantId, first.platform.tenantId));
      expect(codes.map((row) => row.code).sort()).toEqual([
        'casesummary',
        'omniassist',
        'omnirag',
        'subtenant',
      ]);
    } finally {
      await drop();
    }
  });

  it('the database refuses a second platform tenant', async () => {
    const { database, drop } = await openTestDatabase();
    try {
      await seedPlatform(database.db, 'One');
      await expect(
        database.db.insert(tenants).values({ tenantId: 'second', name: 'Two', type: '1' }),
      ).rejects.toThrow();
    } finally {
      await drop();
    }
  });
});

describe.runIf(process.env.OMNIBOT_TEST_DB !== 'postgres')('PGlite on disk', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'omnibot-seed-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps data and does not reseed across restarts', async () => {
    const first = await openDatabase({ kind: 'pglite', dataDir: dir });
    expect(first.vectorEnabled).toBe(true);
    const seeded = await seedPlatform(first.db, 'Disk Platform');
    await first.close();

    const second = await openDatabase({ kind: 'pglite', dataDir: dir });
    const again = await seedPlatform(second.db, 'Disk Platform');
    const rows = await second.db.select().from(tenants);
    await second.close();
    expect(again.created).toBe(false);
    expect(again.platform.tenantId).toBe(seeded.platform.tenantId);
    expect(rows).toHaveLength(1);
  });
});
