import { getTableName } from 'drizzle-orm';
import client from 'prom-client';
import type { Database } from '../../db/client.ts';
import { budgetOf, type SendLimits } from '../delivery/limits.ts';
import { limitsRepo } from '../delivery/limits-repo.ts';
import { slackInbox } from '../intake/table.ts';
import { backfills } from '../workspace-data/table.ts';
import { workspaces } from '../workspaces/table.ts';

/** What a delivery attempt came to, as the engine records it. */
export type DeliveryOutcome = 'sent' | 'failed' | 'retried' | 'rate_limited';

export type Metrics = {
  registry: client.Registry;
  /** An HTTP request answered: its route's template (never the raw URL: ids would explode the series). */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  deliveryOutcome(teamId: string, outcome: DeliveryOutcome): void;
};

const num = (v: unknown) => Number(v ?? 0);

/**
 * The process's Prometheus metrics (GET /metrics, docs/operations/production.md "Metrics"). Counters and the latency histogram are this
 * process's own (scrape every process); the gauges of queues, ingest, imports and budgets are read from the
 * database when scraped, so every process reports the same installation-wide values.
 */
export function createMetrics(deps: { database: Database; limits: SendLimits }): Metrics {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry, prefix: 'flywheel_' });
  const sql = (text: string) =>
    deps.database.executeSql(text).then((r) => r.rows as Record<string, unknown>[]);

  const http = new client.Histogram({
    name: 'flywheel_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const delivery = new client.Counter({
    name: 'flywheel_delivery_attempts_total',
    help: "Delivery attempts by workspace and outcome (sent, failed, retried, rate_limited: Slack's 429)",
    labelNames: ['team_id', 'outcome'],
    registers: [registry],
  });

  new client.Gauge({
    name: 'flywheel_queue_jobs',
    help: 'Jobs waiting (created, retry) or running (active) by queue',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await sql(
        `select name, state::text as state, count(*)::int as n from pgboss.job
          where state in ('created', 'retry', 'active') group by name, state`,
      );
      for (const r of rows) this.set({ queue: String(r.name), state: String(r.state) }, num(r.n));
    },
  });
  new client.Gauge({
    name: 'flywheel_queue_oldest_job_age_seconds',
    help: 'Age of the oldest job waiting to start, by queue (0 when none is due)',
    labelNames: ['queue'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await sql(
        `select name, extract(epoch from now() - min(start_after))::float8 as age from pgboss.job
          where state in ('created', 'retry') and start_after <= now() group by name`,
      );
      for (const r of rows) this.set({ queue: String(r.name) }, Math.max(0, num(r.age)));
    },
  });
  new client.Gauge({
    name: 'flywheel_ingest_pending_events',
    help: 'Slack events received and not yet processed',
    registers: [registry],
    async collect() {
      const [r] = await sql(
        `select count(*)::int as n from ${getTableName(slackInbox)} where processed_at is null`,
      );
      this.set(num(r?.n));
    },
  });
  new client.Gauge({
    name: 'flywheel_ingest_lag_seconds',
    help: 'How long the oldest unprocessed Slack event has waited (0 when none waits)',
    registers: [registry],
    async collect() {
      const [r] = await sql(
        `select coalesce(extract(epoch from now() - min(received_at)), 0)::float8 as lag
           from ${getTableName(slackInbox)} where processed_at is null`,
      );
      this.set(Math.max(0, num(r?.lag)));
    },
  });
  new client.Gauge({
    name: 'flywheel_history_import_progress_ratio',
    help: "A workspace's history import: channels done / channels (1 when done)",
    labelNames: ['team_id', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await sql(
        `select team_id, status, channels_total, channels_done from ${getTableName(backfills)}`,
      );
      for (const r of rows) {
        const total = num(r.channels_total);
        const ratio = r.status === 'done' ? 1 : total > 0 ? num(r.channels_done) / total : 0;
        this.set({ team_id: String(r.team_id), status: String(r.status) }, ratio);
      }
    },
  });
  new client.Gauge({
    name: 'flywheel_send_budget_remaining',
    help: "Messages a workspace may still send in the budget's window (absent when it has no budget)",
    labelNames: ['team_id'],
    registers: [registry],
    async collect() {
      this.reset();
      const teams = await sql(
        `select team_id from ${getTableName(workspaces)} where bot_token_sealed is not null`,
      );
      const db = deps.database.db;
      for (const t of teams) {
        const teamId = String(t.team_id);
        const budget = await budgetOf(db, deps.limits, teamId);
        if (budget === null) continue;
        this.set({ team_id: teamId }, Math.max(0, budget - (await limitsRepo.usedToday(db, teamId))));
      }
    },
  });

  return {
    registry,
    observeRequest: (method, route, status, seconds) =>
      http.observe({ method, route, status_code: String(status) }, seconds),
    deliveryOutcome: (teamId, outcome) => delivery.inc({ team_id: teamId, outcome }),
  };
}
