import { z } from 'zod';

/** Tenant types: "1" platform (exactly one), "2" partner, "3" client. */
export const TenantTypeSchema = z.enum(['1', '2', '3']);
export type TenantType = z.infer<typeof TenantTypeSchema>;

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
