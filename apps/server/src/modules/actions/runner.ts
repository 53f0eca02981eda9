import { recurrenceOf as sharedRecurrence } from '@flywheel/shared/clock';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError } from '../../lib/errors.ts';
import { planDue } from '../../lib/plan-due.ts';
import type { Logger } from '../../lib/logger.ts';
import type { AudienceService } from '../audience/service.ts';
import type { DeliveryService, SendRequest } from '../delivery/service.ts';
import { actionsRepo, type ActionRecord, type DueRun } from './repo.ts';

/** A run whose send failed (Slack or the database down) is tried again after this. */
const RETRY_MS = 30_000;

export type ActionsDeps = {
  db: Db;
  audience: AudienceService;
  delivery: DeliveryService;
  /** Inside a transaction, pass it as `tx` (db/tx-guard.ts). */
  timezoneOf: (teamId: string, tx?: Tx) => Promise<string>;
  /** A schedule's run sent later than this is recorded as skipped (the product was down). */
  graceMs: number;
  /** How long a worker holds the runs it claimed (default 2 minutes). */
  claimMs?: number;
  logger: Logger;
  now?: () => number;
};

/** An action's recurrence, by the shared clock's definition. */
export const recurrenceOf = (a: Pick<ActionRecord, 'frequency' | 'time' | 'days' | 'run_at'>) =>
  sharedRecurrence({ ...a, at: a.run_at ? Date.parse(a.run_at) : null });

/**
 * The due work of automations and schedules: schedules turned into runs on their local clock, runs for members
 * who joined, and the runs sent through the delivery engine (one receipt each, named by the run).
 */
export const actionsRunner = (deps: ActionsDeps) => {
  const repo = actionsRepo(deps.db);
  const now = () => deps.now?.() ?? Date.now();

  /** What a run sends: its action's message to its targets (and to the member who joined), named by the run. */
  function requestOf(run: DueRun, a: ActionRecord): SendRequest {
    return {
      teamId: a.team_id,
      userId: null,
      actionType: a.kind === 'automation' ? 'Automation' : 'Scheduled Message',
      sender: a.sender,
      adminUser: a.admin_user,
      text: a.message,
      images: a.images,
      description: `${a.name}${run.member_id ? ` (joined: ${run.member_id})` : ` (${run.run_key})`}`,
      audience: {
        channel_ids: a.channel_ids,
        dms: {
          members: [...a.dm_members, ...(a.send_dm && run.member_id ? [run.member_id] : [])],
          tags: a.dm_tags,
          channels: a.dm_channels,
        },
        sendtoworkspace: a.send_to_workspace,
      },
      idempotencyKey: `action-run:${run.id}`,
      deferWake: true,
      origin: 'automation',
    };
  }

  return {
    /**
     * Turns due schedules into runs, in one transaction per batch that locks them (another worker skips
     * them): a run at most `graceMs` late is due, a later one is recorded as skipped (the product was down);
     * the next run is computed from now, so a long outage never sends a burst of missed days.
     */
    async planDueSchedules(): Promise<number> {
      return planDue<ActionRecord & { late_ms: number }>({
        db: deps.db,
        kind: 'schedule',
        now,
        graceMs: deps.graceMs,
        timezoneOf: deps.timezoneOf,
        logger: deps.logger,
        lock: (tx, limit, at) => repo.lockDueSchedules(tx, limit, at),
        recurrence: recurrenceOf,
        write: async (tx, runs) => {
          await repo.addRuns(
            tx,
            runs.map((r) => ({
              actionId: r.row.id,
              teamId: r.row.team_id,
              key: r.at,
              dueAt: r.at,
              status: r.status,
            })),
          );
          await repo.advanceMany(
            tx,
            runs.map((r) => ({ id: r.row.id, next: r.next, ranAt: r.at })),
          );
        },
      });
    },

    /** Runs an automation for a member who joined (a listener inside the events transaction). */
    addJoinRuns: repo.addJoinRuns,
    recordedJoin: repo.recordedJoin,

    /** Due runs no worker holds: the tick wakes one sender per batch of them. */
    countDueRuns: () => repo.countDueRuns(new Date(now())),

    /**
     * Claims up to `limit` due runs and sends them through the delivery engine as one batch (`sendMany`: each
     * sender and audience checked once, the receipts written in one statement). Workers split the due runs by
     * claiming them; each send is also named by its run, so a run sent again after a crash between the send and
     * this bookkeeping (its claim lapsed) still makes one receipt.
     */
    async sendDueRuns(limit = 100): Promise<number> {
      const runs = await repo.claimDueRuns(limit, new Date(now()), deps.claimMs ?? 120_000);
      if (runs.length === 0) return 0;
      const actions = await repo.findMany(runs.map((r) => r.action_id));
      const sendable = runs.filter((r) => actions.has(r.action_id));
      const results = await deps.delivery.sendMany(
        sendable.map((r) => requestOf(r, actions.get(r.action_id)!)),
      );
      const finished: Parameters<typeof repo.finishRuns>[0] = [];
      const retry: number[] = [];
      const sent = new Set<string>();
      for (const [i, run] of sendable.entries()) {
        const result = results[i]!;
        if (!('error' in result)) {
          finished.push({ id: run.id, status: 'sent', receiptId: result.receipt_id, error: null });
          sent.add(run.team_id);
        } else if (result.error instanceof AppError && result.error.statusCode < 500) {
          // The run cannot be sent as set up (no member left to reach, the admin gone) or the daily budget
          // cannot take it (its receipt says so): recorded, not retried.
          deps.logger.warn({ run: run.id, err: result.error.message }, 'action run not sent');
          finished.push({
            id: run.id,
            status: 'failed',
            receiptId: result.receipt_id ?? null,
            error: result.error.message,
          });
        } else {
          // Slack or the database failed under this run: it stays due, and is claimed again after a pause.
          deps.logger.error({ err: result.error, run: run.id }, 'action run send failed; retried later');
          retry.push(run.id);
        }
      }
      await repo.finishRuns(finished);
      if (retry.length > 0) await repo.releaseRuns(retry, new Date(now() + RETRY_MS));
      for (const teamId of sent) await deps.delivery.wake(teamId);
      return runs.length;
    },
  };
};
