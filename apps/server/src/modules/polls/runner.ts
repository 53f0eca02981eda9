import { AppError } from '../../lib/errors.ts';
import { LEASE_MS, SETTLE_RETRY_MS, type PollsCore } from './core.ts';

/** The polls' due work, run by their jobs (jobs.ts): scheduled posts, closes at the end, refreshes, removals. */
export const pollRunner = ({
  deps,
  repo,
  runnerRepo,
  now,
  post,
  settle,
  showResults,
  emitClosed,
}: PollsCore) => ({
  /**
   * Posts the scheduled polls whose time has come (the minute tick), each once. Never wedged twice without a
   * count (unlike lib/plan-due.ts): a poll is claimed for LEASE_MS by one statement that commits at once and is
   * posted outside any transaction, so a process stuck or killed here holds nothing; the claim lapses, the next
   * tick takes it again, and its send's key finds its receipt. closeDue claims the same way.
   */
  async postDue(): Promise<number> {
    const due = await runnerRepo.claimToPost(now(), LEASE_MS);
    for (const p of due) {
      try {
        await post(p, null, 'automation');
      } catch (err) {
        if (err instanceof AppError && err.statusCode < 500) {
          // It cannot be posted as set up (the admin gone, a channel deleted): closed, not tried again.
          deps.logger.warn({ poll: p.id, err: err.message }, 'scheduled poll not posted; closed');
          await runnerRepo.markUnposted(p.id, now());
        } else {
          deps.logger.error({ err, poll: p.id }, 'scheduled poll post failed; tried again at the next tick');
          await runnerRepo.release(p.id);
        }
      }
    }
    return due.length;
  },

  /**
   * Closes the polls whose end has come (one, or all due): each is closed exactly once (claimed in the
   * database), and its messages then show the final results. Answers how many this call closed.
   */
  async closeDue(pollId?: number): Promise<number> {
    const claimed = await runnerRepo.claimToClose(now(), LEASE_MS, { pollId });
    let closed = 0;
    for (const p of claimed) {
      if (p.first) closed++;
      try {
        await settle(p);
        await showResults(p);
        await runnerRepo.markFinal(p.id, now());
        await emitClosed(p.id, p.team_id);
      } catch (err) {
        deps.logger.warn({ err, poll: p.id }, 'final poll results not shown yet; tried again later');
        await runnerRepo.release(p.id);
      }
    }
    return closed;
  },

  /** The refresh job: records the poll's messages and shows its counts; false when the poll is gone. */
  async refresh(pollId: number): Promise<boolean> {
    const p = await repo.byId(pollId);
    if (!p || p.deleted_at || p.final_at) return false;
    const pending = await settle(p);
    await showResults(p);
    if (pending) await deps.jobs.refresh(p.id, SETTLE_RETRY_MS);
    return true;
  },

  /** The remove job: deletes a deleted poll's messages from Slack, then the poll; false to try again later. */
  async removeMessages(pollId: number): Promise<boolean> {
    const p = await repo.byId(pollId);
    if (!p) return true;
    if (!p.deleted_at) return true;
    if (p.receipt_id !== null) {
      if (await settle(p)) return false; // still posting: its messages are removed once they are all there
    }
    for (const m of await runnerRepo.messages(p.id))
      await deps.delivery.deletePosted(p.team_id, {
        sender: p.sender,
        adminUser: p.admin_user,
        channel: m.channel,
        ts: m.ts,
      });
    await repo.hardDelete(p.id);
    return true;
  },

  /** Deleted polls whose messages wait for removal (the tick retries them). */
  deletedIds: () => runnerRepo.deletedIds(),
});
