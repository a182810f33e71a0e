import { z } from 'zod';

/** Tenant types: "1" platform (exactly one), "2" partner, "3" client. */
export const TenantTypeSchema = z.enum(['1', '2', '3']);
type TenantType = z.infer<typeof TenantTypeSchema>;

/** The type a tenant of `parentType` gives its children: "3" under a partner, else "2". */
export function childType(parentType: string): TenantType {
  return parentType === '2' ? '3' : '2';
}

export const FEATURE_CODES = ['omnirag', 'omniassist', 'casesummary', 'subtenant'] as const;
export const FeatureCodeSchema = z.enum(FEATURE_CODES);
export type FeatureCode = z.infer<typeof FeatureCodeSchema>;

/** The subscription catalogue: every feature code with its display name and description. */
export const SUBSCRIPTION_CATALOGUE: Record<FeatureCode, { name: string; description: string }> = {
  omnirag: {
    name: 'Omni RAG',
    description: 'Knowledge bases, indexes, prompts and retrieval-augmented answers.',
  },
  omniassist: {
    name: 'Omni Assist',
    description: 'Agent assist for contact centres: datastores and web UI configuration.',
  },
  casesummary: {
    name: 'Case Summarization',
    description: 'Summaries of finished conversations for contact-centre cases.',
  },
  subtenant: {
    name: 'Client Organisations',
    description: 'Create and manage client organisations (sub-tenants).',
  },
};

export const ROLES = ['master', 'administrator', 'user', 'agent'] as const;
export const RoleSchema = z.enum(ROLES);
export type Role = z.infer<typeof RoleSchema>;

/** What each role may do, in the words the console shows beside the role. */
export const ROLE_ABILITIES: Record<Role, string> = {
  master: 'Everything, in every organisation (platform only)',
  administrator: 'Manages this organisation, its users and its client organisations, and configures its bots',
  user: 'Configures bots, integrations, prompts, knowledge, indexes and RAGs; reads the organisation',
  agent:
    'Answers visitors: reads bots, conversations, the dashboard and knowledge, and asks RAGs; changes no configuration',
};

/**
 * Whether a role may configure bots, bot templates, integrations, prompts, knowledge, indexes, RAGs and files.
 * Agents answer visitors: they read what that work needs and change nothing.
 */
export const canConfigure = (role: Role): boolean => role !== 'agent';

/** The refusal of a change by an agent, and the reason the console gives beside an action it disables. */
export const AGENT_READ_ONLY_MESSAGE =
  'Agents answer visitors and may read this, but not change it. Ask a user or an administrator of your organisation.';
