import { customType, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './tenants';

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (value) => Buffer.from(value),
});

/**
 * Audio a bot's server voice made, kept a day per tenant so a repeated answer is not paid for twice. Keyed by a
 * digest of the voice and the text, so no visitor text is stored in the clear here.
 */
export const speechAudioCache = pgTable(
  'speech_audio_cache',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.tenantId, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    audio: bytea('audio').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.key] }),
    index('speech_audio_cache_tenant_created_idx').on(t.tenantId, t.createdAt),
  ],
);
