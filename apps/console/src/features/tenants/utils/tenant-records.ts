import type { Account } from '@omnibot/contracts';

/** What the list call answered: the children, or the code it reported (404 none, 500 the call failed). */
export type TenantListOutcome = { code: 200; items: Account[] } | { code: 404 | 500 };

/** Which calls the type rules need: the single record and/or the list. */
export function tenantRecordCalls(tenantType: string): { single: boolean; list: boolean } {
  if (tenantType === '1') return { single: false, list: true };
  if (tenantType === '2') return { single: true, list: true };
  return { single: true, list: false };
}

/**
 * Tenant type rules for loading tenant records: type "1" uses the list; type "2" the single
 * record and also the list, combined, unless the list reports 404 or 500, in which case only the single one;
 * any other type only the single record. A missing single record (not found) adds nothing.
 */
export function tenantRecords(
  tenantType: string,
  single: Account | null,
  list: TenantListOutcome | null,
): Account[] {
  const own = single ? [single] : [];
  if (tenantType === '1') return list?.code === 200 ? list.items : [];
  if (tenantType === '2') {
    // A 404 (no children) or 500 (the call failed) leaves the single record.
    if (list?.code !== 200) return own;
    return [...own, ...list.items.filter((item) => item.tenant_id !== single?.tenant_id)];
  }
  return own;
}
