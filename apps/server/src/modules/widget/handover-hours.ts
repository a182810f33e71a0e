import { offersHandover } from '@omnibot/contracts';
import type { Db } from '../../db/client';
import type { StoredBot } from '../bots/bots.service';
import { scheduleStateOf } from '../schedules/schedules.service';

/** Whether a bot's hand-over is within its business hours now, and when that changes (null: not known to). */
export interface HandoverHours {
  inHours: boolean;
  nextChange: string | null;
}

/**
 * The business hours of a bot's hand-over at `at`: always in hours for a bot without a schedule (or that hands over
 * to nobody); out of hours while its schedule is closed, and when the schedule is gone (it offers nothing it cannot
 * keep).
 */
export async function handoverHours(db: Db, bot: StoredBot, at: Date = new Date()): Promise<HandoverHours> {
  const scheduleId = bot.config.engines.schedule_id;
  if (scheduleId === null || !offersHandover(bot.config)) return { inHours: true, nextChange: null };
  const state = await scheduleStateOf(db, bot.row.tenantId, scheduleId, at);
  if (state === null) return { inHours: false, nextChange: null };
  return { inHours: state.open, nextChange: state.next_change };
}
