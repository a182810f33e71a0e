import { type Bot, maskedWidgetConfig } from '@omnibot/contracts';
import { botEtag, type StoredBot } from './bots.service';

/** A bot for the console: every secret of its configuration masked, never in clear. */
export function presentBot({ row, config }: StoredBot): Bot {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    enabled: row.enabled,
    config: maskedWidgetConfig(config),
    config_version: row.configVersion,
    etag: botEtag(row),
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
