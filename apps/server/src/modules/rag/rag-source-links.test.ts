import { AnswerResultSchema, isWebLink } from '@omnibot/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, injectAs, type TestApp } from '../../test/app';
import { defined } from '../../test/defined';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { insertConversation } from '../dashboard/dashboard.test-support';
import { injectUpload } from '../files/files.test-support';
import { fixture } from '../knowledge/ingest/fixtures/load';
import { makeIndex, makeKnowledge, parseEvents } from './rags.test-support';

/*
 * A file source's link in an answer is a download link the server signs for the file's tenant, never the raw
 * storage path: a file may be named like a script address.
 */

const HOSTILE_NAME = "javascript:window.__xss=1;void'.pdf'";
const QUESTION = 'When does the harbour open?';

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'links-a', b: 'links-b', noRag: 'links-norag' };
const rags = { a: '', b: '' };
const indexes = { a: '', b: '' };
const pdf = fixture('three-pages.pdf');

/** A RAG of `tenant` over a knowledge base whose one source is `bytes`, stored under the hostile name. */
async function ragOverFile(tenant: 'a' | 'b', caller: Caller, bytes: Buffer) {
  const path = await injectUpload(t, defined(caller.cookie), HOSTILE_NAME, bytes);
  expect(path).toBe(HOSTILE_NAME);
  const kb = await makeKnowledge(t, caller, 'Manuals', [{ type: 'file', path }]);
  indexes[tenant] = await makeIndex(t, ids[tenant], 'Manuals', [kb.id]);
  const rag = await injectAs(t, 'POST', '/v1/rags', caller, { name: 'Harbour', index_id: indexes[tenant] });
  expect(rag.statusCode, rag.body).toBe(201);
  rags[tenant] = rag.json<{ id: string }>().id;
}

/** The path and query of one of this server's links, to call it in the test app. */
const localPath = (url: string) => {
  expect(url.startsWith(`${t.env.PUBLIC_URL}/v1/files/download?`), url).toBe(true);
  return url.slice(t.env.PUBLIC_URL.length);
};

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  await ragOverFile('a', who.alice, pdf);
  // Tenant B stores another file under the same name.
  await ragOverFile('b', who.bob, fixture('three-pages.pdf'));
});
afterAll(() => t.close());

describe('source links', () => {
  it('answers with a signed download link for a file source, in JSON and streamed, never the storage path', async () => {
    const json = await injectAs(t, 'POST', `/v1/rags/${rags.a}/answer`, who.alice, { question: QUESTION });
    expect(json.statusCode, json.body).toBe(200);
    const streamed = await injectAs(
      t,
      'POST',
      `/v1/rags/${rags.a}/answer`,
      who.alice,
      { question: QUESTION },
      { accept: 'text/event-stream' },
    );
    const event = parseEvents(streamed.body).find((item) => item.event === 'sources');
    for (const body of [json.json(), defined(event).data]) {
      const result = AnswerResultSchema.parse(body);
      expect(result.sources.length).toBeGreaterThan(0);
      for (const source of result.sources) {
        const url = defined(source.url);
        expect(isWebLink(url), url).toBe(true);
        expect(url).not.toMatch(/^javascript:/i);
        const query = new URL(url).searchParams;
        expect([query.get('tenant'), query.get('path')]).toEqual([ids.a, HOSTILE_NAME]);
      }
    }
  });

  it("downloads the answer's file of the right tenant only, and a link moved to another tenant is refused", async () => {
    const answerA = await injectAs(t, 'POST', `/v1/rags/${rags.a}/answer`, who.alice, { question: QUESTION });
    const url = defined(AnswerResultSchema.parse(answerA.json()).sources[0]?.url);
    const download = await t.app.inject({ url: localPath(url) });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(pdf)).toBe(true);
    expect(download.headers['content-disposition']).toMatch(/^attachment|^inline/);

    // The same path in tenant B: the signature names tenant A, so the link cannot be turned towards B.
    const moved = new URL(url);
    moved.searchParams.set('tenant', ids.b);
    const refused = await t.app.inject({ url: localPath(moved.href) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      code: 'storage/unauthorized',
      message: 'This download link is not valid.',
    });

    const answerB = await injectAs(t, 'POST', `/v1/rags/${rags.b}/answer`, who.bob, { question: QUESTION });
    const urlB = defined(AnswerResultSchema.parse(answerB.json()).sources[0]?.url);
    expect(new URL(urlB).searchParams.get('tenant')).toBe(ids.b);
  });

  it('gives signed links in the retrieval test and the bot playground too', async () => {
    const search = await injectAs(t, 'POST', `/v1/indexes/${indexes.a}/search`, who.alice, {
      query: QUESTION,
    });
    expect(search.statusCode, search.body).toBe(200);
    const hits = search.json<{ items: Array<{ source: { url: string | null } }> }>().items;
    expect(hits.length).toBeGreaterThan(0);
    for (const hit of hits) expect(localPath(defined(hit.source.url))).toContain('signature=');

    const bot = await injectAs(t, 'POST', '/v1/bots', who.alice, {
      name: 'Harbour bot',
      config: { engines: { rag_id: rags.a } },
    });
    expect(bot.statusCode, bot.body).toBe(201);
    const chat = await injectAs(t, 'POST', `/v1/bots/${bot.json<{ id: string }>().id}/chat`, who.alice, {
      text: QUESTION,
    });
    expect(chat.statusCode, chat.body).toBe(200);
    const sources = chat.json<{ sources: Array<{ url: string | null }> }>().sources;
    expect(sources.length).toBeGreaterThan(0);
    for (const source of sources) expect(localPath(defined(source.url))).toContain('signature=');
  });

  it("shows a transcript's stored source links as they may be shown now: signed again, or not at all", async () => {
    const bot = await injectAs(t, 'POST', '/v1/bots', who.alice, { name: 'Transcript bot' });
    expect(bot.statusCode, bot.body).toBe(201);
    const answer = await injectAs(t, 'POST', `/v1/rags/${rags.a}/answer`, who.alice, { question: QUESTION });
    const stored = defined(AnswerResultSchema.parse(answer.json()).sources[0]?.url);
    const altered = new URL(stored);
    altered.searchParams.set('expires', '1');
    const theirs = await injectAs(t, 'POST', `/v1/rags/${rags.b}/answer`, who.bob, { question: QUESTION });
    const source = (n: number, url: string) => ({
      n,
      title: `Source ${n}`,
      url,
      chunk_id: null,
      source_id: null,
      score: null,
    });
    const conversation = await insertConversation(t, {
      tenantId: ids.a,
      botId: bot.json<{ id: string }>().id,
      startedAt: new Date(),
      messages: [
        { role: 'visitor', text: QUESTION },
        {
          role: 'bot',
          text: 'At dawn [1].',
          sources: [
            // Stored before links were signed: the raw storage path.
            source(1, HOSTILE_NAME),
            source(2, stored),
            // Altered after signing: its signature no longer matches.
            source(3, altered.href),
            source(4, defined(AnswerResultSchema.parse(theirs.json()).sources[0]?.url)),
            source(5, 'https://harbour.example.com/hours'),
          ],
        },
      ],
    });
    const transcript = await injectAs(t, 'GET', `/v1/conversations/${conversation.id}`, who.alice);
    expect(transcript.statusCode, transcript.body).toBe(200);
    const shown = transcript.json<{ messages: Array<{ sources: Array<{ url: string | null }> }> }>()
      .messages[1];
    const [raw, signed, refused, foreign, page] = defined(shown).sources.map((item) => item.url);
    for (const url of [raw, signed]) {
      const download = await t.app.inject({ url: localPath(defined(url)) });
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(pdf)).toBe(true);
    }
    expect(refused).toBeNull();
    expect(foreign).toBeNull();
    expect(page).toBe('https://harbour.example.com/hours');
  });
});
