import PgBoss from 'pg-boss';
import type { z } from 'zod';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/client.ts';
import type { Logger } from '../lib/logger.ts';

/**
 * What a running job gets beside its payload: the process's context (services), its id, a logger, and `stopping`,
 * aborted when the queue stops: a long handler ends its work early at a safe point (the graceful stop waits for it).
 */
export type JobContext = { ctx: AppContext; jobId: string; logger: Logger; stopping: AbortSignal };

/**
 * A typed job: an id like `mail.send`, a zod payload, an idempotent handler and a retry policy. Definitions
 * are static (they capture nothing): a handler reaches services through `jc.ctx.services`.
 */
export type JobDefinition<S extends z.ZodType = z.ZodType> = {
  id: string;
  payload: S;
  retryLimit?: number;
  retryDelaySeconds?: number;
  /** A pg-boss cron schedule (UTC) for recurring jobs. */
  cron?: string;
  batchSize?: number;
  /**
   * How many of this job run at once in one worker process (default 1): each is its own pg-boss worker, fetching
   * and running one job at a time.
   */
  concurrency?: (ctx: AppContext) => number;
  handle(data: z.infer<S>, jc: JobContext): Promise<void>;
};

export const defineJob = <S extends z.ZodType>(def: JobDefinition<S>): JobDefinition<S> => def;

export type Queue = {
  boss: PgBoss;
  /** Enqueues a job; the payload is checked against the job's schema first. */
  send<S extends z.ZodType>(
    job: JobDefinition<S>,
    data: z.infer<S>,
    options?: PgBoss.SendOptions,
  ): Promise<string | null>;
  /**
   * How many jobs of this kind wait to start (due for `readySeconds` or more, so a worker polling elsewhere had
   * its chance), leaving out those whose singleton key is one of `exceptKeys`.
   */
  waiting(job: JobDefinition, opts: { readySeconds: number; exceptKeys: string[] }): Promise<number>;
  /** Creates the pg-boss queues of these jobs (every role registers, so any process can send). */
  register(jobs: JobDefinition[]): Promise<void>;
  /** Starts consuming every registered job in this process (roles `worker` and `all`); handlers get `ctx`. */
  startWorkers(ctx: AppContext): Promise<void>;
  state(): { started: boolean; workers: number };
  stop(): Promise<void>;
};

/**
 * How often a worker polls its own queue. Due jobs are found by one sweep every `pollingIntervalSeconds` (2 s) for
 * all queues, which wakes the workers of the queues that have one; a worker's own poll is only a safety net.
 */
const WORKER_POLL_SECONDS = 30;
/** Local wake-ups are set for jobs due within this long; later ones are found by polling. */
const MAX_WAKE_DELAY_MS = 15 * 60_000;
/** A wake-up comes this long after the due time, so the database's clock has passed it too. */
const WAKE_MARGIN_MS = 50;

/** How long from now a job sent with pg-boss's `startAfter` (seconds, a date or an ISO string) starts. */
export function startDelayMs(startAfter: PgBoss.SendOptions['startAfter']): number {
  if (startAfter === undefined || startAfter === null) return 0;
  if (typeof startAfter === 'number') return startAfter * 1000;
  const at = startAfter instanceof Date ? startAfter.getTime() : Date.parse(startAfter);
  return Number.isFinite(at) ? at - Date.now() : 0;
}

export async function createQueue(
  database: Database,
  logger: Logger,
  opts: { pollingIntervalSeconds?: number; stopTimeoutMs?: number } = {},
): Promise<Queue> {
  // pg-boss completes or fails a job without awaiting it, so its last query can still be running when stop()
  // returns: count its queries, and let stop() wait for them before the owner closes the database. A handler
  // that outlived the stop's timeout reports later, to a closed database: that bookkeeping is logged and
  // dropped (the job stays active, and pg-boss retries it once it expires) instead of an unhandled rejection.
  let inFlight = 0;
  let stopped = false;
  const settled: (() => void)[] = [];
  const executeSql: typeof database.executeSql = async (text, values) => {
    inFlight++;
    try {
      return await database.executeSql(text, values);
    } catch (err) {
      if (!stopped) throw err;
      logger.warn({ err }, 'job queue query after the queue stopped; left for pg-boss to retry');
      // The shape of a complete/fail answer (the only calls left once stopped): nothing affected.
      return { rows: [{ count: 0 }] };
    } finally {
      inFlight--;
      if (inFlight === 0) for (const resolve of settled.splice(0)) resolve();
    }
  };
  const querySettled = (timeoutMs: number) =>
    inFlight === 0
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          settled.push(resolve);
          setTimeout(resolve, timeoutMs).unref();
        });

  const boss = new PgBoss({
    db: { executeSql },
    schema: 'pgboss',
    supervise: true,
    schedule: true,
    // Cron jobs (the actions tick, the delivery recovery) start within a few seconds of their minute, not up to
    // 35 s after it (pg-boss's defaults: cron checked every 30 s, then its send queue polled every 5 s).
    cronMonitorIntervalSeconds: 5,
    cronWorkerIntervalSeconds: 2,
    migrate: true,
  } as PgBoss.ConstructorOptions);
  boss.on('error', (err) => logger.error({ err }, 'job queue error'));
  await boss.start();

  const jobs: JobDefinition[] = [];
  let started = true;
  const workerIds = new Map<string, string[]>();

  const stopping = new AbortController();
  /** Wake-ups of local workers for jobs sent to start later (cleared at stop). */
  const timers = new Set<NodeJS.Timeout>();
  const notify = (jobId: string) => {
    for (const workerId of workerIds.get(jobId) ?? []) boss.notifyWorker(workerId);
  };

  // The sweep: one statement every `pollingIntervalSeconds` finds the queues with a job due (a cron's, a retry's,
  // one another process sent) and wakes their workers here. Each of the ~30 workers polling its own queue every
  // 2 s instead was ~15 fetches a second: an idle server on PGlite spent a tenth of a core on them.
  const sweepMs = (opts.pollingIntervalSeconds ?? 2) * 1000;
  let sweepTimer: NodeJS.Timeout | undefined;
  const sweep = async () => {
    sweepTimer = undefined;
    if (!started) return;
    try {
      // pg-boss's index on (name, start_after) where state < 'active', per queue's partition.
      const due = await executeSql(
        `select distinct name from pgboss.job where state < 'active' and start_after <= now()`,
      );
      for (const row of due.rows as { name: string }[]) notify(row.name);
    } catch (err) {
      if (started) logger.warn({ err }, 'job queue: looking for due jobs failed; trying again');
    }
    if (started) {
      sweepTimer = setTimeout(() => void sweep(), sweepMs);
      sweepTimer.unref();
    }
  };

  return {
    boss,
    async send(job, data, options = {}) {
      const payload = job.payload.parse(data) as object;
      const id = await boss.send(job.id, payload, options);
      // Wake a local worker instead of waiting for its next poll: at once, or when a job sent to start later is
      // due (a worker woken a little early finds nothing and polls as usual; another process's worker polls).
      const delayMs = startDelayMs(options.startAfter);
      if (delayMs <= 0) notify(job.id);
      else if (started && delayMs <= MAX_WAKE_DELAY_MS) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (started) notify(job.id);
        }, delayMs + WAKE_MARGIN_MS);
        timer.unref();
        timers.add(timer);
      }
      return id;
    },
    async waiting(job, { readySeconds, exceptKeys }) {
      const res = await executeSql(
        `select count(*)::int as n from pgboss.job
          where name = $1 and state < 'active' and start_after < now() - make_interval(secs => $2)
            and not (coalesce(singleton_key, '') = any($3::text[]))`,
        [job.id, readySeconds, exceptKeys],
      );
      return Number((res.rows[0] as { n: number }).n);
    },
    async register(defs) {
      for (const job of defs) {
        await boss.createQueue(job.id, {
          name: job.id,
          retryLimit: job.retryLimit ?? 3,
          retryDelay: job.retryDelaySeconds ?? 5,
          retryBackoff: true,
        });
        jobs.push(job);
      }
    },
    async startWorkers(ctx) {
      for (const job of jobs) {
        const concurrency = Math.max(1, job.concurrency?.(ctx) ?? 1);
        for (let i = 0; i < concurrency; i++) {
          const id = await boss.work(
            job.id,
            {
              batchSize: job.batchSize ?? 1,
              pollingIntervalSeconds: Math.max(WORKER_POLL_SECONDS, opts.pollingIntervalSeconds ?? 2),
            },
            async (batch) => {
              for (const item of batch) {
                const jobLogger = logger.child({ job: job.id, jobId: item.id });
                try {
                  const data = job.payload.parse(item.data);
                  await job.handle(data, {
                    ctx,
                    jobId: item.id,
                    logger: jobLogger,
                    stopping: stopping.signal,
                  });
                } catch (err) {
                  // pg-boss records the failure in the job's row and retries it, but says nothing: say it here.
                  jobLogger.error({ err }, 'job failed; pg-boss retries it while its retry limit lasts');
                  throw err;
                }
              }
            },
          );
          workerIds.set(job.id, [...(workerIds.get(job.id) ?? []), id]);
        }
        if (job.cron) await boss.schedule(job.id, job.cron, {});
      }
      if (started && !sweepTimer) void sweep();
    },
    state: () => ({ started, workers: [...workerIds.values()].reduce((n, ids) => n + ids.length, 0) }),
    async stop() {
      if (!started) return;
      started = false;
      stopping.abort();
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      clearTimeout(sweepTimer);
      // Graceful: stop fetching, wait for running handlers to finish, keep the database open (we own it). Up to
      // 8 s (handlers are told to stop at once, above): with the settling below (5 s) and the database's close
      // (10 s) a process's stop stays inside main.ts's 25 s, after which it exits 1. At 20 s a handler slow to
      // stop made a server exit 1 on SIGTERM (backup.test on PostgreSQL under load).
      await boss.stop({ graceful: true, wait: true, close: false, timeout: opts.stopTimeoutMs ?? 8_000 });
      await querySettled(5_000);
      stopped = true;
    },
  };
}
