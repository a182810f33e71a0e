import { FILES_UPLOAD_PATH } from '@omnibot/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botTestRuns, subscriptions, users } from './db/schema';
import {
  fingerprint,
  makeTenant,
  makeUser,
  platformTenantId,
  routeTable,
} from './modules/accounts/accounts.fixtures';
import {
  BACKENDS,
  createFilesWorld,
  type FilesWorld,
  injectUpload,
} from './modules/files/files.test-support';
import { insertConversation } from './modules/dashboard/dashboard.test-support';
import {
  sessionCookie,
  STRONG_PASSWORD,
  tablesFingerprint,
  TEST_ADMIN_PASSWORD,
  TEST_ORIGIN,
} from './test/app';

/*
 * Hostile text on every route the server has (accounts, files, tus uploads, session, /api/auth/*, health, docs):
 * NUL, unpaired surrogates, deep nesting, huge numbers, crafted cursors, malformed and over-long query strings.
 * Every probe must answer 4xx with exactly { code, message } (never 5xx) and change no row anywhere.
 */

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
interface Probe {
  kind: string;
  method: Method;
  url: string;
  /** Raw JSON text (sent as application/json). */
  json?: string;
  headers?: Record<string, string>;
}
interface Target {
  method: Method;
  url: string;
  /** A valid body whose first string value the body probes replace with hostile JSON literals. */
  sample?: Record<string, unknown>;
  cookie?: string;
  headers?: Record<string, string>;
}

const HOLE = '@@hole@@';
const HUNDRED_KB = 'q'.repeat(100 * 1024);
const ONE_MB = 'm'.repeat(1024 * 1024 + 10);

/** The sample as JSON text with its first string value replaced by `literal` (raw JSON, escapes kept). */
function withLiteral(sample: Record<string, unknown>, literal: string): string {
  let placed = false;
  const text = JSON.stringify(sample, (_key, value: unknown) => {
    if (!placed && typeof value === 'string') {
      placed = true;
      return HOLE;
    }
    return value;
  });
  return placed ? text.replace(JSON.stringify(HOLE), literal) : `{"name":${literal}}`;
}

const b64 = (text: string) => Buffer.from(text).toString('base64url');

/** Cursors the server never wrote: NUL or a lone surrogate inside, wrong shape, too long, not base64 or JSON. */
const CRAFTED_CURSORS = [
  b64('{"k":"f","n":"a\\u0000b"}'),
  b64('{"k":"d","n":"\\ud800"}'),
  b64('{"k":"f","n":"\u0000"}'),
  b64(`{"k":"f","n":"${'z'.repeat(1100)}"}`),
  b64('{"k":"x","n":null}'),
  b64('{"k":"f","n":null,"extra":1}'),
  b64('[]'),
  b64('1e400'),
  b64(`{"k":"f","n":${'['.repeat(500)}}`),
  Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64url'),
  'not a cursor!',
];

function probesFor(target: Target): Probe[] {
  const { method, url } = target;
  const sep = url.includes('?') ? '&' : '?';
  const probes: Probe[] = [];
  const add = (kind: string, probe: Omit<Probe, 'kind' | 'method'>) =>
    probes.push({ kind, method, ...probe });
  add('bad %-escape in query', { url: `${url}${sep}q=%ZZ` });
  add('invalid UTF-8 in query', { url: `${url}${sep}q=%C3%28` });
  add('NUL', { url: `${url}${sep}q=a%00b` });
  add('lone surrogate', { url: `${url}${sep}q=%ED%A0%80` });
  add('over-long query (100 kB)', { url: `${url}${sep}q=${HUNDRED_KB}` });
  const numeric =
    ['/v1/files', '/v1/Account/hx-client/User'].includes(url) || url.endsWith('/conversations')
      ? 'page_size'
      : url.endsWith('/stats')
        ? 'days'
        : null;
  const download = url === '/v1/files/download' ? 'tenant=x&path=a.txt&signature=s&expires' : null;
  for (const literal of ['1e400', '18446744073709551616', '-0']) {
    const field = numeric ?? download;
    if (method === 'GET' && field) add('huge number', { url: `${url}${sep}${field}=${literal}` });
  }
  if (method === 'GET' && url === '/v1/files') {
    for (const cursor of CRAFTED_CURSORS)
      add('bad cursor', { url: `${url}?cursor=${encodeURIComponent(cursor)}` });
  }
  if (method === 'GET' || method === 'OPTIONS') return probes;
  const sample = target.sample ?? {};
  add('NUL', { url, json: withLiteral(sample, '"a\\u0000b"') });
  add('lone surrogate', { url, json: withLiteral(sample, '"x\\ud800"') });
  add('lone surrogate', { url, json: withLiteral(sample, '"\\udc00y"') });
  add('lone surrogate', { url, json: `{"\\ud800":1,"name":"x"}` });
  add('deep nesting', { url, json: '['.repeat(20_000) });
  add('deep nesting', { url, json: `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}` });
  add('oversized body (1 MB)', { url, json: withLiteral(sample, JSON.stringify(ONE_MB)) });
  add('huge number', { url, json: withLiteral(sample, '1e400') });
  add('huge number', { url, json: withLiteral(sample, '18446744073709551616') });
  add('huge number', { url, json: withLiteral(sample, '-0') });
  return probes;
}

describe.each(BACKENDS.slice(0, 1))('hostile input on every route ($name storage)', (backend) => {
  let w: FilesWorld;
  let master: string;
  let ids: {
    subscription: string;
    user: string;
    file: string;
    bot: string;
    botCase: string;
    run: string;
    masterBot: string;
    conversation: string;
    template: string;
    integration: string;
  };

  const FILE_TABLES = [
    'files',
    'folders',
    'file_uploads',
    'rate_limit_events',
    'bots',
    'conversations',
    'conversation_messages',
    'message_feedback',
    'bot_test_cases',
    'bot_test_runs',
    'rag_answers',
    'bot_templates',
    'integrations',
    'bot_origins',
  ];
  const everything = async () => `${await fingerprint(w.t)},${await tablesFingerprint(w.t, FILE_TABLES)}`;

  beforeAll(async () => {
    w = await createFilesWorld(backend);
    master = await sessionCookie(w.t, 'admin@example.com', TEST_ADMIN_PASSWORD);
    await makeTenant(w.t, {
      tenantId: 'hx-partner',
      parent: await platformTenantId(w.t),
      type: '2',
      domain: 'partner.hx.test',
      codes: ['subtenant', 'omnirag'],
    });
    await makeTenant(w.t, { tenantId: 'hx-client', parent: w.tenantA, type: '3', domain: 'client.hx.test' });
    const user = await makeUser(w.t, 'hx-client', 'victim@client.hx.test', 'user');
    const [sub] = await w.t.database.db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, 'hx-client'));
    const file = await injectUpload(w.t, w.alice, 'notes.txt', Buffer.from('hello'), 'docs');
    if (!sub) throw new Error('the client tenant has no subscription');
    // A bot of the master's tenant with one conversation, so the dashboard routes are probed past their ids.
    const made = await w.t.app.inject({
      method: 'POST',
      url: '/v1/bots',
      headers: { cookie: master },
      payload: { name: 'Probed' },
    });
    const masterBot = made.json<{ id: string }>().id;
    const conversation = await insertConversation(w.t, {
      tenantId: await platformTenantId(w.t),
      botId: masterBot,
      startedAt: new Date(),
      messages: [
        { role: 'visitor', text: 'Hello' },
        { role: 'bot', text: 'Hi', feedback: { rating: 'button1' } },
      ],
    });
    // A bot of alice's tenant with a test case and a finished run, so the bot testing routes are probed with real ids.
    const bot = await w.t.app.inject({
      method: 'POST',
      url: '/v1/bots',
      headers: { cookie: w.alice },
      payload: { name: 'Probed' },
    });
    const botId = bot.json<{ id: string }>().id;
    const botCase = await w.t.app.inject({
      method: 'POST',
      url: `/v1/bots/${botId}/test-cases`,
      headers: { cookie: w.alice },
      payload: { question: 'Hello?', expected_text: 'Hi' },
    });
    const [run] = await w.t.database.db
      .insert(botTestRuns)
      .values({ tenantId: w.tenantA, botId, status: 'done', total: 1, passed: 1 })
      .returning({ id: botTestRuns.id });
    if (bot.statusCode !== 201 || botCase.statusCode !== 201 || !run)
      throw new Error('the probed bot was not made');
    const created = async (url: string, payload: Record<string, unknown>) => {
      const response = await w.t.app.inject({ method: 'POST', url, headers: { cookie: master }, payload });
      if (response.statusCode !== 201) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
      return response.json<{ id: string }>().id;
    };
    // A template and an integration of the master's tenant, so their routes are probed past their ids.
    const template = await created('/v1/bot-templates', { name: 'Hostile target look', bot_id: masterBot });
    const integration = await created('/v1/integrations', {
      name: 'Hostile target engine',
      engine: 'openai',
      settings: { base_url: 'http://127.0.0.1:9/v1', model: 'm' },
    });
    ids = {
      subscription: sub.id,
      user: user.id,
      file,
      bot: botId,
      botCase: botCase.json<{ id: string }>().id,
      run: run.id,
      masterBot,
      conversation: conversation.id,
      template,
      integration,
    };
  });
  afterAll(() => w.close());

  /** Every served route (the route table) plus each reachable /api/auth endpoint, with a caller and a sample body. */
  function targets(): Target[] {
    const list: Target[] = [];
    const upload = `${FILES_UPLOAD_PATH}/${'0'.repeat(32)}`;
    for (const { method, url } of routeTable(w.t)) {
      const m = method as Method;
      if (url.startsWith('/v1/Account')) {
        const path = url
          .replace('/v1/Account/:p', '/v1/Account/hx-client')
          .replace('/Subscription/:p', `/Subscription/${ids.subscription}`)
          .replace('/User/:p', `/User/${ids.user}`);
        const samples: Record<string, Record<string, unknown>> = {
          'POST /v1/Account': { name: 'New', subscriptions: ['omnirag'] },
          'PUT /v1/Account/:p': { name: 'Renamed', address: { city: 'Lisbon' }, info: {} },
          'POST /v1/Account/:p/Subscription': { info: { code: 'omnirag' } },
          'PUT /v1/Account/:p/Subscription/:p': { status: 'active' },
          'POST /v1/Account/:p/User': { email: 'new@client.hx.test', role: 'user' },
          'PUT /v1/Account/:p/User/:p': { info: { firstname: 'Ann' } },
        };
        list.push({
          method: m,
          url: path,
          sample: samples[`${method} ${url}`],
          cookie: master,
          headers: { 'x-app-id': 'omnibot-console' },
        });
      } else if (url.startsWith('/v1/files/upload')) {
        list.push({ method: m, url: url.endsWith('*') ? upload : FILES_UPLOAD_PATH, cookie: w.alice });
      } else if (url.startsWith('/v1/files')) {
        const samples: Record<string, Record<string, unknown>> = {
          'PATCH /v1/files': { path: ids.file, name: 'renamed.txt' },
          'POST /v1/files/move': { path: ids.file, folder: 'elsewhere' },
          'POST /v1/files/folders': { path: 'new-folder' },
          'PATCH /v1/files/folders': { path: 'docs', name: 'papers' },
        };
        const query = method === 'DELETE' || url === '/v1/files/object' ? `?path=${ids.file}` : '';
        list.push({ method: m, url: `${url}${query}`, sample: samples[`${method} ${url}`], cookie: w.alice });
      } else if (url === '/v1/bots/:p/stats' || url === '/v1/bots/:p/conversations') {
        list.push({ method: m, url: url.replace(':p', ids.masterBot), cookie: master });
      } else if (url === '/v1/conversations/:p') {
        list.push({ method: m, url: `/v1/conversations/${ids.conversation}`, cookie: master });
      } else if (url.startsWith('/v1/bots/:p/') || url === '/v1/test-runs/:p') {
        const path = url
          .replace('/v1/bots/:p', `/v1/bots/${ids.bot}`)
          .replace('/test-cases/:p', `/test-cases/${ids.botCase}`)
          .replace('/v1/test-runs/:p', `/v1/test-runs/${ids.run}`);
        const samples: Record<string, Record<string, unknown>> = {
          'POST /v1/bots/:p/chat': { text: 'Hello', history: [{ role: 'user', text: 'Hi' }] },
          'POST /v1/bots/:p/test-cases': { question: 'Where?', expected_text: 'Here' },
          'PATCH /v1/bots/:p/test-cases/:p': { question: 'Where now?' },
        };
        list.push({ method: m, url: path, sample: samples[`${method} ${url}`], cookie: w.alice });
      } else if (url === '/v1/bots' && method === 'POST') {
        const sample = { name: 'Hostile', config: { identity: { displayName: 'Probe' } } };
        list.push({ method: m, url, sample, cookie: master });
      } else if (url.startsWith('/v1/bot-templates') || url.startsWith('/v1/integrations')) {
        // Real ids where the path names one, so the body probes reach body validation.
        const path = url
          .replace('/v1/bot-templates/:p', `/v1/bot-templates/${ids.template}`)
          .replace('/v1/integrations/:p', `/v1/integrations/${ids.integration}`);
        const samples: Record<string, Record<string, unknown>> = {
          'POST /v1/bot-templates': { name: 'Hostile look', bot_id: ids.masterBot },
          'PATCH /v1/bot-templates/:p': { name: 'Renamed look' },
          'POST /v1/bot-templates/:p/bots': { name: 'Hostile bot' },
          'POST /v1/integrations': {
            name: 'Hostile engine',
            engine: 'openai',
            settings: { base_url: 'http://127.0.0.1:9/v1', model: 'm' },
          },
          'PATCH /v1/integrations/:p': { name: 'Renamed engine' },
          'POST /v1/integrations/test': {
            engine: 'openai',
            settings: { base_url: 'http://127.0.0.1:9/v1', model: 'm' },
          },
        };
        list.push({ method: m, url: path, sample: samples[`${method} ${url}`], cookie: master });
      } else if ((url === '/v1/intent' || url === '/v1/feedback') && method === 'POST') {
        // The visitor routes are public: probed without a session, with a well-formed body around each hole.
        const bot = '00000000-0000-4000-8000-000000000000';
        const samples: Record<string, Record<string, unknown>> = {
          '/v1/intent': { text: 'hello', botId: bot, language: 'en' },
          '/v1/feedback': {
            comment: 'fine',
            botId: bot,
            conversationToken: 'c1.x.y',
            messageId: bot,
            rating: 'button1',
          },
        };
        list.push({ method: m, url, sample: samples[url] });
      } else if (url === '/v1/me/password') {
        list.push({
          method: m,
          url,
          sample: { currentPassword: 'x', newPassword: STRONG_PASSWORD },
          cookie: master,
        });
      } else {
        list.push({ method: m, url: url === '*' ? '/v1/anything' : url.replace('*', 'x'), cookie: master });
      }
    }
    const auth = (method: Method, url: string, sample?: Record<string, unknown>) =>
      list.push({ method, url: `/api/auth${url}`, sample, headers: { origin: TEST_ORIGIN } });
    auth('POST', '/sign-in/email', { email: 'admin@example.com', password: 'not-the-password' });
    auth('POST', '/sign-up/email', {
      email: 'newcomer@example.com',
      password: STRONG_PASSWORD,
      name: 'Newcomer',
      callbackURL: '/login',
    });
    auth('POST', '/sign-out', {});
    auth('GET', '/get-session');
    auth('GET', '/verify-email?token=abc');
    auth('POST', '/send-verification-email', { email: 'admin@example.com', callbackURL: '/login' });
    auth('POST', '/request-password-reset', {
      email: 'admin@example.com',
      redirectTo: `${w.t.env.PUBLIC_URL}/reset-password`,
    });
    auth('POST', '/reset-password', { token: 'abc', newPassword: STRONG_PASSWORD });
    auth('GET', '/reset-password/abc?callbackURL=%2Freset-password');
    return list;
  }

  async function send(target: Target, probe: Probe) {
    return w.t.app.inject({
      method: probe.method,
      url: probe.url,
      headers: {
        ...(target.cookie ? { cookie: target.cookie } : {}),
        ...target.headers,
        ...probe.headers,
        ...(probe.json === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(probe.json === undefined ? {} : { payload: probe.json }),
    });
  }

  // Every route times every probe class: it grows with the API, so it gets more than the default time.
  it(
    'refuses every class on every route with 4xx { code, message }, never 5xx, storing nothing',
    { timeout: 90_000 },
    async () => {
      const all = targets();
      expect(all.length).toBeGreaterThan(55);
      const byClass = new Map<string, { n: number; answers: Map<string, number> }>();
      const failures: string[] = [];
      let before = await everything();
      for (const target of all) {
        for (const probe of probesFor(target)) {
          const response = await send(target, probe);
          const label = `${probe.method} ${probe.url.slice(0, 80)} [${probe.kind}]: ${response.statusCode} ${response.body.slice(0, 120)}`;
          let body: Record<string, unknown> = {};
          try {
            const parsed: unknown = response.json();
            if (parsed !== null && typeof parsed === 'object') body = parsed as Record<string, unknown>;
          } catch {
            failures.push(`${label} (not JSON)`);
          }
          const shaped =
            Object.keys(body).sort().join(',') === 'code,message' &&
            typeof body.code === 'string' &&
            typeof body.message === 'string';
          if (response.statusCode < 400 || response.statusCode >= 500 || !shaped) failures.push(label);
          const entry = byClass.get(probe.kind) ?? { n: 0, answers: new Map<string, number>() };
          const answer = `${response.statusCode} ${String(body.code)}`;
          entry.n += 1;
          entry.answers.set(answer, (entry.answers.get(answer) ?? 0) + 1);
          byClass.set(probe.kind, entry);
        }
        const after = await everything();
        if (after !== before) failures.push(`${target.method} ${target.url}: a probe changed the database`);
        before = after;
      }
      const table = [...byClass.entries()].map(([kind, { n, answers }]) => ({
        class: kind,
        requests: n,
        answers: [...answers.entries()].map(([answer, count]) => `${answer} x${count}`).join(', '),
      }));
      console.log(
        `hostile input over ${all.length} routes; wrong answers or stored rejects: ${failures.length}`,
      );
      console.table(table);
      expect(failures).toEqual([]);
    },
  );

  it('names the defect: invalid_text, json_too_deep, invalid_url and uri_too_long', async () => {
    const cases: Array<[Target, Probe, number, string]> = [];
    const account = {
      method: 'POST' as const,
      url: '/v1/Account?tenant_id=hx-partner',
      cookie: master,
      headers: { 'x-app-id': 'omnibot-console' },
    };
    const probe = (method: Method, url: string, json?: string): Probe => ({
      kind: 'named',
      method,
      url,
      json,
    });
    cases.push([
      account,
      probe('POST', account.url, '{"name":"A\\u0000","subscriptions":["omnirag"]}'),
      400,
      'invalid_text',
    ]);
    cases.push([
      account,
      probe('POST', account.url, '{"name":"A\\ud800","subscriptions":["omnirag"]}'),
      400,
      'invalid_text',
    ]);
    cases.push([
      account,
      probe('POST', account.url, '{"name":"A","info":{"website":"\\udfff"},"subscriptions":["omnirag"]}'),
      400,
      'invalid_text',
    ]);
    cases.push([
      account,
      probe('POST', account.url, '{"name":"A","subscriptions":["omnirag"],"is_active":1e400}'),
      400,
      'invalid_number',
    ]);
    const search = { ...account, method: 'GET' as const, url: '/v1/Account/hx-client/User' };
    cases.push([search, probe('GET', `${search.url}?q=a%00b`, undefined), 400, 'invalid_text']);
    cases.push([search, probe('GET', `${search.url}?q=%ZZ`, undefined), 400, 'invalid_url']);
    cases.push([search, probe('GET', `${search.url}?q=${HUNDRED_KB}`, undefined), 414, 'uri_too_long']);
    const signOut = { method: 'POST' as const, url: '/api/auth/sign-out', headers: { origin: TEST_ORIGIN } };
    cases.push([signOut, probe('POST', signOut.url, '['.repeat(20_000)), 400, 'json_too_deep']);
    const reset = {
      method: 'POST' as const,
      url: '/api/auth/reset-password',
      headers: { origin: TEST_ORIGIN },
    };
    cases.push([
      reset,
      probe('POST', reset.url, `{"token":"a\\u0000","newPassword":"${STRONG_PASSWORD}"}`),
      400,
      'invalid_text',
    ]);
    const token = { method: 'GET' as const, url: '/api/auth/reset-password/a%00b' };
    cases.push([token, probe('GET', `${token.url}?callbackURL=%2Freset-password`), 400, 'invalid_text']);
    const byEmail = {
      ...account,
      method: 'GET' as const,
      url: '/v1/Account/hx-client/User/a%00b@client.hx.test',
    };
    cases.push([byEmail, probe('GET', `${byEmail.url}?type=email`), 400, 'invalid_text']);
    const log = { method: 'GET' as const, url: `/v1/bots/${ids.masterBot}/conversations`, cookie: master };
    cases.push([log, probe('GET', `${log.url}?q=a%00b`), 400, 'invalid_text']);
    cases.push([log, probe('GET', `${log.url}?q=${HUNDRED_KB}`), 414, 'uri_too_long']);
    const files = { method: 'GET' as const, url: '/v1/files', cookie: w.alice };
    cases.push([files, probe('GET', '/v1/files?path=%00', undefined), 400, 'invalid_text']);
    for (const [target, sent, status, code] of cases) {
      const response = await send(target, sent);
      expect({
        url: sent.url.slice(0, 60),
        status: response.statusCode,
        body: response.json<unknown>(),
      }).toEqual({
        url: sent.url.slice(0, 60),
        status,
        body: { code, message: expect.any(String) as string },
      });
    }
    // Nesting up to the limit is parsed (whatever the route then makes of it); one level more is refused.
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const atLimit = await send(signOut, probe('POST', signOut.url, nested(64)));
    expect(atLimit.statusCode).toBeLessThan(500);
    expect(atLimit.body).not.toContain('json_too_deep');
    const overLimit = await send(signOut, probe('POST', signOut.url, nested(65)));
    expect(overLimit.json()).toMatchObject({ code: 'json_too_deep' });
  });

  it('accepts unusual but valid text unchanged (accents, emoji as a surrogate pair, escaped or not)', async () => {
    const created = await w.t.app.inject({
      method: 'POST',
      url: '/v1/Account?tenant_id=hx-partner',
      headers: { cookie: master, 'x-app-id': 'omnibot-console', 'content-type': 'application/json' },
      payload: '{"name":"Ünï \\ud83d\\ude00 😀","address":{"city":"Zürich"},"subscriptions":["omnirag"]}',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json<{ account: { name: string } }>().account.name).toBe('Ünï 😀 😀');
    const searched = await w.t.app.inject({
      url: `/v1/Account/hx-client/User?q=${encodeURIComponent('Zürich 😀')}`,
      headers: { cookie: master, 'x-app-id': 'omnibot-console' },
    });
    expect(searched.statusCode).toBe(200);
    const [row] = await w.t.database.db.select().from(users).where(eq(users.id, ids.user));
    expect(row?.tenantId).toBe('hx-client');
  });

  it('refuses crafted cursors on GET /v1/files with 400, and follows the cursors it wrote', async () => {
    for (const name of ['a.txt', 'b.txt', 'c.txt'])
      await injectUpload(w.t, w.alice, name, Buffer.from(name), 'paged');
    const first = await w.t.app.inject({
      url: '/v1/files?path=paged&page_size=1',
      headers: { cookie: w.alice },
    });
    const cursor = first.json<{ next_cursor: string }>().next_cursor;
    const second = await w.t.app.inject({
      url: `/v1/files?path=paged&page_size=1&cursor=${cursor}`,
      headers: { cookie: w.alice },
    });
    expect(second.json<{ items: Array<{ name: string }> }>().items.map((item) => item.name)).toEqual([
      'b.txt',
    ]);

    const crafted = [...CRAFTED_CURSORS, `${cursor}==`, `${cursor}!`, '%ZZ'];
    let refused = 0;
    for (const raw of crafted) {
      const response = await w.t.app.inject({
        url: `/v1/files?path=paged&cursor=${raw.startsWith('%') ? raw : encodeURIComponent(raw)}`,
        headers: { cookie: w.alice },
      });
      expect([raw.slice(0, 40), response.statusCode]).toEqual([raw.slice(0, 40), 400]);
      expect(Object.keys(response.json<object>()).sort()).toEqual(['code', 'message']);
      refused += 1;
    }
    console.log(`crafted cursors refused with 400: ${refused}`);
  });

  it('refuses tus Upload-Metadata that is not text (invalid UTF-8, NUL, a lone surrogate) instead of altering it', async () => {
    const before = await everything();
    const values = [
      Buffer.from([0x61, 0xff, 0x62]),
      Buffer.from('a\u0000b.txt'),
      Buffer.from([0xed, 0xa0, 0x80]),
    ];
    for (const value of values) {
      for (const key of ['filename', 'folder']) {
        const metadata = { filename: Buffer.from('ok.txt'), folder: Buffer.from('docs'), [key]: value };
        const response = await w.t.app.inject({
          method: 'POST',
          url: FILES_UPLOAD_PATH,
          headers: {
            cookie: w.alice,
            'tus-resumable': '1.0.0',
            'upload-length': '5',
            'upload-metadata': Object.entries(metadata)
              .map(([name, bytes]) => `${name} ${bytes.toString('base64')}`)
              .join(','),
          },
        });
        expect([key, response.statusCode, response.json<unknown>()]).toEqual([
          key,
          400,
          { code: 'storage/invalid-argument', message: expect.stringMatching(/Upload-Metadata/) as string },
        ]);
      }
    }
    expect(await everything()).toBe(before);
  });

  it('answers an unsupported tus extension with 400 and the reason, and creates no upload', async () => {
    const before = await everything();
    const response = await w.t.app.inject({
      method: 'POST',
      url: FILES_UPLOAD_PATH,
      headers: {
        cookie: w.alice,
        'tus-resumable': '1.0.0',
        'upload-concat': 'partial',
        'upload-length': '5',
      },
    });
    expect(response.statusCode).toBe(400);
    const body = response.json<{ code: string; message: string }>();
    expect(body).toEqual({
      code: 'storage/invalid-argument',
      message: expect.stringMatching(/concatenation/i) as string,
    });
    expect(await everything()).toBe(before);
  });
});
