import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, stubAuthApi } from '../../../test/fake-auth-api';
import { getReachableTenants } from './get-reachable-tenants';

const NOW = '2026-01-01T00:00:00.000Z';
const account = (tenantId: string, name: string, type: '2' | '3', parent: string, isActive = true) => ({
  id: `id-${tenantId}`,
  tenant_id: tenantId,
  parent_tenant_id: parent,
  name,
  type,
  is_active: isActive,
  address: {},
  info: {},
  created_by: null,
  updated_by: null,
  created_at: NOW,
  updated_at: NOW,
});

const CHILDREN: Record<string, unknown[]> = {
  platform: [account('p1', 'Northwind', '2', 'platform'), account('p2', 'Fabrikam', '2', 'platform', false)],
  p1: [account('c1', 'Contoso Clinic', '3', 'p1')],
};

describe('getReachableTenants', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('walks two levels down, naming each tenant with the ones between', async () => {
    const api = stubAuthApi({
      handle: (method, path) => {
        if (method !== 'GET' || path !== '/v1/Account') return undefined;
        const input = api.fetchMock.mock.lastCall?.[0];
        const url = new URL(typeof input === 'string' ? input : '', 'http://x');
        const parent = url.searchParams.get('tenant_id') ?? '';
        const items = CHILDREN[parent];
        return json(200, items ? { code: 200, items } : { code: 404, message: 'No accounts' });
      },
    });
    const tenants = await getReachableTenants('platform');
    expect(
      tenants.map(({ tenantId, ancestors, isActive, type }) => [tenantId, ancestors, isActive, type]),
    ).toEqual([
      ['p1', [], true, '2'],
      ['c1', ['Northwind'], true, '3'],
      ['p2', [], false, '2'],
    ]);
    // Clients are leaves: nobody asks below the second level.
    expect(api.calls().filter((call) => call === 'GET /v1/Account')).toHaveLength(3);
  });
});
