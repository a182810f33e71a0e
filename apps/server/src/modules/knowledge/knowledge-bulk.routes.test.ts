import fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  BULK_SOURCES_MAX,
  BulkSourcesResultSchema,
  KnowledgeBaseSchema,
  KnowledgeSourceListSchema,
} from '@omnibot/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../db/schema';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { basicCredential, injectUpload } from '../files/files.test-support';

let t: TestApp;
let dataDir: string;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'kb-bulk-a', b: 'kb-bulk-b', noRag: 'kb-bulk-norag' };

const call = (method: 'GET' | 'POST', url: string, caller: Caller, payload?: unknown) =>
  injectAs(t, method, url, caller, payload);

async function createKb(caller: Caller, name: string) {
  const response = await call('POST', '/v1/knowledge', caller, { name, language: 'en' });
  expect(response.statusCode, response.body).toBe(201);
  return KnowledgeBaseSchema.parse(response.json());
}

const bulk = (kb: string, sources: unknown, caller: Caller = who.alice) =>
  call('POST', `/v1/knowledge/${kb}/sources/bulk`, caller, { sources });

/** A digest of every table the knowledge routes write: equal digests mean nothing changed. */
const fingerprint = (): Promise<string> =>
  tablesFingerprint(t, [
    'knowledge_bases',
    'knowledge_sources',
    'knowledge_chunks',
    'knowledge_qa',
    'audit_log',
  ]);

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(tmpdir(), 'omnibot-bulk-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  Object.assign(who, await makeOmniragTenants(t, ids));
});
afterAll(async () => {
  await t.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('adding sources in bulk', () => {
  it('creates sources of every type at once, queued, in the given order, each audited', async () => {
    const kb = await createKb(who.alice, 'Bulk mixed');
    const stored = await injectUpload(t, who.alice.cookie ?? '', 'guide.txt', Buffer.from('Open daily.'));
    const response = await bulk(kb.id, [
      { type: 'qa', question: 'Parking?', answer: 'Behind the shop.' },
      { type: 'text', title: 'Notes', text: 'Closed on Sundays.' },
      { type: 'file', path: stored },
      { type: 'url', url: 'https://example.com/help', crawl: { depth: 2, max_pages: 10 } },
      { type: 'sitemap', url: 'https://example.com/sitemap.xml' },
    ]);
    expect(response.statusCode, response.body).toBe(201);
    const { items } = BulkSourcesResultSchema.parse(response.json());
    expect(items.map((item) => [item.type, item.state, item.knowledge_id])).toEqual([
      ['qa', 'queued', kb.id],
      ['text', 'queued', kb.id],
      ['file', 'queued', kb.id],
      ['url', 'queued', kb.id],
      ['sitemap', 'queued', kb.id],
    ]);
    expect(items[2]).toMatchObject({ path: stored, title: 'guide.txt' });
    expect(items[3]).toMatchObject({ url: 'https://example.com/help' });

    const list = KnowledgeSourceListSchema.parse(
      (await call('GET', `/v1/knowledge/${kb.id}/sources`, who.alice)).json(),
    );
    expect(list.total).toBe(5);
    const audits = await t.database.db
      .select({ target: auditLog.target })
      .from(auditLog)
      .where(and(eq(auditLog.tenantId, ids.a), eq(auditLog.action, 'knowledge.source.create')));
    expect(audits.map((row) => row.target)).toEqual(expect.arrayContaining(items.map((item) => item.id)));

    // Bodies above the usual 1 MiB are fine here: 150 long Q&A pairs are about 3 MB.
    const long = Array.from({ length: 150 }, (_, index) => ({
      type: 'qa',
      question: `Long question ${index}?`,
      answer: 'a'.repeat(20_000),
    }));
    const large = await bulk(kb.id, long);
    expect(large.statusCode, large.body.slice(0, 200)).toBe(201);
    expect(BulkSourcesResultSchema.parse(large.json()).items).toHaveLength(150);

    const credential = { authorization: await basicCredential(t, ids.a) };
    const byCredential = await bulk(kb.id, [{ type: 'qa', question: 'Q?', answer: 'A.' }], credential);
    expect(byCredential.statusCode, byCredential.body).toBe(201);
  });

  it('stores nothing when one item is bad, and names that item', async () => {
    const kb = await createKb(who.alice, 'Bulk refused');
    const before = await fingerprint();
    const good = { type: 'qa', question: 'Q?', answer: 'A.' };
    const refusals: Array<[unknown, number, string]> = [
      [[good, good, { type: 'url', url: 'ftp://example.com' }], 400, 'Item 3: The address must be'],
      [[good, { type: 'text', title: 'x' }], 400, 'Item 2: '],
      [[{ type: 'pdf', path: '/a.pdf' }], 400, 'Item 1: '],
      [[good, { ...good, extra: 1 }], 400, 'Item 2: '],
      [[], 400, 'Add at least one source'],
      [Array.from({ length: BULK_SOURCES_MAX + 1 }, () => good), 400, 'At most 500 sources at once'],
      ['not a list', 400, ''],
    ];
    for (const [sources, status, message] of refusals) {
      const response = await bulk(kb.id, sources);
      expect(response.statusCode, response.body).toBe(status);
      const body = response.json<{ code: string; message: string }>();
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
      expect(body.code).toBe('invalid_argument');
      expect(body.message.startsWith(message), body.message).toBe(true);
    }
    const extraField = await call('POST', `/v1/knowledge/${kb.id}/sources/bulk`, who.alice, {
      sources: [good],
      other: true,
    });
    expect(extraField.statusCode).toBe(400);
    expect(await fingerprint()).toBe(before);
  });

  it('refuses a file item whose path is missing as a single source is refused, naming the item', async () => {
    const kb = await createKb(who.alice, 'Bulk files');
    const stored = await injectUpload(t, who.alice.cookie ?? '', 'kept.md', Buffer.from('# Kept'));
    const before = await fingerprint();
    const single = await call('POST', `/v1/knowledge/${kb.id}/sources`, who.alice, {
      type: 'file',
      path: 'missing/file.pdf',
    });
    expect(single.statusCode).toBe(404);
    const many = await bulk(kb.id, [
      { type: 'file', path: stored },
      { type: 'file', path: 'missing/file.pdf' },
    ]);
    expect(many.statusCode).toBe(single.statusCode);
    const singleBody = single.json<{ code: string; message: string }>();
    expect(many.json()).toEqual({ code: singleBody.code, message: `Item 2: ${singleBody.message}` });

    for (const bad of ['../../etc/passwd', '/absolute.pdf']) {
      const escaping = await bulk(kb.id, [{ type: 'file', path: bad }]);
      expect(escaping.statusCode, bad).toBe(400);
      expect(escaping.json<{ message: string }>().message).toMatch(/^Item 1: /);
    }

    // Bob's storage does not lend Alice a file: the same path is unknown to him.
    const bobKb = await createKb(who.bob, 'Bob files');
    const beforeBob = await fingerprint();
    const crossed = await bulk(bobKb.id, [{ type: 'file', path: stored }], who.bob);
    expect(crossed.statusCode).toBe(single.statusCode);
    expect(await fingerprint()).toBe(beforeBob);
    expect(beforeBob).not.toBe(before);
  });

  it("answers 404 for another organisation's knowledge base and 403 without omnirag, storing nothing", async () => {
    const kb = await createKb(who.alice, 'Bulk private');
    const before = await fingerprint();
    const sources = [{ type: 'qa', question: 'Q?', answer: 'A.' }];
    const foreign = await bulk(kb.id, sources, who.bob);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'not_found' });
    const unknown = await bulk('00000000-0000-4000-8000-000000000000', sources);
    expect(unknown.statusCode).toBe(404);
    const noRag = await bulk(kb.id, sources, who.noRag);
    expect(noRag.statusCode).toBe(403);
    expect((await bulk(kb.id, sources, {})).statusCode).toBe(401);
    expect(await fingerprint()).toBe(before);
  });
});
