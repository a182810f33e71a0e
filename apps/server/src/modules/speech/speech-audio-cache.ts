import { createHash } from 'node:crypto';
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { speechAudioCache } from '../../db/schema';

/** How long a text's audio is served from the cache. */
export const SPEECH_AUDIO_TTL_MS = 24 * 60 * 60 * 1000;
/** The most clips kept per tenant; the oldest go first. */
export const SPEECH_AUDIO_PER_TENANT = 200;
/** Larger clips are not kept (a long answer is rarely repeated word for word). */
export const SPEECH_AUDIO_MAX_BYTES = 1024 * 1024;

/** The cache key of a text in a voice: a digest, so the text itself is not stored. */
export const speechAudioKey = (voiceId: string, text: string) =>
  createHash('sha256').update(`${voiceId}\n${text}`).digest('hex');

/** The audio of `key` when it was made within the last day. */
export async function cachedSpeechAudio(db: Db, tenantId: string, key: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ audio: speechAudioCache.audio, createdAt: speechAudioCache.createdAt })
    .from(speechAudioCache)
    .where(and(eq(speechAudioCache.tenantId, tenantId), eq(speechAudioCache.key, key)))
    .limit(1);
  if (!row || row.createdAt.getTime() < Date.now() - SPEECH_AUDIO_TTL_MS) return null;
  return row.audio;
}

/**
 * Keeps a clip for a day: the tenant's expired clips go, and beyond SPEECH_AUDIO_PER_TENANT the oldest, so the
 * cache stays bounded whatever visitors ask.
 */
export async function keepSpeechAudio(db: Db, tenantId: string, key: string, audio: Buffer): Promise<void> {
  if (audio.byteLength > SPEECH_AUDIO_MAX_BYTES) return;
  const now = new Date();
  await db
    .insert(speechAudioCache)
    .values({ tenantId, key, audio, createdAt: now })
    .onConflictDoUpdate({
      target: [speechAudioCache.tenantId, speechAudioCache.key],
      set: { audio, createdAt: now },
    });
  await db
    .delete(speechAudioCache)
    .where(
      and(
        eq(speechAudioCache.tenantId, tenantId),
        lt(speechAudioCache.createdAt, new Date(now.getTime() - SPEECH_AUDIO_TTL_MS)),
      ),
    );
  const surplus = await db
    .select({ key: speechAudioCache.key })
    .from(speechAudioCache)
    .where(eq(speechAudioCache.tenantId, tenantId))
    .orderBy(sql`${speechAudioCache.createdAt} desc`)
    .offset(SPEECH_AUDIO_PER_TENANT);
  if (surplus.length > 0) {
    await db.delete(speechAudioCache).where(
      and(
        eq(speechAudioCache.tenantId, tenantId),
        inArray(
          speechAudioCache.key,
          surplus.map((row) => row.key),
        ),
      ),
    );
  }
}
