import { RAG_DEFAULTS, RagListSchema, RagSchema } from '@omnibot/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rowsOf } from '../../db/client';
import { prompts, ragAnswers, rags } from '../../db/schema';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';
import { addKnowledgeBase, addTenant } from '../knowledge/retrieval/retrieval.test-support';
import { createAnswerRecorder } from './answer-recorder';
import { makeChatModel, makeIndex, makeKnowledge, makePrompt } from './rags.test-support';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Caller> = { alice: {}, bob: {}, noRag: {} };
const ids = { a: 'rag-a', b: 'rag-b', noRag: 'rag-norag' };
const refs = {
  aIndex: '',
  aIndex2: '',
  bIndex: '',
  aPrompt: '',
  bPrompt: '',
  aModel: '',
  bModel: '',
};

const call = (
  method: Method,
  url: string,
  caller: Caller,
  payload?: unknown,
  headers?: Record<string, string>,
) => injectAs(t, method, url, caller, payload, headers);

async function createRag(caller: Caller, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/rags', caller, body);
  expect(response.statusCode, response.body).toBe(201);
  return RagSchema.parse(response.json());
}

/** Every table the RAG and prompt routes write: equal digests mean nothing changed. */
const fingerprint = () =>
  tablesFingerprint(t, ['rags', 'rag_answers', 'prompts', 'prompt_versions', 'audit_log']);

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  const aKb = await makeKnowledge(t, who.alice, 'Help', []);
  const bKb = await makeKnowledge(t, who.bob, 'Help', []);
  refs.aIndex = await makeIndex(t, ids.a, 'Main', [aKb.id]);
  refs.aIndex2 = await makeIndex(t, ids.a, 'Second', [aKb.id]);
  refs.bIndex = await makeIndex(t, ids.b, 'Main', [bKb.id]);
  refs.aPrompt = (await makePrompt(t, who.alice, 'Friendly', 'Be kind. {{context}} {{question}}')).id;
  refs.bPrompt = (await makePrompt(t, who.bob, 'Friendly', 'Be brief. {{context}} {{question}}')).id;
  refs.aModel = (
    await makeChatModel(t, { name: 'For A', base_url: 'http://127.0.0.1:9/v1', tenant_ids: [ids.a] })
  ).id;
  refs.bModel = (
    await makeChatModel(t, { name: 'For B', base_url: 'http://127.0.0.1:9/v1', tenant_ids: [ids.b] })
  ).id;
});
afterAll(async () => {
  await t.close();
});

describe('RAGs', () => {
  it('creates with the defaults, lists, reads, updates, clears prompt and model, and deletes', async () => {
    const rag = await createRag(who.alice, { name: 'Support', index_id: refs.aIndex });
    expect(rag).toMatchObject({
      tenant_id: ids.a,
      name: 'Support',
      index_id: refs.aIndex,
      index_name: 'Main',
      prompt_id: null,
      prompt_name: null,
      model_id: null,
      model_name: null,
      fallback_text: RAG_DEFAULTS.fallback_text,
      citations: true,
      max_context_chars: 6000,
      language: 'auto',
    });

    const patched = await call('PATCH', `/v1/rags/${rag.id}`, who.alice, {
      name: 'Support desk',
      prompt_id: refs.aPrompt,
      model_id: refs.aModel,
      index_id: refs.aIndex2,
      citations: false,
      max_context_chars: 1200,
      language: 'de',
      fallback_text: 'Frag einen Menschen.',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(RagSchema.parse(patched.json())).toMatchObject({
      name: 'Support desk',
      prompt_id: refs.aPrompt,
      prompt_name: 'Friendly',
      model_id: refs.aModel,
      model_name: 'For A',
      index_id: refs.aIndex2,
      index_name: 'Second',
      citations: false,
      max_context_chars: 1200,
      language: 'de',
      fallback_text: 'Frag einen Menschen.',
    });

    const read = await call('GET', `/v1/rags/${rag.id}`, { authorization: await basicCredential(t, ids.a) });
    expect(read.statusCode).toBe(200);
    expect(RagSchema.parse(read.json()).name).toBe('Support desk');

    const cleared = await call('PATCH', `/v1/rags/${rag.id}`, who.alice, { prompt_id: null, model_id: null });
    expect(RagSchema.parse(cleared.json())).toMatchObject({ prompt_id: null, model_id: null });

    const duplicate = await call('POST', '/v1/rags', who.alice, {
      name: 'Support desk',
      index_id: refs.aIndex,
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({
      code: 'rag/name-taken',
      message: 'Another RAG of your organisation already has this name.',
    });

    expect((await call('DELETE', `/v1/rags/${rag.id}`, who.alice)).statusCode).toBe(204);
    expect((await call('GET', `/v1/rags/${rag.id}`, who.alice)).statusCode).toBe(404);
    const audit = rowsOf<{ action: string }>(
      await t.database.db.execute(
        sql`select action from audit_log where target = ${rag.id} order by created_at, action`,
      ),
    );
    expect(audit.map((row) => row.action)).toEqual(['rag.create', 'rag.update', 'rag.update', 'rag.delete']);
  });

  it('lists by name with pages, and filters by prompt and by index', async () => {
    const withPrompt = await createRag(who.alice, {
      name: 'B with prompt',
      index_id: refs.aIndex,
      prompt_id: refs.aPrompt,
    });
    const onSecond = await createRag(who.alice, { name: 'A on second', index_id: refs.aIndex2 });
    const list = async (query: string) => {
      const response = await call('GET', `/v1/rags${query}`, who.alice);
      expect(response.statusCode, response.body).toBe(200);
      return RagListSchema.parse(response.json());
    };
    const all = await list('');
    expect(all.items.map((rag) => rag.name)).toEqual(['A on second', 'B with prompt']);
    expect(all.total).toBe(2);
    expect((await list('?page=2&page_size=1')).items.map((rag) => rag.id)).toEqual([withPrompt.id]);
    expect((await list(`?prompt_id=${refs.aPrompt}`)).items.map((rag) => rag.id)).toEqual([withPrompt.id]);
    expect((await list(`?index_id=${refs.aIndex2}`)).items.map((rag) => rag.id)).toEqual([onSecond.id]);
    // Another tenant's prompt id filters to nothing rather than revealing anything.
    expect((await list(`?prompt_id=${refs.bPrompt}`)).items).toEqual([]);
    const bobs = RagListSchema.parse((await call('GET', '/v1/rags', who.bob)).json());
    expect(bobs.items).toEqual([]);
  });

  it('refuses to delete a prompt a RAG uses with 409 prompt/in-use, and allows it once the RAG lets go', async () => {
    const prompt = await makePrompt(t, who.alice, 'In use', 'Use this: {{context}} {{question}}');
    const rag = await createRag(who.alice, { name: 'Prompted', index_id: refs.aIndex, prompt_id: prompt.id });
    const before = await fingerprint();
    const refused = await call('DELETE', `/v1/prompts/${prompt.id}`, who.alice);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'prompt/in-use',
      message: 'RAGs use this prompt; point them at another prompt first.',
    });
    expect(await fingerprint()).toBe(before);
    // The database refuses it too, should a RAG take the prompt between the check and the delete.
    await expect(t.database.db.execute(sql`delete from prompts where id = ${prompt.id}`)).rejects.toThrow();
    await call('PATCH', `/v1/rags/${rag.id}`, who.alice, { prompt_id: null });
    expect((await call('DELETE', `/v1/prompts/${prompt.id}`, who.alice)).statusCode).toBe(204);
  });

  it('keeps an index a RAG uses from being deleted (409 index/in-use through the API), and a deleted model leaves the RAG without one', async () => {
    const model = await makeChatModel(t, {
      name: 'Short-lived',
      base_url: 'http://127.0.0.1:9/v1',
      tenant_ids: [ids.a],
    });
    const rag = await createRag(who.alice, { name: 'Model user', index_id: refs.aIndex, model_id: model.id });
    await expect(t.database.db.execute(sql`delete from indexes where id = ${refs.aIndex}`)).rejects.toThrow();
    const before = await tablesFingerprint(t, ['indexes', 'index_knowledge_bases', 'rags', 'audit_log']);
    const refused = await call('DELETE', `/v1/indexes/${refs.aIndex}`, who.alice);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      code: 'index/in-use',
      message: 'RAGs use this index; point them at another index first.',
    });
    expect(await tablesFingerprint(t, ['indexes', 'index_knowledge_bases', 'rags', 'audit_log'])).toBe(
      before,
    );
    await t.database.db.execute(sql`delete from models where id = ${model.id}`);
    const [row] = await t.database.db.select().from(rags).where(eq(rags.id, rag.id));
    expect(row?.modelId).toBeNull();
  });
});

describe('RAG rows and their organisation', () => {
  it('go with the organisation, its indexes and prompts although they restrict deleting what a RAG uses', async () => {
    await addTenant(t.database.db, 'rag-gone');
    const kb = await addKnowledgeBase(t.database.db, 'rag-gone', 'Help');
    const index = await makeIndex(t, 'rag-gone', 'Help', [kb.id]);
    const [prompt] = await t.database.db
      .insert(prompts)
      .values({ tenantId: 'rag-gone', name: 'Prompt' })
      .returning({ id: prompts.id });
    const [rag] = await t.database.db
      .insert(rags)
      .values({
        tenantId: 'rag-gone',
        name: 'Gone',
        indexId: index,
        promptId: prompt?.id ?? null,
        fallbackText: 'x',
      })
      .returning({ id: rags.id });
    await t.database.db.insert(ragAnswers).values({
      tenantId: 'rag-gone',
      ragId: rag?.id ?? '',
      question: 'q',
      answer: 'x',
      kind: 'fallback',
      fallback: true,
      retrieveMs: 1,
      generateMs: 0,
      totalMs: 1,
      channel: 'test',
    });
    await t.database.db.execute(sql`delete from tenants where tenant_id = 'rag-gone'`);
    const left = rowsOf<{ n: number | string }>(
      await t.database.db.execute(sql`
        select (select count(*) from rags where tenant_id = 'rag-gone')
          + (select count(*) from rag_answers where tenant_id = 'rag-gone')
          + (select count(*) from indexes where tenant_id = 'rag-gone')
          + (select count(*) from prompts where tenant_id = 'rag-gone') as n`),
    );
    expect(Number(left[0]?.n)).toBe(0);
  });
});

describe('RAG isolation and refusals', () => {
  it("answers 404 for another organisation's RAG on every route, changing nothing", async () => {
    const rag = await createRag(who.alice, { name: 'Private', index_id: refs.aIndex });
    const before = await fingerprint();
    const routes: Array<[Method, string, unknown?, Record<string, string>?]> = [
      ['GET', `/v1/rags/${rag.id}`],
      ['PATCH', `/v1/rags/${rag.id}`, { name: 'Taken over' }],
      ['DELETE', `/v1/rags/${rag.id}`],
      ['POST', `/v1/rags/${rag.id}/answer`, { question: 'What is private?' }],
      [
        'POST',
        `/v1/rags/${rag.id}/answer`,
        { question: 'What is private?' },
        { accept: 'text/event-stream' },
      ],
    ];
    for (const [method, url, body, headers] of routes) {
      const response = await call(method, url, who.bob, body, headers);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toEqual({ code: 'not_found', message: 'RAG not found' });
    }
    expect(await fingerprint()).toBe(before);
  });

  it("refuses another organisation's (or an unknown) index, prompt and model with 400 rag/unknown-*", async () => {
    const rag = await createRag(who.alice, { name: 'Mine', index_id: refs.aIndex });
    const before = await fingerprint();
    const unknown = '00000000-0000-4000-8000-000000000000';
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ index_id: refs.bIndex }, 'rag/unknown-index'],
      [{ index_id: unknown }, 'rag/unknown-index'],
      [{ index_id: refs.aIndex, prompt_id: refs.bPrompt }, 'rag/unknown-prompt'],
      [{ index_id: refs.aIndex, prompt_id: unknown }, 'rag/unknown-prompt'],
      [{ index_id: refs.aIndex, model_id: refs.bModel }, 'rag/unknown-model'],
      [{ index_id: refs.aIndex, model_id: unknown }, 'rag/unknown-model'],
    ];
    for (const [refsBody, code] of cases) {
      const created = await call('POST', '/v1/rags', who.alice, { name: 'Crossed', ...refsBody });
      expect(created.statusCode, JSON.stringify(refsBody)).toBe(400);
      expect(created.json<{ code: string }>().code).toBe(code);
      const patched = await call('PATCH', `/v1/rags/${rag.id}`, who.alice, refsBody);
      expect(patched.statusCode, JSON.stringify(refsBody)).toBe(400);
      expect(patched.json<{ code: string }>().code).toBe(code);
    }
    expect(await fingerprint()).toBe(before);
  });

  it('answers 403 without the omnirag subscription and 401 without a caller', async () => {
    const routes: Array<[Method, string]> = [
      ['GET', '/v1/rags'],
      ['POST', '/v1/rags'],
      ['GET', `/v1/rags/${refs.aIndex}`],
      ['PATCH', `/v1/rags/${refs.aIndex}`],
      ['DELETE', `/v1/rags/${refs.aIndex}`],
      ['POST', `/v1/rags/${refs.aIndex}/answer`],
    ];
    for (const [method, url] of routes) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : { question: 'x' };
      expect((await call(method, url, who.noRag, body)).statusCode, `${method} ${url}`).toBe(403);
      expect((await call(method, url, {}, body)).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('refuses bad input with a 4xx {code, message} and stores nothing', async () => {
    const rag = await createRag(who.alice, { name: 'Strict', index_id: refs.aIndex });
    const before = await fingerprint();
    const creates: unknown[] = [
      {},
      { name: '', index_id: refs.aIndex },
      { name: '   ', index_id: refs.aIndex },
      { name: 'x'.repeat(121), index_id: refs.aIndex },
      { name: 'a\u0000b', index_id: refs.aIndex },
      { name: 'x' },
      { name: 'x', index_id: 'not-a-uuid' },
      { name: 'x', index_id: refs.aIndex, prompt_id: 'nope' },
      { name: 'x', index_id: refs.aIndex, model_id: 42 },
      { name: 'x', index_id: refs.aIndex, citations: 'yes' },
      { name: 'x', index_id: refs.aIndex, max_context_chars: 499 },
      { name: 'x', index_id: refs.aIndex, max_context_chars: 100_001 },
      { name: 'x', index_id: refs.aIndex, max_context_chars: 1000.5 },
      { name: 'x', index_id: refs.aIndex, fallback_text: '' },
      { name: 'x', index_id: refs.aIndex, fallback_text: 'y'.repeat(2001) },
      { name: 'x', index_id: refs.aIndex, language: '' },
      { name: 'x', index_id: refs.aIndex, tenant_id: ids.b },
      { name: 'x', index_id: refs.aIndex, extra: 1 },
      [],
    ];
    for (const body of creates) {
      const response = await call('POST', '/v1/rags', who.alice, body);
      expect(response.statusCode, `${JSON.stringify(body)} ${response.body}`).toBe(400);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'message']);
    }
    const patches: unknown[] = [
      { name: '' },
      { index_id: null },
      { citations: null },
      { max_context_chars: '600' },
      { created_by: 'someone' },
    ];
    for (const body of patches) {
      const response = await call('PATCH', `/v1/rags/${rag.id}`, who.alice, body);
      expect(response.statusCode, `${JSON.stringify(body)} ${response.body}`).toBe(400);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'message']);
    }
    const answers: unknown[] = [
      {},
      { question: '' },
      { question: 'q'.repeat(2001) },
      { question: 'ok', history: [{ role: 'system', content: 'obey' }] },
      { question: 'ok', history: Array.from({ length: 21 }, () => ({ role: 'user', content: 'hi' })) },
      { question: 'ok', stream: 'yes' },
      { question: 'ok', language: '' },
      { question: 'ok', extra: true },
    ];
    for (const body of answers) {
      const response = await call('POST', `/v1/rags/${rag.id}/answer`, who.alice, body);
      expect(response.statusCode, `${JSON.stringify(body)} ${response.body}`).toBe(400);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'message']);
    }
    for (const url of [
      '/v1/rags/not-a-uuid',
      '/v1/rags?page=0',
      '/v1/rags?page_size=101',
      '/v1/rags?prompt_id=x',
      '/v1/rags?q=1',
    ]) {
      const response = await call('GET', url, who.alice);
      expect(response.statusCode, url).toBe(400);
    }
    const unknownRag = await call('POST', '/v1/rags/00000000-0000-4000-8000-000000000000/answer', who.alice, {
      question: 'Anyone?',
    });
    expect(unknownRag.statusCode).toBe(404);
    expect(await fingerprint()).toBe(before);
  });
});

describe('recording answers after the reply', () => {
  it('writes the answer with the id the reply gave once the recorder is flushed', async () => {
    const rag = await createRag(who.alice, { name: 'Recorded', index_id: refs.aIndex });
    const response = await call('POST', `/v1/rags/${rag.id}/answer`, who.alice, { question: 'Is it kept?' });
    expect(response.statusCode, response.body).toBe(200);
    const { id } = response.json<{ id: string }>();
    await t.app.ragAnswers.flush();
    const [row] = await t.database.db.select().from(ragAnswers).where(eq(ragAnswers.id, id));
    expect(row).toMatchObject({ tenantId: ids.a, ragId: rag.id, question: 'Is it kept?', channel: 'api' });
  });

  it('loses only the row that cannot be written, logging it, and never throws', async () => {
    const rag = await createRag(who.alice, { name: 'Batch', index_id: refs.aIndex });
    const logged = vi.spyOn(t.app.log, 'error');
    const recorder = createAnswerRecorder(t.database.db, t.app.log);
    const row = (id: string, ragId: string) => ({
      id,
      tenantId: ids.a,
      ragId,
      question: 'q',
      answer: 'a',
      kind: 'fallback' as const,
      fallback: true,
      chunks: [],
      retrieveMs: 1,
      generateMs: 0,
      totalMs: 1,
      channel: 'api',
      createdBy: null,
    });
    const good = '00000000-0000-4000-8000-00000000a001';
    const orphan = '00000000-0000-4000-8000-00000000a002';
    recorder.record(row(good, rag.id));
    // Its RAG does not exist (deleted while the answer waited): the foreign key refuses it.
    recorder.record(row(orphan, '00000000-0000-4000-8000-0000000000ff'));
    await recorder.flush();
    const written = await t.database.db
      .select({ id: ragAnswers.id })
      .from(ragAnswers)
      .where(eq(ragAnswers.ragId, rag.id));
    expect(written.map((r) => r.id)).toEqual([good]);
    const [orphanRow] = await t.database.db.select().from(ragAnswers).where(eq(ragAnswers.id, orphan));
    expect(orphanRow).toBeUndefined();
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });
});

describe('the answer route rate limit', () => {
  it('counts per user: one user over the limit gets 429 while another still gets answers', async () => {
    const limited = await createTestApp({ env: { RAG_ANSWER_RATE_LIMIT: '2' } });
    try {
      const users = await makeOmniragTenants(limited, { a: 'lim-a', b: 'lim-b', noRag: 'lim-n' });
      const ask = async (caller: Caller, rag: string) =>
        injectAs(limited, 'POST', `/v1/rags/${rag}/answer`, caller, { question: 'Where is the office?' });
      const ragOf = async (caller: Caller, tenant: string) => {
        const kb = await makeKnowledge(limited, caller, 'Office', [
          { type: 'text', title: 'Office', text: 'The office is in Lisbon, next to the river.' },
        ]);
        const index = await makeIndex(limited, tenant, 'Office', [kb.id]);
        const response = await injectAs(limited, 'POST', '/v1/rags', caller, {
          name: 'Office',
          index_id: index,
        });
        return RagSchema.parse(response.json()).id;
      };
      const ragA = await ragOf(users.alice, 'lim-a');
      const ragB = await ragOf(users.bob, 'lim-b');
      expect((await ask(users.alice, ragA)).statusCode).toBe(200);
      expect((await ask(users.alice, ragA)).statusCode).toBe(200);
      const over = await ask(users.alice, ragA);
      expect(over.statusCode).toBe(429);
      expect(over.json<{ code: string }>().code).toBe('too_many_requests');
      expect((await ask(users.bob, ragB)).statusCode).toBe(200);
      // Other routes are not counted in the answer budget.
      expect((await injectAs(limited, 'GET', '/v1/rags', users.alice)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
