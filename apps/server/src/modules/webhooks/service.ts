import crypto from 'node:crypto';
import type { WebhookDelivery, WebhookEventType, WebhookSubscription } from '@flywheel/shared/webhooks';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { webhooksRepo, type SubscriptionRow } from './repo.ts';
import { postDelivery } from './send.ts';
import { targetProblem } from './target.ts';

/** The longest wait between two tries of one delivery. */
const MAX_DELAY_MS = 3_600_000;
/** How long events and their delivery log are kept. */
const LOG_DAYS = 30;
/** A delivery is given up this long after it was queued. */
const GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** A worker's hold on one subscription's queue, renewed at each attempt (longer than one request may take). */
const leaseMsOf = (timeoutMs: number) => Math.max(60_000, timeoutMs * 3);

/** The wait before try `attempts + 1`, after `attempts` failed tries: base, 2 x base, 4 x base, ... at most an hour. */
export const retryDelayMs = (baseMs: number, attempts: number) =>
  Math.min(MAX_DELAY_MS, baseMs * 2 ** Math.max(0, attempts - 1));

/** Emits one event: what the modules call where a thing happens (see docs/webhooks.md for each type's data). */
export type Emit = (
  teamId: string,
  type: WebhookEventType,
  data: Record<string, unknown>,
  opts?: { dedupeKey?: string },
) => Promise<void>;

const view = (s: SubscriptionRow): WebhookSubscription => ({
  id: s.id,
  url: s.url,
  events: s.events,
  enabled: s.enabled,
  created_at: s.created_at,
  pending: s.pending,
  failed_recently: s.failed_recently,
});

export function webhooksService(deps: {
  db: Db;
  box: SecretBox;
  config: Config['webhooks'];
  logger: Logger;
  /** Queues a delivery run of these subscriptions (now, or at `at`). */
  wake: (subscriptionIds: number[], at?: Date) => Promise<void>;
}) {
  const repo = webhooksRepo(deps.db);
  const newEventId = () => `evt_${crypto.randomBytes(12).toString('hex')}`;

  const findOwned = async (teamId: string, id: number) => {
    const s = await repo.find(teamId, id);
    if (!s) throw notFound('No such webhook subscription in this workspace');
    return s;
  };

  const emitIn = (
    tx: Tx,
    teamId: string,
    type: WebhookEventType,
    data: Record<string, unknown>,
    dedupeKey?: string,
  ) => repo.insertEvent(tx, { id: newEventId(), teamId, type, data, dedupeKey: dedupeKey ?? null });

  /** Outside any transaction: writes the outbox rows and wakes their subscriptions; never throws. */
  const emit: Emit = async (teamId, type, data, opts = {}) => {
    try {
      const subs = await emitIn(deps.db, teamId, type, data, opts.dedupeKey);
      if (subs.length > 0) await deps.wake(subs);
    } catch (err) {
      deps.logger.error({ err, teamId, type }, 'webhook event not recorded');
    }
  };

  return {
    emit,
    /**
     * Inside a transaction (an events listener's): the outbox rows are written with it; the caller wakes the
     * answered subscriptions once it commits (`wake`).
     */
    emitIn,
    wake: deps.wake,

    async create(userId: string | null, teamId: string, url: string, events: string[]) {
      const problem = targetProblem(url, deps.config.allowPrivateTargets);
      if (problem) throw new AppError('VALIDATION_ERROR', 400, problem);
      const secret = `whsec_${crypto.randomBytes(24).toString('base64url')}`;
      const id = await repo.insertSubscription({
        teamId,
        url: new URL(url).toString(),
        events: [...new Set(events)],
        secretSealed: deps.box.seal(secret),
        createdBy: userId,
      });
      return { ...view((await repo.find(teamId, id))!), secret };
    },

    list: async (teamId: string): Promise<WebhookSubscription[]> => (await repo.list(teamId)).map(view),

    async update(teamId: string, id: number, u: { enabled?: boolean; events?: string[] }) {
      await findOwned(teamId, id);
      await repo.update(teamId, id, { ...u, events: u.events ? [...new Set(u.events)] : undefined });
      // Resumed: what waited while paused goes out now, in order.
      if (u.enabled) await deps.wake([id]);
      return view((await repo.find(teamId, id))!);
    },

    async remove(teamId: string, id: number): Promise<void> {
      if (!(await repo.remove(teamId, id))) throw notFound('No such webhook subscription in this workspace');
    },

    async deliveries(teamId: string, id: number, limit = 100): Promise<WebhookDelivery[]> {
      await findOwned(teamId, id);
      return repo.deliveries(id, limit);
    },

    async replay(teamId: string, id: number, deliveryId: number): Promise<WebhookDelivery> {
      await findOwned(teamId, id);
      const newId = await repo.replay(id, deliveryId);
      if (!newId) throw notFound('No such delivery of this subscription');
      await deps.wake([id]);
      return (await repo.delivery(id, newId))!;
    },

    /**
     * Works through one subscription's queue in order: the oldest pending delivery is sent; on success the next
     * one follows, on failure it waits for its retry (with everything behind it: order per subscription) until
     * a day has passed, then it is given up and the queue moves on. One worker at a time holds the queue.
     */
    async deliverQueue(subscriptionId: number): Promise<void> {
      const leaseMs = leaseMsOf(deps.config.timeoutMs);
      for (let round = 0; round < 3; round++) {
        const sub = await repo.claim(subscriptionId, leaseMs);
        if (!sub) return;
        let secret: string;
        try {
          secret = deps.box.open(sub.secret_sealed);
        } catch (err) {
          await repo.release(subscriptionId);
          throw err;
        }
        let wakeAt: Date | null = null;
        try {
          for (;;) {
            const head = await repo.head(subscriptionId);
            if (!head) break;
            if (!head.due) {
              wakeAt = new Date(head.next_attempt_at);
              break;
            }
            const body = JSON.stringify({
              id: head.event_id,
              type: head.type,
              version: 1,
              created_at: head.event_created_at,
              team_id: head.team_id,
              data: head.data,
            });
            const a = await postDelivery({
              url: sub.url,
              body,
              secret,
              eventId: head.event_id,
              deliveryId: head.id,
              timeoutMs: deps.config.timeoutMs,
              allowPrivate: deps.config.allowPrivateTargets,
            });
            if (a.ok) {
              await repo.recordAttempt(head.id, {
                status: 'delivered',
                responseCode: a.status,
                error: null,
                durationMs: a.durationMs,
                nextAttemptAt: null,
              });
            } else {
              const next = new Date(Date.now() + retryDelayMs(deps.config.retryBaseMs, head.attempts + 1));
              const giveUp = next.getTime() > Date.parse(head.created_at) + GIVE_UP_AFTER_MS;
              await repo.recordAttempt(head.id, {
                status: giveUp ? 'failed' : 'pending',
                responseCode: a.status,
                error: a.error,
                durationMs: a.durationMs,
                nextAttemptAt: giveUp ? null : next,
              });
              deps.logger.warn(
                { subscription: subscriptionId, delivery: head.id, status: a.status, err: a.error, giveUp },
                giveUp ? 'webhook delivery given up' : 'webhook delivery failed; retried later',
              );
              if (!giveUp) {
                wakeAt = next;
                break;
              }
            }
            // Still ours for another request.
            if (!(await repo.claimRenew(subscriptionId, leaseMs))) return;
          }
        } finally {
          await repo.release(subscriptionId);
        }
        if (wakeAt) return deps.wake([subscriptionId], wakeAt);
        // A delivery queued while this run held the queue (its own wake found it held) goes out now.
        const head = await repo.head(subscriptionId);
        if (!head || !head.due) {
          if (head) await deps.wake([subscriptionId], new Date(head.next_attempt_at));
          return;
        }
      }
      await deps.wake([subscriptionId]);
    },

    /**
     * The tick: queues a run for every subscription with a due delivery nobody holds, and drops events (with
     * their log rows) older than 30 days that have nothing left to deliver.
     */
    async wakeDue(): Promise<number> {
      await repo.prune(LOG_DAYS);
      const due = await repo.dueSubscriptions();
      if (due.length > 0) await deps.wake(due.map((d) => d.id));
      return due.length;
    },
  };
}
export type WebhooksService = ReturnType<typeof webhooksService>;
