// CPU time spent by the processes of a benchmark run, read from /proc (Linux; elsewhere the figures are left out):
// the server process, the PostgreSQL backends serving one database, and the benchmark process itself. With
// client, server and database sharing the cores, requests per second alone do not say which one a change helped.
import { readFileSync } from 'node:fs';
import pg from 'pg';

const TICKS_PER_SECOND = 100;

/** User plus system CPU milliseconds of process `pid` so far, or null when /proc cannot tell. */
function processCpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** The process ids of the PostgreSQL backends connected to the database of `url`, other than the asking one. */
async function backendPids(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/**
 * Starts measuring: the server processes `serverPids`, the backends of `databaseUrl` (or null) and this process.
 * `stop(n)` returns CPU milliseconds per request over `n` requests for each, null where /proc is not there.
 */
export async function cpuMeter({ serverPids = [], databaseUrl = null }) {
  const backends = databaseUrl ? await backendPids(databaseUrl) : [];
  // Each server process read once per reading; null when there is none or one cannot be read.
  const serverCpu = () => {
    const readings = serverPids.map(processCpuMs);
    return readings.length === 0 || readings.includes(null) ? null : readings.reduce((a, b) => a + b, 0);
  };
  const read = () => ({
    server: serverCpu(),
    // Per backend: one that ended meanwhile (a job queue's connection, say) is left out of both readings.
    database: databaseUrl ? backends.map(processCpuMs) : null,
    client: (() => {
      const usage = process.cpuUsage();
      return (usage.user + usage.system) / 1000;
    })(),
  });
  const before = read();
  return {
    stop(requests) {
      const after = read();
      const per = (key) =>
        before[key] === null || after[key] === null ? null : (after[key] - before[key]) / requests;
      const database =
        before.database && after.database
          ? before.database.reduce(
              (total, start, i) =>
                total + (start === null || after.database[i] === null ? 0 : after.database[i] - start),
              0,
            ) / requests
          : null;
      return { server: per('server'), database, client: per('client') };
    },
  };
}

/** "server 1.20 ms, PostgreSQL 0.55 ms, client 0.31 ms", leaving out what was not measured. */
export function describeCpu(cpu, databaseName = 'PostgreSQL') {
  const parts = [];
  if (cpu.server !== null) parts.push(`server ${cpu.server.toFixed(2)} ms`);
  if (cpu.database !== null) parts.push(`${databaseName} ${cpu.database.toFixed(2)} ms`);
  if (cpu.client !== null) parts.push(`client ${cpu.client.toFixed(2)} ms`);
  return parts.join(', ');
}
