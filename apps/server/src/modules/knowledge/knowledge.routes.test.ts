import {
  KnowledgeBaseListSchema,
  KnowledgeBaseSchema,
  KnowledgeSourceListSchema,
  KnowledgeSourceSchema,
} from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Auth = Caller;

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Auth> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'kb-a', b: 'kb-b', noRag: 'kb-norag' };

const call = (method: Method, url: string, auth: Auth, payload?: unknown) =>
  injectAs(t, method, url, auth, payload);

async function createKb(auth: Auth, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/knowledge', auth, body);
  expect(response.statusCode, response.body).toBe(201);
  return KnowledgeBaseSchema.parse(response.json());
}

async function addSource(auth: Auth, kb: string, body: Record<string, unknown>) {
  const response = await call('POST', `/v1/knowledge/${kb}/sources`, auth, body);
  expect(response.statusCode, response.body).toBe(201);
  return KnowledgeSourceSchema.parse(response.json());
}

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
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
});
afterAll(async () => {
  await t.close();
});

describe('knowledge bases', () => {
  it('creates with default chunking, lists, reads, updates and deletes', async () => {
    const kb = await createKb(who.alice, { name: 'Handbook', language: 'German' });
    expect(kb.chunking).toEqual({ target_words: 350, overlap: 0.15 });
    expect(kb.text_search_config).toBe('german');
    expect(kb.tenant_id).toBe(ids.a);

    const list = KnowledgeBaseListSchema.parse((await call('GET', '/v1/knowledge', who.alice)).json());
    expect(list.items.map((item) => item.id)).toContain(kb.id);

    const patched = await call('PATCH', `/v1/knowledge/${kb.id}`, who.alice, {
      name: 'Staff handbook',
      language: 'ja',
      chunking: { target_words: 200, overlap: 0.1 },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    const updated = KnowledgeBaseSchema.parse(patched.json());
    expect(updated).toMatchObject({
      name: 'Staff handbook',
      text_search_config: 'simple',
      chunking: { target_words: 200, overlap: 0.1 },
    });

    const duplicate = await call('POST', '/v1/knowledge', who.alice, {
      name: 'Staff handbook',
      language: 'en',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ code: 'knowledge/name-taken' });

    const credential = { authorization: await basicCredential(t, ids.a) };
    expect((await call('GET', `/v1/knowledge/${kb.id}`, credential)).statusCode).toBe(200);

    expect((await call('DELETE', `/v1/knowledge/${kb.id}`, who.alice)).statusCode).toBe(204);
    expect((await call('GET', `/v1/knowledge/${kb.id}`, who.alice)).statusCode).toBe(404);
  });

  it('stores a new source as queued, lists it, and re-queues it on resync', async () => {
    const kb = await createKb(who.alice, { name: 'Sources', language: 'en' });
    const source = await addSource(who.alice, kb.id, { type: 'text', title: 'Notes', text: 'Open daily.' });
    expect(source).toMatchObject({
      state: 'queued',
      type: 'text',
      title: 'Notes',
      error: null,
      chunk_count: 0,
    });
    const list = KnowledgeSourceListSchema.parse(
      (await call('GET', `/v1/knowledge/${kb.id}/sources`, who.alice)).json(),
    );
    expect(list.items.map((item) => item.id)).toEqual([source.id]);
    const resync = await call('POST', `/v1/knowledge/${kb.id}/sources/${source.id}/resync`, who.alice);
    expect(resync.statusCode, resync.body).toBe(200);
    const chunks = await call('GET', `/v1/knowledge/${kb.id}/sources/${source.id}/chunks`, who.alice);
    expect(chunks.json()).toMatchObject({ items: [], total: 0 });
  });
});

describe('knowledge isolation and refusals', () => {
  it("answers 404 for another organisation's knowledge base and source on every route, changing nothing", async () => {
    const kb = await createKb(who.alice, { name: 'Private', language: 'en' });
    const source = await addSource(who.alice, kb.id, { type: 'qa', question: 'Secret?', answer: 'Yes.' });
    const before = await fingerprint();
    const base = `/v1/knowledge/${kb.id}`;
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', base],
      ['PATCH', base, { name: 'Taken over' }],
      ['DELETE', base],
      ['POST', `${base}/sources`, { type: 'text', title: 'x', text: 'y' }],
      ['GET', `${base}/sources`],
      ['GET', `${base}/sources/${source.id}`],
      ['DELETE', `${base}/sources/${source.id}`],
      ['POST', `${base}/sources/${source.id}/resync`],
      ['GET', `${base}/sources/${source.id}/chunks`],
    ];
    for (const [method, url, body] of routes) {
      const response = await call(method, url, who.bob, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
    // Bob's own knowledge base does not reach Alice's source either.
    const bobKb = await createKb(who.bob, { name: 'Bob', language: 'en' });
    const afterBob = await fingerprint();
    const crossed = await call('GET', `/v1/knowledge/${bobKb.id}/sources/${source.id}`, who.bob);
    expect(crossed.statusCode).toBe(404);
    expect(await fingerprint()).toBe(afterBob);
    expect(before).not.toBe(afterBob);
    const bobList = KnowledgeBaseListSchema.parse((await call('GET', '/v1/knowledge', who.bob)).json());
    expect(bobList.items.map((item) => item.id)).toEqual([bobKb.id]);
  });

  it('answers 403 without the omnirag subscription', async () => {
    for (const [method, url] of [
      ['GET', '/v1/knowledge'],
      ['POST', '/v1/knowledge'],
    ] as const) {
      const response = await call(method, url, who.noRag, { name: 'x', language: 'en' });
      expect(response.statusCode, url).toBe(403);
    }
    expect((await call('GET', '/v1/knowledge', {})).statusCode).toBe(401);
  });

  it('normalises a web address once and refuses, before storing, one the guarded client would refuse', async () => {
    const kb = await createKb(who.alice, { name: 'Addresses', language: 'en' });
    const refused: Array<[string, string]> = [
      ['HTTP://127.0.0.1/help', 'fetch/blocked-address'],
      ['http://2130706433/', 'fetch/blocked-address'],
      ['http://0177.0.0.1/', 'fetch/blocked-address'],
      ['http://0x7f.1/', 'fetch/blocked-address'],
      ['http://[::1]/', 'fetch/blocked-address'],
      ['http://[::ffff:10.0.0.1]/', 'fetch/blocked-address'],
      ['http://\uff11\uff12\uff17.\uff10.\uff10.\uff11/', 'fetch/blocked-address'],
      ['http://LOCALHOST./', 'fetch/blocked-address'],
      ['http://192.168.1.1./', 'fetch/blocked-address'],
      ['http://169.254.169.254/latest/', 'fetch/blocked-host'],
      ['http://metadata.google.internal./', 'fetch/blocked-host'],
      ['http://user:secret@example.com/', 'fetch/credentials-in-url'],
      ['https://example.com:25/', 'fetch/blocked-port'],
    ];
    const before = await fingerprint();
    for (const [url, code] of refused) {
      for (const type of ['url', 'sitemap']) {
        const response = await call('POST', `/v1/knowledge/${kb.id}/sources`, who.alice, { type, url });
        expect([response.statusCode, response.json<{ code: string }>().code], `${type} ${url}`).toEqual([
          400,
          code,
        ]);
        expect(response.json<{ message: string }>().message).toMatch(/^Refused by the [a-z-]+ rule: /);
        expect(response.body).not.toContain('secret@');
        expect(response.body).not.toContain('FETCH_ALLOW_ADDRESSES');
      }
    }
    const good = { type: 'text', title: 'Fine', text: 'Fine.' };
    const bulk = await call('POST', `/v1/knowledge/${kb.id}/sources/bulk`, who.alice, {
      sources: [good, { type: 'url', url: 'http://[0:0:0:0:0:0:0:1]/' }],
    });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json<{ message: string }>().message).toMatch(/^Item 2: Refused by the loopback rule/);
    expect(await fingerprint()).toBe(before);

    // Stored in the one form every later fetch reads: scheme and host in lower case, IDN as punycode.
    const stored = [
      ['HTTPS://Docs.Example.COM/Help?q=1#top', 'https://docs.example.com/Help?q=1#top'],
      ['https://b\u00fccher.example/faq', 'https://xn--bcher-kva.example/faq'],
      ['http://example.com:8080', 'http://example.com:8080/'],
    ];
    for (const [url, normalised] of stored) {
      expect((await addSource(who.alice, kb.id, { type: 'url', url })).url).toBe(normalised);
      expect((await addSource(who.alice, kb.id, { type: 'sitemap', url })).url).toBe(normalised);
    }
  });

  it('refuses bad input with a 4xx and stores nothing', async () => {
    const kb = await createKb(who.alice, { name: 'Strict', language: 'en' });
    const before = await fingerprint();
    const bad: Array<[string, unknown]> = [
      ['/v1/knowledge', { name: '', language: 'en' }],
      ['/v1/knowledge', { name: 'x', language: 'en', chunking: { target_words: 10 } }],
      ['/v1/knowledge', { name: 'x', language: 'en', chunking: { target_words: 300, overlap: 0.6 } }],
      ['/v1/knowledge', { name: 'x', language: 'en', extra: 1 }],
      ['/v1/knowledge', { name: 'a\u0000b', language: 'en' }],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'text', title: 'x' }],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'pdf', path: '/a.pdf' }],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'url', url: 'ftp://example.com/x' }],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'url', url: 'not a url' }],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'url', url: 'https://example.com', crawl: { depth: 4 } }],
      [
        `/v1/knowledge/${kb.id}/sources`,
        { type: 'url', url: 'https://example.com', crawl: { max_pages: 501 } },
      ],
      [
        `/v1/knowledge/${kb.id}/sources`,
        { type: 'url', url: 'https://example.com', crawl: { include: ['docs'] } },
      ],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'sitemap', url: 'https://example.com', crawl: {} }],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'qa', question: 'q', answer: '   ' }],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'file', path: '/missing/file.pdf' }],
      [`/v1/knowledge/${kb.id}/sources`, { type: 'file', path: '../../etc/passwd' }],
    ];
    for (const [url, body] of bad) {
      const response = await call('POST', url, who.alice, body);
      expect(response.statusCode, `${JSON.stringify(body)} ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'message']);
    }
    const badIds = await call('GET', '/v1/knowledge/not-a-uuid/sources', who.alice);
    expect(badIds.statusCode).toBe(400);
    expect(await fingerprint()).toBe(before);
  });
});
