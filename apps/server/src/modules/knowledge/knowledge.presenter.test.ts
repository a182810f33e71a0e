import { describe, expect, it } from 'vitest';
import type { KnowledgeSourceRow } from '../../db/schema';
import { PRIVATE_SITE_HINT } from '../../lib/guarded-http/guarded-fetch';
import { presentSource } from './knowledge.presenter';

const REASON =
  'Refused by the private-address rule: the host intranet.example resolves to 10.0.0.5, a private network address; only public internet addresses can be fetched.';

const failed = (errorCode: string): KnowledgeSourceRow => ({
  id: '00000000-0000-4000-8000-000000000001',
  tenantId: 't',
  knowledgeBaseId: '00000000-0000-4000-8000-000000000002',
  type: 'url',
  title: null,
  url: 'http://intranet.example/',
  path: null,
  crawl: null,
  content: null,
  state: 'failed',
  errorCode,
  errorReason: REASON,
  contentHash: null,
  chunkCount: 0,
  lastSyncedAt: null,
  syncSchedule: null,
  nextSyncAt: null,
  etag: null,
  lastModified: null,
  lastSyncOutcome: null,
  lastSyncMessage: null,
  lastSyncAt: null,
  attempts: 1,
  createdBy: null,
  updatedBy: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('presentSource', () => {
  it('tells a master viewer, and nobody else, how the refused private site is allowed', () => {
    expect(presentSource(failed('fetch/blocked-address'), { role: 'master' }).error?.reason).toBe(
      `${REASON} ${PRIVATE_SITE_HINT}`,
    );
    for (const viewer of [{ role: 'administrator' }, { role: 'user' }, { role: 'agent' }, null]) {
      expect(presentSource(failed('fetch/blocked-address'), viewer).error?.reason).toBe(REASON);
    }
    expect(presentSource(failed('fetch/http-status'), { role: 'master' }).error?.reason).toBe(REASON);
  });
});
