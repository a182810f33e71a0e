// The AWS bot engines' cost per turn: for Amazon Lex V2 and Amazon Bedrock, p50/p95 of POST /v1/intent through
// the built server (PGlite) answering with the engine's local fake (apps/server/src/test/lex-runtime-server.ts and
// bedrock-runtime-server.ts: the services' REST-JSON APIs with SigV4 verified), beside the fake measured directly
// with the same official SDK client the server uses, and a bot without an engine (its fallback text) for the cost of
// the turn itself, all in one run. One visitor at a time, conversations of 20 turns. What the product adds per turn
// is the engine's /v1/intent figure less the fake's own and less the engine-less turn (budget: under 2 ms at p95).
// Prints figures; never part of `npm test`.
//   npm run bench:engines-aws -- [--turns 300] [--no-build]
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BedrockRuntimeClient, ConverseCommand } from '@aws-sdk/client-bedrock-runtime';
import { LexRuntimeV2Client, RecognizeTextCommand } from '@aws-sdk/client-lex-runtime-v2';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { startBedrockRuntimeServer } from '../apps/server/src/test/bedrock-runtime-server.ts';
import { startLexRuntimeServer } from '../apps/server/src/test/lex-runtime-server.ts';
import { ROOT } from '../scripts/lib/build.mjs';
import { call, clientTenant } from './lib/handbook.mjs';
import { startBuiltServer } from './lib/server.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const TURNS = Number(arg('turns', '300'));
const WARM_UP = 30;
const PER_CONVERSATION = 20;
const ADMIN = { email: 'bench@example.com', password: 'Bench-Engines-Passw0rd-2026' };
const ENV = {
  RATE_LIMIT_MAX: '100000000',
  WIDGET_RATE_LIMIT_IP: '100000',
  WIDGET_RATE_LIMIT_CONVERSATION: '100000',
  FETCH_ALLOW_ADDRESSES: '127.0.0.1',
};
const LEX_SCRIPT = ['hello', 'I want to order flowers', 'roses', 'today', 'what did I order?'];

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/**
 * p50 and p95 in ms of each series' `turn(i)`, run `TURNS` times after a warm-up. The series take turns (one call
 * of each, then the next round), so a machine busy with other work weighs on all of them alike.
 */
async function measureTogether(series) {
  for (let i = 0; i < WARM_UP; i += 1) for (const [, turn] of series) await turn(i);
  const times = series.map(() => []);
  for (let i = 0; i < TURNS; i += 1) {
    for (const [index, [, turn]] of series.entries()) {
      const started = performance.now();
      await turn(i);
      times[index].push(performance.now() - started);
    }
  }
  return series.map(([name], index) => {
    const sorted = times[index].sort((a, b) => a - b);
    return [name, { p50: quantile(sorted, 0.5), p95: quantile(sorted, 0.95) }];
  });
}

/** A visitor's turns of one bot: a new conversation every PER_CONVERSATION turns, the token kept in between. */
function visitor(url, botId, textOf) {
  let token;
  return async (i) => {
    if (i % PER_CONVERSATION === 0) token = undefined;
    const reply = await call(url, {}, 'POST', '/v1/intent', {
      botId,
      text: textOf(i),
      ...(token ? { conversationToken: token } : {}),
    });
    if (!reply.conversationToken || reply.messages.length === 0) throw new Error('an empty intent reply');
    token = reply.conversationToken;
  };
}

if (!process.argv.includes('--no-build')) {
  const built = spawnSync(process.execPath, ['build.mjs'], {
    cwd: path.join(ROOT, 'apps/server'),
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

const work = await mkdtemp(path.join(tmpdir(), 'omnibot-bench-engines-aws-'));
const lex = await startLexRuntimeServer();
const bedrock = await startBedrockRuntimeServer();
bedrock.reply = 'Parcels arrive within three working days in Europe.';
const server = await startBuiltServer({ dataDir: path.join(work, 'data'), admin: ADMIN, env: ENV });
try {
  const tenant = await clientTenant(server.url, ADMIN, 'Bench engines');
  const integration = (name, engine, settings) =>
    call(server.url, tenant.headers, 'POST', '/v1/integrations', { name, engine, settings });
  const bot = (name, engines) =>
    call(server.url, tenant.headers, 'POST', '/v1/bots', { name, config: { engines } });
  const lexIntegration = await integration('Bench Lex', 'lex', {
    region: lex.region,
    bot_id: lex.botId,
    bot_alias_id: lex.botAliasId,
    access_key_id: lex.keys.accessKeyId,
    secret_access_key: lex.keys.secretAccessKey,
    endpoint: lex.baseUrl,
  });
  const bedrockIntegration = await integration('Bench Bedrock', 'bedrock', {
    region: bedrock.region,
    model: bedrock.modelId,
    access_key_id: bedrock.keys.accessKeyId,
    secret_access_key: bedrock.keys.secretAccessKey,
    endpoint: bedrock.baseUrl,
  });
  const lexBot = await bot('Bench Lex bot', { botEngine: 'lex', integration_id: lexIntegration.id });
  const bedrockBot = await bot('Bench Bedrock bot', {
    botEngine: 'bedrock',
    integration_id: bedrockIntegration.id,
  });
  const bareBot = await bot('Bench bot without engine', { botEngine: 'builtin' });

  // The fakes speak HTTP/1.1, as the server's guarded client does; both SDK clients default to HTTP/2.
  const lexClient = new LexRuntimeV2Client({
    region: lex.region,
    endpoint: lex.baseUrl,
    credentials: lex.keys,
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });
  const bedrockClient = new BedrockRuntimeClient({
    region: bedrock.region,
    endpoint: bedrock.baseUrl,
    credentials: bedrock.keys,
    authSchemePreference: ['sigv4'],
    requestHandler: new NodeHttpHandler(),
    maxAttempts: 1,
  });
  const lexText = (i) => LEX_SCRIPT[(i % PER_CONVERSATION) % LEX_SCRIPT.length];
  const rows = await measureTogether([
    ['no engine (fallback text)', visitor(server.url, bareBot.id, (i) => `Question ${i}`)],
    [
      'Lex fake, SDK directly',
      (i) =>
        lexClient.send(
          new RecognizeTextCommand({
            botId: lex.botId,
            botAliasId: lex.botAliasId,
            localeId: lex.localeId,
            sessionId: `bench-${Math.floor(i / PER_CONVERSATION)}`,
            text: lexText(i),
          }),
        ),
    ],
    ['Lex via /v1/intent', visitor(server.url, lexBot.id, lexText)],
    [
      'Bedrock fake, SDK directly',
      () =>
        bedrockClient.send(
          new ConverseCommand({
            modelId: bedrock.modelId,
            messages: [{ role: 'user', content: [{ text: 'How long does delivery take?' }] }],
            inferenceConfig: { maxTokens: 1024, temperature: 0.7 },
          }),
        ),
    ],
    [
      'Bedrock via /v1/intent',
      visitor(server.url, bedrockBot.id, (i) => `How long does delivery take? (${i})`),
    ],
  ]);

  const fmt = (ms) => ms.toFixed(2).padStart(9);
  console.log(
    `\nOne visitor at a time, ${TURNS} turns per row after ${WARM_UP} to warm up, the rows taking turns, ` +
      `conversations of ${PER_CONVERSATION} turns, built server on PGlite, fakes in this process, loopback.\n`,
  );
  console.log(`${'series'.padEnd(28)}${'p50 ms'.padStart(9)}${'p95 ms'.padStart(9)}`);
  for (const [name, figures] of rows) console.log(`${name.padEnd(28)}${fmt(figures.p50)}${fmt(figures.p95)}`);
  const byName = Object.fromEntries(rows);
  const bare = byName['no engine (fallback text)'];
  console.log(
    '\nWhat the product adds to the engine call, per turn (intent − fake directly − turn without engine):',
  );
  for (const [engine, direct, intent] of [
    ['Lex', byName['Lex fake, SDK directly'], byName['Lex via /v1/intent']],
    ['Bedrock', byName['Bedrock fake, SDK directly'], byName['Bedrock via /v1/intent']],
  ]) {
    const p50 = intent.p50 - direct.p50 - bare.p50;
    const p95 = intent.p95 - direct.p95 - bare.p95;
    console.log(
      `${engine.padEnd(28)}${fmt(p50)}${fmt(p95)}   budget p95 < 2 ms: ${p95 < 2 ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  await server.stop();
  await lex.close();
  await bedrock.close();
  await rm(work, { recursive: true, force: true });
}
