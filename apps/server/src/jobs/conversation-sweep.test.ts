import { WidgetConfigSchema } from '@omnibot/contracts';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botOrigins, bots, conversationMessages, conversations } from '../db/schema';
import { addTenant } from '../modules/knowledge/retrieval/retrieval.test-support';
import { createTestApp, type TestApp } from '../test/app';
import { sweepConversations } from './conversation-sweep';

const TENANT = 'conv-sweep-t';
const DAY = 86_400_000;

describe('conversation retention sweep', () => {
  let t: TestApp;
  let botId: string;
  beforeAll(async () => {
    t = await createTestApp();
    await addTenant(t.database.db, TENANT);
    const [bot] = await t.database.db
      .insert(bots)
      .values({ tenantId: TENANT, name: 'Sweep', config: WidgetConfigSchema.parse({}) })
      .returning({ id: bots.id });
    botId = bot?.id ?? '';
  });
  afterAll(async () => {
    await t.close();
  });

  it('deletes conversations idle past the retention with their messages, and old origins', async () => {
    const db = t.database.db;
    const conversationAged = async (days: number) => {
      const at = new Date(Date.now() - days * DAY);
      const [row] = await db
        .insert(conversations)
        .values({ tenantId: TENANT, botId, language: 'en', startedAt: at, lastMessageAt: at })
        .returning({ id: conversations.id });
      const id = row?.id ?? '';
      await db.insert(conversationMessages).values({
        tenantId: TENANT,
        conversationId: id,
        botId,
        role: 'visitor',
        text: `aged ${days}`,
        createdAt: at,
      });
      return id;
    };
    const old = await conversationAged(31);
    const recent = await conversationAged(29);
    await db.insert(botOrigins).values([
      { tenantId: TENANT, botId, origin: 'https://old.example', lastSeen: new Date(Date.now() - 31 * DAY) },
      { tenantId: TENANT, botId, origin: 'https://new.example', lastSeen: new Date(Date.now() - DAY) },
    ]);

    expect(await sweepConversations(db, 30)).toBe(1);
    const left = await db.select({ id: conversations.id }).from(conversations);
    expect(left.map((row) => row.id)).toEqual([recent]);
    expect(
      await db.select().from(conversationMessages).where(eq(conversationMessages.conversationId, old)),
    ).toEqual([]);
    const origins = await db.select().from(botOrigins).orderBy(asc(botOrigins.origin));
    expect(origins.map((row) => row.origin)).toEqual(['https://new.example']);
    expect(await sweepConversations(db, 30)).toBe(0);
  });
});
