import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Caller, createTestApp, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { makeIndex, makeKnowledge } from '../rag/rags.test-support';
import { loadIndex, searchIndex } from './search';

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'search-a', b: 'search-b', noRag: 'search-n' };
const kb = { text: '', qa: '', bob: '' };

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  kb.text = (
    await makeKnowledge(t, who.alice, 'Manual', [
      { type: 'text', title: 'Returns', text: 'Returns are accepted within 30 days of delivery.' },
    ])
  ).id;
  kb.qa = (
    await makeKnowledge(t, who.alice, 'FAQ', [
      { type: 'qa', question: 'What are your opening hours?', answer: 'Monday to Friday, 9 to 5.' },
    ])
  ).id;
  kb.bob = (
    await makeKnowledge(t, who.bob, 'FAQ', [
      { type: 'qa', question: 'Do you ship abroad?', answer: 'Yes, to every country in Europe.' },
    ])
  ).id;
});

afterAll(async () => {
  await t.close();
});

describe('loadIndex', () => {
  it('reads the knowledge bases in their order and whether any of them holds a Q&A pair, in one row', async () => {
    const both = await makeIndex(t, ids.a, 'Both', [kb.qa, kb.text]);
    const loaded = await loadIndex(t.database.db, ids.a, both);
    expect(loaded?.row).toMatchObject({ id: both, tenantId: ids.a, mode: 'keyword' });
    expect(loaded?.knowledgeBaseIds).toEqual([kb.qa, kb.text]);
    expect(loaded?.hasQa).toBe(true);

    const textOnly = await makeIndex(t, ids.a, 'Text only', [kb.text]);
    expect(await loadIndex(t.database.db, ids.a, textOnly)).toMatchObject({
      knowledgeBaseIds: [kb.text],
      hasQa: false,
    });
    const empty = await makeIndex(t, ids.a, 'Empty', []);
    expect(await loadIndex(t.database.db, ids.a, empty)).toMatchObject({
      knowledgeBaseIds: [],
      hasQa: false,
    });
  });

  it("never reads another tenant's index", async () => {
    const bobs = await makeIndex(t, ids.b, 'FAQ', [kb.bob]);
    expect(await loadIndex(t.database.db, ids.b, bobs)).toMatchObject({
      knowledgeBaseIds: [kb.bob],
      hasQa: true,
    });
    expect(await loadIndex(t.database.db, ids.a, bobs)).toBeNull();
  });
});

describe('searchIndex', () => {
  it('uses an index loaded beforehand only when it is the same tenant and index', async () => {
    const textOnly = await makeIndex(t, ids.a, 'Search text', [kb.text]);
    const loaded = await loadIndex(t.database.db, ids.a, textOnly);
    if (!loaded) throw new Error('index not loaded');
    const query = 'returns accepted';
    const reused = await searchIndex(t.database.db, {
      tenantId: ids.a,
      indexId: textOnly,
      query,
      index: loaded,
    });
    expect(reused?.hits.map((hit) => hit.knowledgeBaseId)).toEqual([kb.text]);
    // Another tenant passing Alice's loaded index still gets nothing.
    expect(
      await searchIndex(t.database.db, { tenantId: ids.b, indexId: textOnly, query, index: loaded }),
    ).toBeNull();
  });
});
