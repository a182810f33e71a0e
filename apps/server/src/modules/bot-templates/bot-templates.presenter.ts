import { type BotTemplate, templateConfigOf } from '@omnibot/contracts';
import type { BotTemplateRow } from '../../db/schema';

/** A template for the console: only its groups of the configuration, each with its current defaults. */
export function presentBotTemplate(row: BotTemplateRow): BotTemplate {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    description: row.description,
    config: templateConfigOf(row.config),
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
