import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import type { Database } from '../db/client';

export type JobHandler<T> = (data: T) => Promise<void>;

export interface JobRunnerOptions {
  /** How often an idle worker looks for new jobs. */
  pollingIntervalSeconds?: number;
  /** How long stop() waits for running jobs before failing them. */
  stopTimeoutMs?: number;
}

const FINISHED = new Set(['completed', 'failed', 'cancelled']);

/**
 * Background jobs on the app's own database (pg-boss): work queues and cron schedules that every
 * server process shares, so a scheduled job runs once per slot however many processes are up.
 */
export class JobRunner {
  /** This process's worker of each queue, woken at once when this process queues a job for it. */
  private readonly workers = new Map<string, string>();

  private constructor(
    readonly boss: PgBoss,
    private readonly log: FastifyBaseLogger,
    private readonly options: Required<JobRunnerOptions>,
  ) {}

  /** Starts pg-boss: with the connection string on PostgreSQL, through the one PGlite connection otherwise. */
  static async start(database: Database, log: FastifyBaseLogger, options: JobRunnerOptions = {}) {
    const boss = new PgBoss(
      database.url
        ? { connectionString: database.url, max: 4, application_name: 'omnibot-jobs' }
        : { db: { executeSql: (text, values) => database.executeSql(text, values) } },
    );
    boss.on('error', (error) => log.error({ err: error }, 'job queue error'));
    const startedAt = performance.now();
    await boss.start();
    log.info({ startedInMs: Math.round(performance.now() - startedAt) }, 'job runner started');
    return new JobRunner(boss, log, {
      pollingIntervalSeconds: options.pollingIntervalSeconds ?? 2,
      stopTimeoutMs: options.stopTimeoutMs ?? 10_000,
    });
  }

  /** Creates the queue `name` and runs `handler` for each of its jobs; a throwing handler fails the job. */
  async work<T extends object>(name: string, handler: JobHandler<T>): Promise<void> {
    await this.boss.createQueue(name);
    const workerId = await this.boss.work<T>(
      name,
      { pollingIntervalSeconds: this.options.pollingIntervalSeconds },
      async ([job]) => {
        if (!job) return;
        // On PGlite a job's statements resolve without waiting for I/O, so back-to-back jobs would keep the event
        // loop from reading requests until the queue is empty; each job first lets pending I/O through.
        await new Promise((resolve) => setImmediate(resolve));
        try {
          await handler(job.data);
        } catch (error) {
          this.log.error({ err: error, job: name }, 'job failed');
          throw error;
        } finally {
          // A finished job fetches the next at once: the polling interval is for an idle queue, not a gap after
          // each job (a bulk import of 500 sources would otherwise wait 500 intervals).
          const worker = this.workers.get(name);
          if (worker) this.boss.notifyWorker(worker);
        }
      },
    );
    this.workers.set(name, workerId);
  }

  /** Runs the queue `name` on `cron` (UTC); the queue needs a worker (work()). */
  async schedule(name: string, cron: string, data: object = {}): Promise<void> {
    await this.boss.schedule(name, cron, data);
  }

  async send<T extends object>(name: string, data: T, options: PgBoss.SendOptions = {}): Promise<string> {
    const id = await this.boss.send(name, data, options);
    if (!id) throw new Error(`job ${name} was not queued`);
    // A job due now starts without waiting for the next poll when this process works its queue.
    const worker = this.workers.get(name);
    if (worker && !options.startAfter) this.boss.notifyWorker(worker);
    return id;
  }

  /**
   * Queues one job of `name` per item of `data` in one statement (all or none) and returns their ids in the
   * same order; one wake-up of this process's worker follows, not one per job.
   */
  async sendMany<T extends object>(
    name: string,
    data: readonly T[],
    options: Omit<PgBoss.JobInsert, 'id' | 'name' | 'data' | 'startAfter'> = {},
  ): Promise<string[]> {
    if (data.length === 0) return [];
    const ids = data.map(() => randomUUID());
    await this.boss.insert(data.map((item, index) => ({ ...options, id: ids[index], name, data: item })));
    const worker = this.workers.get(name);
    if (worker) this.boss.notifyWorker(worker);
    return ids;
  }

  /** Waits until job `id` of `name` finished; returns its final state. */
  async waitFor(name: string, id: string, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await this.boss.getJobById(name, id);
      if (job && FINISHED.has(job.state)) return job.state;
      if (Date.now() > deadline) throw new Error(`job ${name} ${id} did not finish in ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Stops taking jobs, lets running ones finish (bounded), then releases the connection. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, wait: true, timeout: this.options.stopTimeoutMs });
  }
}
