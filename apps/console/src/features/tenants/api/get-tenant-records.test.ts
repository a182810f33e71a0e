import { afterEach, describe, expect, it, vi } from 'vitest';
import { json } from '../../../test/fake-auth-api';
import { getTenantRecords } from './get-tenant-records';
import { accountFixture as account } from '../../../test/account-fixture';

/** Answers GET /v1/Account/{id} with the account and GET /v1/Account?tenant_id= with `list`. */
function stubAccountService(own: ReturnType<typeof account>, list: () => Response) {
  const fetch = vi.fn((url: string) =>
    Promise.resolve(url.startsWith('/v1/Account?') ? list() : json(200, [own])),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('getTenantRecords (the tenant type rules against the account service)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('type "1" only asks for the list', async () => {
    const fetch = stubAccountService(account('platform', '1'), () =>
      json(200, { code: 200, items: [account('a', '2')] }),
    );
    expect((await getTenantRecords('platform', '1')).map((item) => item.tenant_id)).toEqual(['a']);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('type "2" combines its record with the list, or keeps its record alone on 404 or 500', async () => {
    stubAccountService(account('partner', '2'), () => json(200, { code: 200, items: [account('c', '3')] }));
    expect((await getTenantRecords('partner', '2')).map((item) => item.tenant_id)).toEqual(['partner', 'c']);
    stubAccountService(account('partner', '2'), () => json(200, { code: 404, message: 'No accounts' }));
    expect((await getTenantRecords('partner', '2')).map((item) => item.tenant_id)).toEqual(['partner']);
    stubAccountService(account('partner', '2'), () => json(500, { code: 'internal', message: 'Boom' }));
    expect((await getTenantRecords('partner', '2')).map((item) => item.tenant_id)).toEqual(['partner']);
  });

  it('type "1" reports a failing list instead of showing an empty one', async () => {
    stubAccountService(account('platform', '1'), () => json(500, { code: 'internal', message: 'Boom' }));
    await expect(getTenantRecords('platform', '1')).rejects.toThrow('could not be loaded');
  });

  it('other types only ask for their own record', async () => {
    const fetch = stubAccountService(account('client', '3'), () => json(200, { code: 404, message: 'x' }));
    expect((await getTenantRecords('client', '3')).map((item) => item.tenant_id)).toEqual(['client']);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
