import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client';

const RETRY_FIRST_MS = 1000;
const RETRY_MAX_MS = 30_000;

export interface ListenerEvents {
  /** Each payload the channel carries. */
  onNotify: (payload: string) => void;
  /** Listening (again): `recovered` when it follows a loss, so what was missed meanwhile can be read again. */
  onUp: (recovered: boolean) => void;
  /** Not listening any more (until it is again). */
  onDown: () => void;
}

/**
 * Listens on `channel` from when `start` is called until `stop`: a lost connection is logged once per outage
 * (`lost`) and retried with backoff from 1 s to 30 s; `back` is logged and `onUp` told when it listens again.
 */
export function resilientListener(
  database: Database,
  channel: string,
  events: ListenerEvents,
  log: { logger: FastifyBaseLogger; lost: string; back: string },
) {
  let stopped = false;
  let unlisten: (() => Promise<void>) | null = null;
  let retry: NodeJS.Timeout | null = null;
  let failures = 0;

  const down = (error: unknown) => {
    events.onDown();
    if (stopped) return;
    // Logged once per outage: the server keeps answering, only without what the channel brings.
    if (failures === 0) log.logger.warn({ err: error }, log.lost);
    const delay = Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** failures);
    failures += 1;
    retry = setTimeout(() => void start(), delay);
    retry.unref();
  };
  const start = async () => {
    retry = null;
    try {
      const stop = await database.listen(channel, events.onNotify, () => {
        unlisten = null;
        down(new Error('listener connection ended'));
      });
      if (stopped) {
        await stop();
        return;
      }
      unlisten = stop;
      if (failures > 0) log.logger.info(log.back);
      events.onUp(failures > 0);
      failures = 0;
    } catch (error) {
      down(error);
    }
  };
  const stop = async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    events.onDown();
    await unlisten?.();
  };
  return { start, stop };
}
