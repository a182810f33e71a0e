// Cloud bot engines against their local fakes: for each engine, p50/p95 of POST /v1/intent through the built
// server (PGlite) beside the fake's own latency measured directly from this process, in one run, turn by turn
// (each turn: one direct call to the fake, then one /v1/intent that makes the same call through the product), so
// both see the same machine. "Product adds" is, per turn, the /v1/intent time minus the direct call's; a bot with
// no engine (its fallback text) shows what storing a turn costs on its own. Budget: the product adds under 2 ms
// at p95 per turn beyond the turn's own storage. Prints figures; never part of `npm test`. Engines add a section.
//   npm run bench:engines -- [--turns 300] [--no-build]
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT } from '../scripts/lib/build.mjs';
import {
  accessToken,
  credentialsOf,
} from '../apps/server/src/modules/integrations/providers/dialogflow-cx.ts';
import { serviceAccountKeyFile } from '../apps/server/src/test/dialogflow-cx-server.ts';
import { call, clientTenant } from './lib/handbook.mjs';
import { startBuiltServer } from './lib/server.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const TURNS = Number(arg('turns', '300'));
const WARM_UP = 20;
/** Turns per conversation before a new one starts (the conversation's own history stays short). */
const TURNS_PER_CONVERSATION = 20;
const BUDGET_MS = 2;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Engines-Passw0rd-2026' };
const LIMITS = {
  RATE_LIMIT_MAX: '100000000',
  WIDGET_RATE_LIMIT_IP: '100000',
  WIDGET_RATE_LIMIT_CONVERSATION: '100000',
  FETCH_ALLOW_ADDRESSES: '127.0.0.1',
};
const SCRIPT = ['hello', 'my name is Ada', 'what is my name', 'where is my order', 'options', 'which agent'];

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const ms = (value) => value.toFixed(2).padStart(9);

async function timed(run) {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function post(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/**
 * Turn by turn, interleaved so all three see the same moment of the machine: `direct` (the fake called from here),
 * then the engine's bot through /v1/intent, then the bot without an engine through /v1/intent.
 */
async function interleaved(server, botId, plainId, turns, direct) {
  const run = { fake: [], intent: [], plain: [] };
  const tokens = { bot: undefined, plain: undefined };
  const ask = async (id, key, text) => {
    let reply;
    const took = await timed(async () => {
      reply = await post(`${server.url}/v1/intent`, {
        botId: id,
        text,
        language: 'en',
        ...(tokens[key] ? { conversationToken: tokens[key] } : {}),
      });
    });
    tokens[key] = reply.conversationToken;
    return took;
  };
  for (let turn = 0; turn < turns + WARM_UP; turn += 1) {
    if (turn % TURNS_PER_CONVERSATION === 0) Object.assign(tokens, { bot: undefined, plain: undefined });
    const text = SCRIPT[turn % SCRIPT.length];
    const fake = await timed(() => direct(text, turn));
    const intent = await ask(botId, 'bot', text);
    const plain = await ask(plainId, 'plain', text);
    if (turn >= WARM_UP) {
      run.fake.push(fake);
      run.intent.push(intent);
      run.plain.push(plain);
    }
  }
  return run;
}

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: path.join(ROOT, 'apps/server'),
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const work = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-engines-'));
const PROJECT = 'bench-project-01';
const AGENT_ID = '1111aaaa-0000-4000-8000-000000000001';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const email = 'bench@bench-project-01.iam.gserviceaccount.com';
// The fake runs in a process of its own: the direct calls cross a process boundary as the product's do.
const fakeProcess = spawn(
  process.execPath,
  [
    '--import',
    'tsx',
    path.join(ROOT, 'bench/lib/dialogflow-fake-process.mjs'),
    JSON.stringify({
      agent: { projectId: PROJECT, location: 'europe-west1', agentId: AGENT_ID, displayName: 'Bench agent' },
      account: { email, publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() },
    }),
  ],
  { stdio: ['pipe', 'pipe', 'inherit'] },
);
const [line] = await once(createInterface({ input: fakeProcess.stdout }), 'line');
const fakeDialogflow = JSON.parse(line);
const server = await startBuiltServer({ dataDir: path.join(work, 'data'), admin: ADMIN, env: LIMITS });
const rows = [];
try {
  const tenant = await clientTenant(server.url, ADMIN, 'Bench engines');

  // A bot without an engine (its fallback text): what storing a turn costs with no engine call at all.
  const plain = await call(server.url, tenant.headers, 'POST', '/v1/bots', { name: 'No engine', config: {} });

  // Dialogflow CX: the fake verifies the JWT of the bench's own key pair.
  const keyText = serviceAccountKeyFile({
    email,
    projectId: PROJECT,
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    tokenUri: fakeDialogflow.tokenUri,
  });
  const integration = await call(server.url, tenant.headers, 'POST', '/v1/integrations', {
    name: 'Bench Dialogflow',
    engine: 'dialogflowcx',
    settings: {
      service_account_key: keyText,
      agents: [{ agentName: 'bench', agentId: AGENT_ID, projectId: PROJECT, location: 'europe-west1' }],
      endpoint: fakeDialogflow.url,
    },
  });
  const bot = await call(server.url, tenant.headers, 'POST', '/v1/bots', {
    name: 'Dialogflow bot',
    config: { engines: { botEngine: 'dialogflowcx', integration_id: integration.id } },
  });
  const credentials = credentialsOf(JSON.parse(keyText));
  const token = await accessToken(credentials, { fetch: globalThis.fetch, timeoutMs: 5_000 });
  const base = `${fakeDialogflow.url}/v3/projects/${PROJECT}/locations/europe-west1/agents/${AGENT_ID}/sessions`;
  const direct = (text, turn) =>
    post(
      `${base}/bench-direct-${Math.floor(turn / TURNS_PER_CONVERSATION)}:detectIntent`,
      { queryInput: { text: { text }, languageCode: 'en' }, queryParams: { parameters: { language: 'en' } } },
      { authorization: `Bearer ${token}` },
    );
  const dialogflow = await interleaved(server, bot.id, plain.id, TURNS, direct);
  rows.push(['dialogflowcx', dialogflow]);

  const adds = (run) => run.intent.map((value, index) => value - run.fake[index]);
  const beyond = (run) => run.intent.map((value, index) => value - run.fake[index] - run.plain[index]);
  console.log(
    `\nPOST /v1/intent through the built server (PGlite, ${TURNS} turns after ${WARM_UP} warm-up, conversations of ` +
      `${TURNS_PER_CONVERSATION} turns, one request at a time over loopback). Each turn, in this order: the engine's ` +
      "fake called directly from this process, the same text to the engine's bot, and to a bot without an engine " +
      '(fallback text). Milliseconds.\n',
  );
  console.log(
    `${'engine'.padEnd(14)}${'fake p50'.padStart(9)}${'fake p95'.padStart(9)}${'turn p50'.padStart(9)}` +
      `${'turn p95'.padStart(9)}${'bare p50'.padStart(9)}${'bare p95'.padStart(9)}${'adds p50'.padStart(9)}` +
      `${'adds p95'.padStart(9)}${'eng p50'.padStart(9)}${'eng p95'.padStart(9)}  budget`,
  );
  for (const [name, run] of rows) {
    const engine = beyond(run);
    const p95 = percentile(engine, 95);
    console.log(
      `${name.padEnd(14)}${ms(percentile(run.fake, 50))}${ms(percentile(run.fake, 95))}` +
        `${ms(percentile(run.intent, 50))}${ms(percentile(run.intent, 95))}` +
        `${ms(percentile(run.plain, 50))}${ms(percentile(run.plain, 95))}` +
        `${ms(percentile(adds(run), 50))}${ms(percentile(adds(run), 95))}` +
        `${ms(percentile(engine, 50))}${ms(p95)}  ${p95 < BUDGET_MS ? 'within' : 'OVER'} ${BUDGET_MS} ms p95`,
    );
  }
  console.log(
    "\nturn = /v1/intent of the engine's bot; bare = /v1/intent of the bot without an engine (storing a turn);\n" +
      'adds = turn minus the direct fake call; eng = adds minus bare, per turn: what the engine path itself adds.',
  );
} finally {
  await server.stop();
  fakeProcess.stdin.end();
  await once(fakeProcess, 'exit');
  await rm(work, { recursive: true, force: true });
}
