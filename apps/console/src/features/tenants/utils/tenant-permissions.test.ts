import type { Account } from '@omnibot/contracts';
import { describe, expect, it } from 'vitest';
import { canChangeTenantStatus, canEditTenant, mayHaveChildrenOfType } from './tenant-permissions';

const tenant = (tenant_id: string, type: Account['type']) => ({ tenant_id, type }) as Account;

describe('tenant permissions', () => {
  it('lets administrators and masters edit', () => {
    expect(canEditTenant({ role: 'administrator', tenantId: 'a' })).toBe(true);
    expect(canEditTenant({ role: 'master', tenantId: 'a' })).toBe(true);
    expect(canEditTenant({ role: 'user', tenantId: 'a' })).toBe(false);
  });

  it('offers activate/deactivate to a parent administrator or a master only', () => {
    const child = tenant('child', '3');
    expect(canChangeTenantStatus({ role: 'administrator', tenantId: 'partner' }, child)).toBe(true);
    expect(canChangeTenantStatus({ role: 'master', tenantId: 'platform' }, child)).toBe(true);
    expect(canChangeTenantStatus({ role: 'administrator', tenantId: 'child' }, child)).toBe(false);
    expect(canChangeTenantStatus({ role: 'user', tenantId: 'partner' }, child)).toBe(false);
    expect(canChangeTenantStatus({ role: 'master', tenantId: 'platform' }, tenant('platform', '1'))).toBe(
      false,
    );
  });

  it('knows which organisations may have children', () => {
    expect(mayHaveChildrenOfType('1', false)).toBe(true);
    expect(mayHaveChildrenOfType('2', true)).toBe(true);
    expect(mayHaveChildrenOfType('2', false)).toBe(false);
    expect(mayHaveChildrenOfType('3', true)).toBe(false);
  });
});
