import { z } from 'zod';
import { BotNameSchema } from './bots';
import { safeString } from './text';
import { WidgetConfigSchema } from './widget-config';

export const BOT_TEMPLATE_NAME_MAX = 120;
export const BOT_TEMPLATE_DESCRIPTION_MAX = 500;

/**
 * The groups of a bot's configuration a template keeps: how the bot looks and what it says. Engines, install
 * origins, language and provider blocks (where the secrets live) are never part of a template.
 */
export const BOT_TEMPLATE_GROUPS = [
  'identity',
  'welcome',
  'appearance',
  'feedback',
  'titles',
  'masking',
  'launcher',
  'window',
] as const;
type BotTemplateGroup = (typeof BOT_TEMPLATE_GROUPS)[number];

/** A template's configuration: the appearance and texts of a bot, each group with its widget defaults. */
const BotTemplateConfigSchema = WidgetConfigSchema.pick({
  identity: true,
  welcome: true,
  appearance: true,
  feedback: true,
  titles: true,
  masking: true,
  launcher: true,
  window: true,
});
export type BotTemplateConfig = z.infer<typeof BotTemplateConfigSchema>;

/** The template groups of a bot's configuration, and nothing else. */
export function templateConfigOf(config: Record<BotTemplateGroup, unknown>): BotTemplateConfig {
  return BotTemplateConfigSchema.parse(
    Object.fromEntries(BOT_TEMPLATE_GROUPS.map((group) => [group, config[group]])),
  );
}

export const BotTemplateNameSchema = safeString()
  .trim()
  .min(1, 'The name is required')
  .max(BOT_TEMPLATE_NAME_MAX, `The name must be at most ${BOT_TEMPLATE_NAME_MAX} characters`);

export const BotTemplateDescriptionSchema = safeString()
  .trim()
  .max(
    BOT_TEMPLATE_DESCRIPTION_MAX,
    `The description must be at most ${BOT_TEMPLATE_DESCRIPTION_MAX} characters`,
  );

/** A template saved from one of the caller's bots: its appearance and texts are copied. */
export const CreateBotTemplateBodySchema = z.strictObject({
  name: BotTemplateNameSchema,
  description: BotTemplateDescriptionSchema.default(''),
  bot_id: z.uuid('Unknown bot id'),
});
export type CreateBotTemplateBody = z.input<typeof CreateBotTemplateBodySchema>;

export const UpdateBotTemplateBodySchema = z.strictObject({
  name: BotTemplateNameSchema.optional(),
  description: BotTemplateDescriptionSchema.optional(),
});
export type UpdateBotTemplateBody = z.input<typeof UpdateBotTemplateBodySchema>;

/** A new bot made from a template: the template's groups over the default configuration. */
export const CreateBotFromTemplateBodySchema = z.strictObject({ name: BotNameSchema });

export const BotTemplateIdParamsSchema = z.object({ id: z.uuid('Unknown template id') });

export const BotTemplateSchema = z.object({
  id: z.string(),
  tenant_id: z.string(),
  name: z.string(),
  description: z.string(),
  config: BotTemplateConfigSchema,
  created_by: z.string().nullable(),
  updated_by: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type BotTemplate = z.infer<typeof BotTemplateSchema>;

/** The organisation's templates, by name. */
export const BotTemplateListSchema = z.object({ items: z.array(BotTemplateSchema) });
