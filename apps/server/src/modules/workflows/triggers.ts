import { levelChangesBetween } from '../activity/levels.ts';
import { clearAttempts, countAttempts, MAX_PLAN_ATTEMPTS } from '../../lib/plan-due.ts';
import { membersActiveAgain } from '../activity/reads.ts';
import type { WorkflowRecord } from './repo.ts';
import type { Firing } from './triggers-repo.ts';
import { LOOK_BACK_MS, SCAN_EVERY_MS, iso, type WorkflowsCore } from './core.ts';

/** The clock's triggers (the workflows.tick job, jobs.ts): time, activity and inactivity triggers fire. */
export const workflowTriggers = ({ deps, repo, triggersRepo, now, wake }: WorkflowsCore) => ({
  /**
   * The clock's triggers: time triggers whose time has come fire once (late after an outage, still once), and
   * activity / inactivity triggers look for members who crossed their threshold since they last looked.
   * Each workflow is locked while it is planned, so any number of workers may run this at once.
   * `levelTeams`: workspaces where members just changed level (the levels job says so, activity/jobs.ts): their
   * Member Level triggers look now, even if they looked less than SCAN_EVERY_MS ago.
   */
  async planTriggers(opts: { levelTeams?: readonly string[] } = {}): Promise<number> {
    const at = new Date(now());
    let fired = 0;
    /** A trigger whose planning began twice and never finished (see below) is passed over, with a log line. */
    const wedged = (kind: string, w: WorkflowRecord, tried: number) => {
      if (tried <= MAX_PLAN_ATTEMPTS) return false;
      deps.logger.error(
        { kind, id: w.id, teamId: w.team_id, at: iso(at), attempts: tried - 1 },
        'a workflow trigger whose planning never finished twice is skipped (see due_attempts)',
      );
      return true;
    };
    // Never wedged twice (as lib/plan-due.ts does for schedules): each planning is counted in a short
    // transaction of its own before it begins (due_attempts), and its own transaction clears the count. One
    // begun twice and never finished (the process was killed, or stopped answering, inside it: on PGlite a
    // long look at a big workspace's activity holds the one connection) is passed over the next time. Each
    // transaction's first steps written with a delay wake a sender at their time once it commits (the tick's
    // own senders send those due now).
    const timeKey = (w: WorkflowRecord) => `${w.id}@${iso(w.trigger_at!)}`;
    const counted = await repo.transaction(async (tx) =>
      countAttempts(tx, 'workflow-time', (await triggersRepo.lockDueTimeTriggers(tx, at, 100)).map(timeKey)),
    );
    if (counted.size > 0) {
      const timed = await repo.transaction(async (tx) => {
        const due = await triggersRepo.lockDueTimeTriggers(tx, at, 100);
        const firing = due.filter((w) => !wedged('workflow-time', w, counted.get(timeKey(w)) ?? 1));
        const times = await triggersRepo.fire(
          tx,
          firing.map((w) => ({ workflowId: w.id, key: 'time', memberId: null, at: w.trigger_at! })),
        );
        // A passed-over trigger is marked fired too: a time trigger fires once or not at all.
        await triggersRepo.markFired(
          tx,
          due.map((w) => w.id),
          at,
        );
        await clearAttempts(tx, 'workflow-time', due.map(timeKey));
        return times;
      });
      fired += timed.length;
      await wake(timed);
    }
    const before = new Date(at.getTime() - SCAN_EVERY_MS);
    const levelsNow = opts.levelTeams?.length ? { teams: opts.levelTeams, at } : undefined;
    const scanKey = (w: WorkflowRecord) => `${w.id}@${iso(w.scanned_at ?? w.since)}`;
    for (;;) {
      const attempt = await repo.transaction(async (tx) => {
        const [w] = await triggersRepo.lockActivityTriggers(tx, before, 1, undefined, levelsNow);
        if (!w) return null;
        const key = scanKey(w);
        return { id: w.id, key, tried: (await countAttempts(tx, 'workflow-scan', [key])).get(key) ?? 1 };
      });
      if (!attempt) break;
      const times = await repo.transaction(async (tx) => {
        const [w] = await triggersRepo.lockActivityTriggers(tx, before, 1, attempt.id, levelsNow);
        await clearAttempts(tx, 'workflow-scan', [attempt.key]);
        // Another worker looked at it meanwhile (or holds it): nothing to do here.
        if (!w || scanKey(w) !== attempt.key) return [];
        if (wedged('workflow-scan', w, attempt.tried)) {
          // Passed over: the crossings since its last look are not fired; it looks again from now on.
          await triggersRepo.markScanned(tx, w.id, at);
          return [];
        }
        // From the later of when it started watching and a little before it last looked (late data).
        const from = new Date(
          Math.max(Date.parse(w.since), w.scanned_at ? Date.parse(w.scanned_at) - LOOK_BACK_MS : 0),
        );
        let firings: Firing[];
        if (w.trigger_type === 'level_change')
          firings = (await levelChangesBetween(tx, w.team_id, w.level ?? 'slipping', from, at)).map((c) => ({
            workflowId: w.id,
            key: `level:${c.member_id}:${c.id}`,
            memberId: c.member_id,
            at: iso(at),
          }));
        else if (w.trigger_type === 'inactivity')
          firings = (await triggersRepo.crossedInactivity(tx, w.team_id, w.days ?? 0, from, at)).map((m) => ({
            workflowId: w.id,
            key: `inactive:${m.member_id}:${m.last}`,
            memberId: m.member_id,
            at: iso(at),
          }));
        else
          firings = (
            await membersActiveAgain(tx, w.team_id, w.days ?? 0, from, await deps.timezoneOf(w.team_id, tx))
          ).map((m) => ({
            workflowId: w.id,
            key: `active:${m.member_id}:${m.day}`,
            memberId: m.member_id,
            at: iso(at),
          }));
        const written = await triggersRepo.fire(tx, firings);
        await triggersRepo.markScanned(tx, w.id, at);
        return written;
      });
      fired += times.length;
      await wake(times);
    }
    return fired;
  },
});
