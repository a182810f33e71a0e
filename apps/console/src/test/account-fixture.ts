import type { Account } from '@omnibot/contracts';

/** A complete account as the account service answers it, named after its tenant id. */
export const accountFixture = (tenant_id: string, type: Account['type']): Account => ({
  id: `id-${tenant_id}`,
  tenant_id,
  parent_tenant_id: null,
  name: tenant_id,
  type,
  is_active: true,
  address: {},
  info: {},
  created_by: null,
  updated_by: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});
