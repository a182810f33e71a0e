import { z } from 'zod';
import { safeString } from './text';
import { WidgetConfigSchema } from './widget-config';

export const BOT_NAME_MAX = 120;

export const BotNameSchema = safeString()
  .trim()
  .min(1, 'The name is required')
  .max(BOT_NAME_MAX, `The name must be at most ${BOT_NAME_MAX} characters`);

const configGroup = z.record(z.string(), z.unknown(), 'A configuration group is an object.');

/**
 * A configuration change: each group given is merged field by field over the stored configuration (lists are
 * replaced whole), and the result must be a valid WidgetConfig. A secret sent back masked keeps the stored one.
 */
const WidgetConfigPatchSchema = z.strictObject(
  Object.fromEntries(Object.keys(WidgetConfigSchema.shape).map((key) => [key, configGroup.optional()])) as {
    [K in keyof typeof WidgetConfigSchema.shape]: z.ZodOptional<typeof configGroup>;
  },
);
export type WidgetConfigPatch = z.infer<typeof WidgetConfigPatchSchema>;

/** A new bot: its name and any part of its configuration; everything left out takes the default. */
export const CreateBotBodySchema = z.strictObject({
  name: BotNameSchema,
  config: WidgetConfigPatchSchema.optional(),
});
export type CreateBotBody = z.input<typeof CreateBotBodySchema>;

export const UpdateBotBodySchema = z.strictObject({
  name: BotNameSchema.optional(),
  enabled: z.boolean('enabled is true or false').optional(),
  config: WidgetConfigPatchSchema.optional(),
});
export type UpdateBotBody = z.input<typeof UpdateBotBodySchema>;

/** A copy of a bot (secrets included, server-side) under a new name; disabled until switched on. */
export const DuplicateBotBodySchema = z.strictObject({ name: BotNameSchema });
export type DuplicateBotBody = z.input<typeof DuplicateBotBodySchema>;

export const BotIdParamsSchema = z.object({ id: z.uuid('Unknown bot id') });

export const BotListQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  page_size: z.coerce.number().int().min(1).max(100).default(20),
});
export type BotListQuery = z.infer<typeof BotListQuerySchema>;

/** A bot for the console: the configuration with every secret masked (never the secret itself). */
export const BotSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  config: WidgetConfigSchema,
  config_version: z.number().int(),
  etag: z.string(),
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Bot = z.infer<typeof BotSchema>;

export const BotListSchema = z.object({
  items: z.array(BotSchema),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type BotList = z.infer<typeof BotListSchema>;

export const WidgetBotParamsSchema = z.object({ botId: z.string() });

/** An origin (scheme://host[:port]) a bot's widget was loaded from, with when and how often. */
const BotOriginSchema = z.object({
  origin: z.string(),
  first_seen: z.string(),
  last_seen: z.string(),
  hits: z.number().int(),
});
export type BotOrigin = z.infer<typeof BotOriginSchema>;

/** The origins that loaded a bot in the last 30 days, most recent first (at most 100). */
export const BotOriginListSchema = z.object({ items: z.array(BotOriginSchema) });
export type BotOriginList = z.infer<typeof BotOriginListSchema>;

/** A file of the organisation's storage (an image or a sound) for a bot's widget to show. */
export const BotImageBodySchema = z.strictObject({
  path: z
    .string('The path is a string')
    .trim()
    .min(1, 'The path is required')
    .max(1024, 'The path is too long'),
});

/** The permanent address a bot's widget reads that file at (served while the bot is and the file exists). */
export const BotImageSchema = z.object({ url: z.string() });
