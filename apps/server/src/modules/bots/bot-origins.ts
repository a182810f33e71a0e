import type { BotOrigin } from '@omnibot/contracts';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { botOrigins, bots } from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { Principal } from '../../lib/principal';
import { BOT_NOT_FOUND } from './bots.service';

/** Origins of the install screen: seen in this many days, at most this many. */
const ORIGIN_DAYS = 30;
const ORIGIN_LIMIT = 100;

/** The most origins kept per bot: a page naming new origins in a loop cannot grow the table further. */
export const ORIGINS_PER_BOT_MAX = 200;

/**
 * Counts a sighting of `origin` for a bot (hits and last seen) and keeps the ORIGINS_PER_BOT_MAX most recently seen
 * origins: the oldest go, so made-up origins cannot keep a real new site out (the daily sweep removes origins not
 * seen for the retention period).
 */
export async function recordBotOrigin(
  db: Pick<Db, 'execute'>,
  sighting: { tenantId: string; botId: string; origin: string },
): Promise<void> {
  const { tenantId, botId, origin } = sighting;
  await db.execute(sql`
    insert into ${botOrigins} (tenant_id, bot_id, origin)
    values (${tenantId}, ${botId}::uuid, ${origin})
    on conflict (bot_id, origin) do update set hits = ${botOrigins}.hits + 1, last_seen = now()`);
  await db.execute(sql`
    delete from ${botOrigins}
    where bot_id = ${botId}::uuid
      and origin in (
        select origin from ${botOrigins} where bot_id = ${botId}::uuid
        order by last_seen desc, first_seen desc, origin
        offset ${ORIGINS_PER_BOT_MAX})`);
}

/** The origins that loaded one of the caller's bots in the last 30 days, most recent first (at most 100). */
export async function listBotOrigins(db: Db, principal: Principal, botId: string): Promise<BotOrigin[]> {
  const [bot] = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.tenantId, principal.tenantId), eq(bots.id, botId)))
    .limit(1);
  if (!bot) throw notFound(BOT_NOT_FOUND);
  const rows = await db
    .select()
    .from(botOrigins)
    .where(
      and(
        eq(botOrigins.tenantId, principal.tenantId),
        eq(botOrigins.botId, bot.id),
        gt(botOrigins.lastSeen, sql`now() - make_interval(days => ${ORIGIN_DAYS}::integer)`),
      ),
    )
    .orderBy(desc(botOrigins.lastSeen), botOrigins.origin)
    .limit(ORIGIN_LIMIT);
  return rows.map((row) => ({
    origin: row.origin,
    first_seen: row.firstSeen.toISOString(),
    last_seen: row.lastSeen.toISOString(),
    hits: row.hits,
  }));
}
