import type { Account } from '@omnibot/contracts';
import { describe, expect, it } from 'vitest';
import { tenantRecordCalls, tenantRecords } from './tenant-records';
import { accountFixture as account } from '../../../test/account-fixture';

const own = account('own', '2');
const childA = account('a', '3');
const childB = account('b', '3');
const ids = (records: Account[]) => records.map((record) => record.tenant_id);

describe('tenantRecordCalls', () => {
  it('asks type "1" for the list, type "2" for both, any other type for the single record', () => {
    expect(tenantRecordCalls('1')).toEqual({ single: false, list: true });
    expect(tenantRecordCalls('2')).toEqual({ single: true, list: true });
    expect(tenantRecordCalls('3')).toEqual({ single: true, list: false });
    expect(tenantRecordCalls('')).toEqual({ single: true, list: false });
  });
});

describe('tenantRecords (tenant type rules)', () => {
  it('type "1": the list only, nothing when it reports 404 or 500', () => {
    const platform = account('platform', '1');
    expect(ids(tenantRecords('1', platform, { code: 200, items: [childA, childB] }))).toEqual(['a', 'b']);
    expect(tenantRecords('1', null, { code: 404 })).toEqual([]);
    expect(tenantRecords('1', null, { code: 500 })).toEqual([]);
  });

  it('type "2": the single record combined with the list', () => {
    expect(ids(tenantRecords('2', own, { code: 200, items: [childA, childB] }))).toEqual(['own', 'a', 'b']);
  });

  it('type "2": only the single record when the list reports 404 or 500', () => {
    expect(ids(tenantRecords('2', own, { code: 404 }))).toEqual(['own']);
    expect(ids(tenantRecords('2', own, { code: 500 }))).toEqual(['own']);
    expect(ids(tenantRecords('2', own, null))).toEqual(['own']);
  });

  it('type "2": the own record appears once even if the list were to hold it', () => {
    expect(ids(tenantRecords('2', own, { code: 200, items: [own, childA] }))).toEqual(['own', 'a']);
  });

  it('any other type: the single record only, even when a list is given', () => {
    const client = account('client', '3');
    expect(ids(tenantRecords('3', client, { code: 200, items: [childA] }))).toEqual(['client']);
    expect(ids(tenantRecords('9', client, null))).toEqual(['client']);
    expect(tenantRecords('3', null, null)).toEqual([]);
  });
});
