import type { Logger } from '../../lib/logger.ts';
import type { Pacing } from './pacing.ts';
import type { ClaimedRecipient, DeliveryRunnerRepo } from './runner-repo.ts';
import type { DeliveryConfig, Outcome } from './engine.ts';

/** Sends one job keeps in flight for a workspace (each reserves its own paced slot first). */
const LANES = 3;
/** The longest a claimed channel post waits for its channel's slot (the lease covers it and the call). */
const CHANNEL_WAIT_MS = 5_000;
/** How often a slice asks whether another workspace waits for its worker. */
const YIELD_CHECK_MS = 1_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A slice of a workspace's sending (the engine's loop, engine.ts): a few lanes, each taking the workspace's paced
 * slot, then a claimed recipient (a channel post its channel's slot too) and its attempt, until the slice's time
 * is up, the pace would wait too long, nothing is due, or another workspace waits for this worker.
 */
export function engineSlice(deps: {
  repo: DeliveryRunnerRepo;
  pacing: Pacing;
  config: DeliveryConfig;
  logger: Logger;
  /** The engine's attempt at one recipient: what an error means, the attempt, and its outcome recorded. */
  classify: (err: unknown, attempt: number) => Outcome;
  deliver: (r: ClaimedRecipient) => Promise<Outcome>;
  record: (r: ClaimedRecipient, o: Outcome) => Promise<void>;
}) {
  const { repo, pacing, config, logger, classify, deliver, record } = deps;

  return {
    /**
     * Works through a workspace's due recipients for about `budgetMs`, then answers how long until its next
     * open recipient is due (null: none left), so the job can come back then. `yieldWhen` (asked about once a
     * second) ends the slice early when it answers true: another workspace waits for this worker.
     */
    async run(
      teamId: string,
      budgetMs: number,
      opts: { yieldWhen?: () => Promise<boolean> } = {},
    ): Promise<{ delivered: number; nextDueMs: number | null; yielded: boolean }> {
      const until = Date.now() + budgetMs;
      let delivered = 0;
      let paceWaitMs = 0;
      let paced = false;
      let yielded = false;
      let nextAsk = Date.now() + YIELD_CHECK_MS;
      let asking = false;
      /** Whether to hand over now (one lane asks at a time, at most once per YIELD_CHECK_MS). */
      const handOver = async () => {
        if (!opts.yieldWhen || asking || Date.now() < nextAsk) return yielded;
        asking = true;
        try {
          if (await opts.yieldWhen()) yielded = true;
        } finally {
          nextAsk = Date.now() + YIELD_CHECK_MS;
          asking = false;
        }
        return yielded;
      };
      // A few sends in flight at once: the pace is the workspace's, not one call's round trip (Slack's latency
      // and the bookkeeping around each call would otherwise cap a sender below a high ceiling).
      const lane = async () => {
        while (!paced && !yielded && Date.now() < until) {
          if (await handOver()) break;
          // The workspace's slot first, so a row's lease starts only when it may go.
          const at = await pacing.reserve(teamId, [
            { key: 'chat.postMessage', perMinute: config.postsPerMinute },
          ]);
          if (at - Date.now() > config.maxPaceWaitMs) {
            paceWaitMs = Math.max(paceWaitMs, at - Date.now());
            paced = true;
            break;
          }
          if (at > Date.now()) await sleep(at - Date.now());
          const r = await repo.claim(teamId, config.leaseSeconds);
          if (!r) {
            // Nothing due now: wait here for a retry due within this slice, else hand over to a later job.
            const next = await repo.nextDueMs(teamId);
            if (next === null || Date.now() + next >= until) break;
            await sleep(Math.max(10, next));
            continue;
          }
          if (r.kind === 'channel') {
            // About one post per second per channel; a busier channel waits its turn without holding the row.
            const slot = await pacing.reserve(teamId, [
              { key: `chat.postMessage:${r.target_id}`, perMinute: config.channelPostsPerMinute },
            ]);
            if (slot - Date.now() > CHANNEL_WAIT_MS) {
              await repo.release(r, new Date(slot));
              continue;
            }
            if (slot > Date.now()) await sleep(slot - Date.now());
          }
          let outcome: Outcome;
          try {
            outcome = await deliver(r);
          } catch (err) {
            logger.error({ err, recipient: r.id }, 'delivery attempt failed unexpectedly');
            outcome = classify(err, r.attempts);
          }
          await record(r, outcome);
          delivered++;
        }
      };
      await Promise.all(Array.from({ length: LANES }, lane));
      const nextDue = await repo.nextDueMs(teamId);
      return { delivered, nextDueMs: nextDue === null ? null : Math.max(nextDue, paceWaitMs), yielded };
    },
  };
}
