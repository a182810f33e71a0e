// Relay latency of conversations handed to a person, across two server processes on one PostgreSQL database:
// visitors talk to process B (their live streams open there), the agent works on process A (the inbox and its
// stream there), so every message crosses processes through the database's notifications.
//   - agent -> visitor: from the agent's POST /v1/inbox/:id/messages on A to the message on the visitor's stream on B;
//   - visitor -> agent: from the visitor's POST /v1/intent on B to the message on the inbox stream on A;
//   - echo: the same messages on a bare Node HTTP server in a process of its own (bench/lib/stream-echo.mjs) that
//     writes each posted text to one of as many open event streams as there are conversations, on the same machine
//     in the same run, right after the relay, as the floor.
// Beside the totals it prints each writer's own request (until its answer) and what the relay adds after it, since the
// writer's request handling (sign-in, rate limits, the transaction) is most of the total on a loaded machine.
// `--conversations` handed-over conversations (200 by default) stay open at once; each sends `--rounds` messages
// each way, `--concurrency` at a time. Budget: p95 within 2x the echo's and under 50 ms on loopback. The load average
// of the machine is printed beside the figures (a shared machine's load moves both). A visitor stream the server ends
// (it does after 5 minutes) is opened again after its last event id; a message that never arrives fails the run.
// With `--queries` both servers count the statements each request sends to the database (bench/lib/query-count.mjs)
// and, before the timed run, `--probe` messages each way are sent one at a time and their statements per POST
// printed (the counting costs a little time per request, so compare latencies of runs without it).
// Needs PostgreSQL (DATABASE_URL or TEST_DATABASE_URL names a server; a throwaway database is made and dropped) and
// builds the server first unless `--no-build`. Prints figures; never part of `npm test`.
//   npm run bench:handover -- [--conversations 200] [--rounds 3] [--concurrency 20] [--queries] [--probe 20]
//   [--no-build]
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { createSseParser } from '../packages/contracts/src/sse.ts';
import { ROOT } from '../scripts/lib/build.mjs';
import { throwawayPostgres } from './lib/database.mjs';
import { signIn, startBuiltServer } from './lib/server.mjs';

const arg = (name, fallback) => {
  const index = process.argv.indexOf(`--${name}`);
  return index > 0 ? process.argv[index + 1] : fallback;
};
const CONVERSATIONS = Number(arg('conversations', '200'));
const ROUNDS = Number(arg('rounds', '3'));
const CONCURRENCY = Number(arg('concurrency', '20'));
const QUERIES = process.argv.includes('--queries');
const PROBE = Number(arg('probe', '20'));
const QUERY_COUNTER = path.join(ROOT, 'bench/lib/query-count.mjs');
const ADMIN = { email: 'bench@example.com', password: 'Bench-Handover-Passw0rd-2026' };
const LIMITS = {
  WIDGET_RATE_LIMIT_IP: '100000',
  WIDGET_RATE_LIMIT_CONVERSATION: '100000',
  RATE_LIMIT_MAX: '1000000',
};

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build', '-w', '@omnibot/server'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const summary = (values) => ({
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  p99: percentile(values, 99),
});
const ms = (value) => `${value.toFixed(1)} ms`.padStart(9);

/** Reads an event stream's response: `onEvent` for each event, until the response ends or is aborted. */
function readEvents(response, onEvent) {
  const parser = createSseParser(onEvent);
  const decoder = new TextDecoder();
  return (async () => {
    try {
      for await (const chunk of response.body) parser.push(decoder.decode(chunk, { stream: true }));
    } catch {
      // Aborted at the end of the run.
    }
  })();
}

/** Runs `work` over `items`, `limit` at a time. */
async function eachLimited(items, limit, work) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next];
      next += 1;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** How long a message may take to arrive before the run fails (nothing is lost: a lost one would hang it). */
const ARRIVAL_TIMEOUT_MS = 60_000;

/** Waiters for texts expected on a stream: `expect(text)` resolves when that text arrives, rejects if it never does. */
function arrivals() {
  const waiting = new Map();
  return {
    expect(text) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(text);
          reject(new Error(`"${text}" did not arrive within ${ARRIVAL_TIMEOUT_MS} ms`));
        }, ARRIVAL_TIMEOUT_MS);
        waiting.set(text, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    arrived(text) {
      const resolve = waiting.get(text);
      if (resolve) {
        waiting.delete(text);
        resolve(performance.now());
      }
    },
  };
}

const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(', ');

async function json(response, what) {
  if (!response.ok) throw new Error(`${what}: ${response.status} ${await response.text()}`);
  return response.status === 204 ? null : response.json();
}

/**
 * The floor: the bare stream echo in a process of its own with `streams` event streams open, `samples` messages
 * posted `CONCURRENCY` at a time, each to one stream in turn; the time from each POST until its text is on its stream.
 */
async function echoFloor(streams, samples) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench/lib/stream-echo.mjs')], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const [port] = await once(child.stdout.setEncoding('utf8'), 'data');
    const url = `http://127.0.0.1:${Number.parseInt(port, 10)}`;
    const abort = new AbortController();
    const seen = arrivals();
    const readers = [];
    for (let stream = 0; stream < streams; stream += 1) {
      const events = await fetch(`${url}/events/${stream}`, { signal: abort.signal });
      readers.push(readEvents(events, ({ data }) => seen.arrived(JSON.parse(data).text)));
    }
    const latencies = [];
    await eachLimited(
      Array.from({ length: samples }, (_, index) => index),
      CONCURRENCY,
      async (index) => {
        const text = `echo ${index}`;
        const arrived = seen.expect(text);
        const sent = performance.now();
        const answer = await fetch(`${url}/say`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ stream: index % streams, text }),
        });
        if (answer.status !== 204) throw new Error(`echo: ${answer.status}`);
        latencies.push((await arrived) - sent);
      },
    );
    abort.abort();
    await Promise.all(readers);
    return latencies;
  } finally {
    child.kill('SIGTERM');
  }
}

const database = await throwawayPostgres();
const dirs = [
  await mkdtemp(path.join(tmpdir(), 'omnibot-handover-a-')),
  await mkdtemp(path.join(tmpdir(), 'omnibot-handover-b-')),
];
const servers = [];
try {
  const a = await startBuiltServer({
    dataDir: dirs[0],
    databaseUrl: database.url,
    admin: ADMIN,
    env: LIMITS,
    nodeArgs: QUERIES ? ['--import', QUERY_COUNTER] : [],
  });
  servers.push(a);
  const b = await startBuiltServer({
    dataDir: dirs[1],
    databaseUrl: database.url,
    admin: ADMIN,
    env: LIMITS,
    nodeArgs: QUERIES ? ['--import', QUERY_COUNTER] : [],
  });
  servers.push(b);
  const cookie = await signIn(a.url, ADMIN);
  const agent = (method, url, body) =>
    fetch(`${a.url}${url}`, {
      method,
      headers: {
        cookie,
        origin: a.url,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const bot = await json(
    await agent('POST', '/v1/bots', {
      name: 'Handover bench',
      config: { engines: { enableliveagent: true, liveagent: 'inbox', fallbackText: 'A person will help.' } },
    }),
    'bot',
  );
  await json(await agent('PATCH', `/v1/bots/${bot.id}`, { enabled: true }), 'enable the bot');
  const visitor = (url, body) =>
    fetch(`${b.url}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ botId: bot.id, ...body }),
    });

  // The visitors start, ask for a person and open their streams on B; the agent claims every one on A.
  const abort = new AbortController();
  const readers = [];
  const toVisitors = arrivals();
  const toAgent = arrivals();
  const conversations = [];
  const streams = { open: 0, fewestOpen: Infinity, reopened: 0 };
  /**
   * A visitor's live stream on B, open for the whole run: opened again after its last event id when the server ends
   * it. Resolves once the first one is open, with `done`: the promise of the rest (wrapped, so that awaiting the
   * opening does not wait for the end).
   */
  async function visitorStream(token) {
    let after;
    const open = async () => {
      const response = await fetch(`${b.url}/v1/conversation/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ botId: bot.id, conversationToken: token, ...(after ? { after } : {}) }),
        signal: abort.signal,
      });
      if (response.status !== 200) throw new Error(`visitor stream: ${response.status}`);
      return response;
    };
    let response = await open();
    const done = (async () => {
      while (response) {
        streams.open += 1;
        await readEvents(response, ({ event, data, id }) => {
          if (id !== null) after = id;
          if (event === 'message') toVisitors.arrived(JSON.parse(data).text);
        });
        streams.open -= 1;
        if (abort.signal.aborted) return;
        streams.reopened += 1;
        response = await open().catch((error) => {
          if (abort.signal.aborted) return null;
          throw error;
        });
      }
    })();
    return { done };
  }
  await eachLimited(
    Array.from({ length: CONVERSATIONS }, (_, index) => index),
    CONCURRENCY,
    async (index) => {
      const first = await json(
        await visitor('/v1/intent', { text: `Visitor ${index} needs a person` }),
        'intent',
      );
      const token = first.conversationToken;
      await json(await visitor('/v1/handover', { conversationToken: token }), 'handover');
      readers.push((await visitorStream(token)).done);
      // A conversation token is `c1.<conversation id>.<signature>`: the agent finds the conversation by its id.
      conversations.push({ token, id: token.split('.')[1] });
    },
  );
  const inboxStream = await fetch(`${a.url}/v1/inbox/events`, { headers: { cookie }, signal: abort.signal });
  readers.push(
    readEvents(inboxStream, ({ event, data }) => {
      if (event === 'message') toAgent.arrived(JSON.parse(data).message.text);
    }),
  );
  await eachLimited(conversations, CONCURRENCY, async ({ id }) =>
    json(await agent('POST', `/v1/inbox/${id}/claim`), 'claim'),
  );

  if (QUERIES) {
    // One message each way at a time, so every statement a server sends belongs to the request that sent it.
    const marks = [a.log.join('').length, b.log.join('').length];
    for (const [index, { id, token }] of conversations.slice(0, PROBE).entries()) {
      const fromAgent = `probe agent ${index}`;
      const arrived = toVisitors.expect(fromAgent);
      await json(await agent('POST', `/v1/inbox/${id}/messages`, { text: fromAgent }), 'agent message');
      await arrived;
      const fromVisitor = `probe visitor ${index}`;
      const heard = toAgent.expect(fromVisitor);
      await json(
        await visitor('/v1/intent', { conversationToken: token, text: fromVisitor }),
        'visitor message',
      );
      await heard;
    }
    // A server writes a request's line once its answer is sent: the last ones may still be on their way.
    await new Promise((resolve) => setTimeout(resolve, 500));
    console.log(
      `\nStatements per POST (round trips to PostgreSQL), ${PROBE} messages each way one at a time:`,
    );
    for (const [label, server, mark, route] of [
      ['agent POST /v1/inbox/:id/messages (A)', a, marks[0], /^\/v1\/inbox\/[^/]+\/messages$/],
      ['visitor POST /v1/intent (B)', b, marks[1], /^\/v1\/intent$/],
    ]) {
      const counted = server.log
        .join('')
        .slice(mark)
        .split('\n')
        .filter((line) => line.startsWith('omnibot-queries '))
        .map((line) => JSON.parse(line.slice('omnibot-queries '.length)))
        .filter((request) => request.method === 'POST' && route.test(request.url));
      const counts = counted.map((request) => request.queries);
      console.log(
        `  ${label}: ${counts.length} requests, min ${Math.min(...counts)}, median ${percentile(counts, 50)}, max ${Math.max(...counts)}`,
      );
      // The statements of each count seen, once.
      const shown = new Set();
      for (const request of counted) {
        if (shown.has(request.queries)) continue;
        shown.add(request.queries);
        console.log(`    ${request.queries}:`);
        for (const statement of request.statements) console.log(`      ${statement.slice(0, 110)}`);
      }
    }
  }

  const agentToVisitor = [];
  const visitorToAgent = [];
  // The writer's own request (its answer, the transaction committed): what the relay adds is the rest.
  const agentAnswered = [];
  const visitorAnswered = [];
  // After that answer until the other side's stream has it (0 when the stream was first).
  const agentRelayed = [];
  const visitorRelayed = [];
  const work = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const [index, { id, token }] of conversations.entries()) work.push({ round, index, id, token });
  }
  const loadBefore = load();
  await eachLimited(work, CONCURRENCY, async ({ round, index, id, token }) => {
    streams.fewestOpen = Math.min(streams.fewestOpen, streams.open);
    const fromAgent = `agent ${round}.${index}`;
    const arrived = toVisitors.expect(fromAgent);
    const sent = performance.now();
    await json(await agent('POST', `/v1/inbox/${id}/messages`, { text: fromAgent }), 'agent message');
    const agentDone = performance.now();
    agentAnswered.push(agentDone - sent);
    const reached = await arrived;
    agentToVisitor.push(reached - sent);
    agentRelayed.push(Math.max(0, reached - agentDone));
    const fromVisitor = `visitor ${round}.${index}`;
    const heard = toAgent.expect(fromVisitor);
    const said = performance.now();
    await json(
      await visitor('/v1/intent', { conversationToken: token, text: fromVisitor }),
      'visitor message',
    );
    const visitorDone = performance.now();
    visitorAnswered.push(visitorDone - said);
    const got = await heard;
    visitorToAgent.push(got - said);
    visitorRelayed.push(Math.max(0, got - visitorDone));
  });
  const loadAfter = load();
  abort.abort();
  await Promise.all(readers);

  const echo = summary(await echoFloor(CONVERSATIONS, work.length));
  const loadEcho = load();
  const down = summary(agentToVisitor);
  const up = summary(visitorToAgent);
  console.log(
    `\nHand-over relay across two server processes on PostgreSQL: ${CONVERSATIONS} open conversations, ` +
      `${work.length} messages each way, ${CONCURRENCY} at a time`,
  );
  console.log(
    `  visitor streams open on B during the run: fewest ${streams.fewestOpen} of ${CONVERSATIONS}` +
      ` (opened again after the server ended one: ${streams.reopened}); echo: ${CONVERSATIONS} streams, ` +
      `${work.length} messages, ${CONCURRENCY} at a time`,
  );
  console.log(
    `  load average (1, 5, 15 min): ${loadBefore} before, ${loadAfter} after the relay, ${loadEcho} after the echo`,
  );
  console.log('                               p50        p95        p99');
  for (const [name, figures] of [
    ['agent -> visitor', down],
    ['visitor -> agent', up],
    ['bare stream echo', echo],
    ['(agent POST answered)', summary(agentAnswered)],
    ['(then on visitor stream)', summary(agentRelayed)],
    ['(visitor POST answered)', summary(visitorAnswered)],
    ['(then on agent stream)', summary(visitorRelayed)],
  ]) {
    console.log(`  ${name.padEnd(24)} ${ms(figures.p50)}  ${ms(figures.p95)}  ${ms(figures.p99)}`);
  }
  for (const [name, figures] of [
    ['agent -> visitor', down],
    ['visitor -> agent', up],
  ]) {
    const within = figures.p95 <= 2 * echo.p95 && figures.p95 < 50;
    console.log(
      `  budget ${name}: p95 ${figures.p95.toFixed(1)} ms within 2x echo (${(2 * echo.p95).toFixed(1)} ms) and under 50 ms: ${within ? 'OK' : 'OVER'}`,
    );
  }
} finally {
  for (const server of servers) await server.stop();
  await database.drop();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
}
