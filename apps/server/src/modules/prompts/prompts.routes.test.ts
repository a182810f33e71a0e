import {
  PromptListSchema,
  PromptPreviewSchema,
  PromptSchema,
  PromptVersionListSchema,
  PromptVersionSchema,
} from '@omnibot/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client';
import { auditLog } from '../../db/schema';
import { type Caller, createTestApp, injectAs, tablesFingerprint, type TestApp } from '../../test/app';
import { makeOmniragTenants } from '../accounts/accounts.fixtures';
import { basicCredential } from '../files/files.test-support';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Auth = Caller;

let t: TestApp;
const who: Record<'alice' | 'bob' | 'noRag', Auth> = { alice: {}, bob: {}, noRag: {} };
let credential: Auth;
const ids = { a: 'prm-a', b: 'prm-b', noRag: 'prm-norag' };

const call = (method: Method, url: string, auth: Auth, payload?: unknown) =>
  injectAs(t, method, url, auth, payload);

async function create(auth: Auth, body: Record<string, unknown>) {
  const response = await call('POST', '/v1/prompts', auth, body);
  expect(response.statusCode, response.body).toBe(201);
  return PromptSchema.parse(response.json());
}

/** A digest of every table the prompt routes write: equal digests mean nothing changed. */
const fingerprint = (): Promise<string> => tablesFingerprint(t, ['prompts', 'prompt_versions', 'audit_log']);

beforeAll(async () => {
  t = await createTestApp();
  Object.assign(who, await makeOmniragTenants(t, ids));
  credential = { authorization: await basicCredential(t, ids.a) };
});
afterAll(async () => {
  await t.close();
});

describe('prompts CRUD and versions', () => {
  it('creates, reads, lists with search, renames and deletes a prompt', async () => {
    const created = await create(who.alice, {
      name: ' Support answers ',
      description: 'For the help desk',
      template: 'Answer {{ question }} from {{context}}',
    });
    expect(created).toMatchObject({
      tenant_id: ids.a,
      name: 'Support answers',
      description: 'For the help desk',
      current_version: 1,
      template: 'Answer {{ question }} from {{context}}',
      variables: ['question', 'context'],
    });
    await create(who.alice, { name: 'Sales', template: '{{question}}' });

    const got = await call('GET', `/v1/prompts/${created.id}`, who.alice);
    expect(PromptSchema.parse(got.json())).toEqual(created);

    const all = PromptListSchema.parse((await call('GET', '/v1/prompts', who.alice)).json());
    expect(all.items.map((item) => item.name)).toEqual(['Sales', 'Support answers']);
    expect(all.total).toBe(2);
    const found = PromptListSchema.parse(
      (await call('GET', '/v1/prompts?q=help%20desk&page=1&page_size=10', who.alice)).json(),
    );
    expect(found.items.map((item) => item.name)).toEqual(['Support answers']);
    // `%` and `_` are matched literally, not as LIKE wildcards.
    for (const q of ['%25', '_']) {
      const literal = PromptListSchema.parse((await call('GET', `/v1/prompts?q=${q}`, who.alice)).json());
      expect(literal.total, q).toBe(0);
    }
    const paged = PromptListSchema.parse(
      (await call('GET', '/v1/prompts?page=2&page_size=1', who.alice)).json(),
    );
    expect(paged.items.map((item) => item.name)).toEqual(['Support answers']);
    expect(paged.total).toBe(2);

    const renamed = await call('PATCH', `/v1/prompts/${created.id}`, who.alice, { name: 'Help desk' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(PromptSchema.parse(renamed.json())).toMatchObject({ name: 'Help desk', current_version: 1 });

    const taken = await call('PATCH', `/v1/prompts/${created.id}`, who.alice, { name: 'Sales' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'prompt/name-taken' });
    const duplicate = await call('POST', '/v1/prompts', who.alice, { name: 'Sales', template: 'x' });
    expect(duplicate.statusCode).toBe(409);

    const deleted = await call('DELETE', `/v1/prompts/${created.id}`, who.alice);
    expect(deleted.statusCode).toBe(204);
    expect((await call('GET', `/v1/prompts/${created.id}`, who.alice)).statusCode).toBe(404);
    const versions = rowsOf<{ n: string }>(
      await t.database.db.execute(
        sql`select count(*)::text as n from prompt_versions where prompt_id = ${created.id}`,
      ),
    );
    expect(versions[0]?.n).toBe('0');
    const actions = await t.database.db
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.target, created.id));
    expect(actions.map((row) => row.action).sort()).toEqual([
      'prompt.create',
      'prompt.delete',
      'prompt.update',
    ]);
  });

  it('saves a changed template as a new version, an unchanged one as none, and restores an old one', async () => {
    const prompt = await create(who.alice, { name: 'Versioned', template: 'one {{question}}' });
    const same = await call('PATCH', `/v1/prompts/${prompt.id}`, who.alice, { template: 'one {{question}}' });
    expect(PromptSchema.parse(same.json()).current_version).toBe(1);

    const second = await call('PATCH', `/v1/prompts/${prompt.id}`, who.alice, {
      template: 'two {{question}} in {{language}}',
      description: 'changed',
    });
    expect(PromptSchema.parse(second.json())).toMatchObject({
      current_version: 2,
      description: 'changed',
      template: 'two {{question}} in {{language}}',
      variables: ['question', 'language'],
    });

    const list = PromptVersionListSchema.parse(
      (await call('GET', `/v1/prompts/${prompt.id}/versions`, who.alice)).json(),
    );
    expect(list.current_version).toBe(2);
    expect(list.items.map((item) => item.version)).toEqual([2, 1]);
    const v1 = PromptVersionSchema.parse(
      (await call('GET', `/v1/prompts/${prompt.id}/versions/1`, who.alice)).json(),
    );
    expect(v1).toMatchObject({ version: 1, prompt_id: prompt.id, template: 'one {{question}}' });
    expect((await call('GET', `/v1/prompts/${prompt.id}/versions/9`, who.alice)).statusCode).toBe(404);
    expect((await call('GET', `/v1/prompts/${prompt.id}/versions/abc`, who.alice)).statusCode).toBe(400);

    const restored = await call('POST', `/v1/prompts/${prompt.id}/versions/1/restore`, who.alice);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(PromptSchema.parse(restored.json())).toMatchObject({
      current_version: 3,
      template: 'one {{question}}',
    });
    const current = PromptSchema.parse((await call('GET', `/v1/prompts/${prompt.id}`, who.alice)).json());
    expect(current).toMatchObject({ current_version: 3, template: 'one {{question}}' });
    const after = PromptVersionListSchema.parse(
      (await call('GET', `/v1/prompts/${prompt.id}/versions`, who.alice)).json(),
    );
    expect(after.items.map((item) => item.version)).toEqual([3, 2, 1]);
    const audit = await t.database.db
      .select({ action: auditLog.action, details: auditLog.details })
      .from(auditLog)
      .where(eq(auditLog.action, 'prompt.restore'));
    expect(audit).toEqual([{ action: 'prompt.restore', details: { from_version: 1, version: 3 } }]);
  });

  it('renders a preview with sample values for the variables not given', async () => {
    const response = await call('POST', '/v1/prompts/preview', who.alice, {
      template: 'Q: {{question}} / {{ bot_name }}',
      values: { question: 'Where?' },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(PromptPreviewSchema.parse(response.json())).toEqual({
      rendered: 'Q: Where? / Omnibot',
      variables: ['question', 'bot_name'],
    });
  });
});

describe('prompts refuse bad input and store nothing', () => {
  it('refuses an unknown variable with its name, on create, update and preview', async () => {
    const prompt = await create(who.alice, { name: 'Strict', template: '{{question}}' });
    const before = await fingerprint();
    const cases: Array<[Method, string, unknown]> = [
      ['POST', '/v1/prompts', { name: 'Bad', template: 'Hi {{customer}}' }],
      ['PATCH', `/v1/prompts/${prompt.id}`, { template: 'Hi {{customer}}' }],
      ['POST', '/v1/prompts/preview', { template: 'Hi {{customer}}' }],
    ];
    for (const [method, url, body] of cases) {
      const response = await call(method, url, who.alice, body);
      expect(response.statusCode, url).toBe(400);
      expect(response.json()).toEqual({
        code: 'invalid_argument',
        message:
          'body.template: Unknown variable {{customer}}; use question, context, history, language or bot_name.',
      });
    }
    const malformed = await call('POST', '/v1/prompts', who.alice, {
      name: 'Bad',
      template: 'Hi {{question',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json<{ message: string }>().message).toContain('{{question');
    for (const body of [
      { name: '', template: 'x' },
      { name: 'x'.repeat(121), template: 'x' },
      { name: 'Big', template: 'x'.repeat(20_001) },
      { name: 'Extra', template: 'x', owner: 'me' },
      { name: 'Nul\u0000', template: 'x' },
    ]) {
      expect((await call('POST', '/v1/prompts', who.alice, body)).statusCode).toBe(400);
    }
    expect(await fingerprint()).toBe(before);
  });
});

describe('prompts access', () => {
  it("answers 404 on every route for another tenant's prompt and changes nothing", async () => {
    const prompt = await create(who.alice, { name: 'Private', template: '{{question}}' });
    const before = await fingerprint();
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', `/v1/prompts/${prompt.id}`],
      ['PATCH', `/v1/prompts/${prompt.id}`, { name: 'Stolen', template: 'x {{question}}' }],
      ['DELETE', `/v1/prompts/${prompt.id}`],
      ['GET', `/v1/prompts/${prompt.id}/versions`],
      ['GET', `/v1/prompts/${prompt.id}/versions/1`],
      ['POST', `/v1/prompts/${prompt.id}/versions/1/restore`],
    ];
    for (const [method, url, body] of routes) {
      const response = await call(method, url, who.bob, body);
      expect(response.statusCode, `${method} ${url}`).toBe(404);
      expect(response.json()).toMatchObject({ code: 'not_found' });
    }
    const list = PromptListSchema.parse((await call('GET', '/v1/prompts?q=Private', who.bob)).json());
    expect(list.items).toEqual([]);
    expect(await fingerprint()).toBe(before);
  });

  it('answers 403 without the omnirag feature and 401 without a principal', async () => {
    const routes: Array<[Method, string, unknown?]> = [
      ['GET', '/v1/prompts'],
      ['POST', '/v1/prompts', { name: 'N', template: 'x' }],
      ['POST', '/v1/prompts/preview', { template: 'x' }],
      ['GET', '/v1/prompts/00000000-0000-4000-8000-000000000000'],
      ['PATCH', '/v1/prompts/00000000-0000-4000-8000-000000000000', { name: 'N' }],
      ['DELETE', '/v1/prompts/00000000-0000-4000-8000-000000000000'],
      ['GET', '/v1/prompts/00000000-0000-4000-8000-000000000000/versions'],
      ['GET', '/v1/prompts/00000000-0000-4000-8000-000000000000/versions/1'],
      ['POST', '/v1/prompts/00000000-0000-4000-8000-000000000000/versions/1/restore'],
    ];
    const before = await fingerprint();
    for (const [method, url, body] of routes) {
      const forbidden = await call(method, url, who.noRag, body);
      expect(forbidden.statusCode, `${method} ${url}`).toBe(403);
      expect(forbidden.json()).toMatchObject({ code: 'forbidden' });
      expect((await call(method, url, {}, body)).statusCode, `${method} ${url}`).toBe(401);
    }
    expect(await fingerprint()).toBe(before);
  });

  it("works with the tenant's API credential, in the credential's tenant", async () => {
    const prompt = await create(credential, { name: 'From the API', template: '{{question}}' });
    expect(prompt.tenant_id).toBe(ids.a);
    const seen = PromptListSchema.parse((await call('GET', '/v1/prompts?q=API', who.alice)).json());
    expect(seen.items.map((item) => item.id)).toEqual([prompt.id]);
    const updated = await call('PATCH', `/v1/prompts/${prompt.id}`, credential, {
      template: 'v2 {{question}}',
    });
    expect(PromptSchema.parse(updated.json()).current_version).toBe(2);
  });
});
