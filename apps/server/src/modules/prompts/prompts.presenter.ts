import type { Prompt, PromptSummary, PromptVersion, PromptVersionSummary } from '@omnibot/contracts';
import { promptVariables } from '@omnibot/contracts';
import type { PromptRow, PromptVersionRow } from '../../db/schema';
import type { StoredPrompt } from './prompts.service';

export function presentPromptSummary(row: PromptRow): PromptSummary {
  return {
    id: row.id,
    tenant_id: row.tenantId,
    name: row.name,
    description: row.description,
    current_version: row.currentVersion,
    created_by: row.createdBy,
    updated_by: row.updatedBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A prompt with its current template and the variables it uses. */
export function presentPrompt({ row, template }: StoredPrompt): Prompt {
  return { ...presentPromptSummary(row), template, variables: promptVariables(template).variables };
}

export function presentVersionSummary(row: PromptVersionRow): PromptVersionSummary {
  return { version: row.version, created_by: row.createdBy, created_at: row.createdAt.toISOString() };
}

export function presentVersion(row: PromptVersionRow): PromptVersion {
  return { ...presentVersionSummary(row), prompt_id: row.promptId, template: row.template };
}
