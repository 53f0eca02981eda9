import {
  DEFAULT_DIGEST_SCHEDULE,
  dueWeek,
  nextSendAt,
  weekOfDay,
  type DigestSchedule,
  type DigestSettingsResponse,
} from '@flywheel/shared/digest';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { ConversationsService } from '../conversations/service.ts';
import type { DeliveryService } from '../delivery/service.ts';
import type { Mailer } from '../mail/service.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { digestComposer } from './compose.ts';
import { digestMail, digestSlackText, weekLabel } from './render.ts';
import { digestRepo, digestSendKey, type DeliveryRow } from './repo.ts';

/** A claim older than this (its process died, or the mail server refused) is taken again by a later tick. */
export const DIGEST_CLAIM_SECONDS = 600;
/** Tries per digest before it is given up (the error stays on the row, shown on the settings page). */
export const DIGEST_MAX_ATTEMPTS = 5;
const HISTORY_WEEKS = 8;

export type DigestService = ReturnType<typeof digestService>;

/**
 * The weekly digest (docs/product/digest.md): the caller's subscription, the preview, and `runDue`, the minute
 * tick's work. Once per admin, workspace and week whatever the number of workers: the tick claims the week with
 * one insert (the primary key makes it one), then sends the e-mail (marked when the mail server took it) and
 * queues the Slack DM through the delivery engine with a key of its own (one receipt, sent once).
 */
export function digestService(deps: {
  db: Db;
  workspaces: WorkspacesService;
  conversations: ConversationsService;
  delivery: DeliveryService;
  mailer: Mailer;
  /** Where the digest's links lead (PUBLIC_URL, else this server's own address). */
  origin: string;
  logger: Logger;
  now?: () => number;
}) {
  const repo = digestRepo(deps.db);
  const now = deps.now ?? Date.now;
  const composer = digestComposer(deps);

  async function settings(teamId: string, userId: string): Promise<DigestSettingsResponse> {
    const [sub, who, timezone, sent] = await Promise.all([
      repo.subscription(teamId, userId),
      repo.recipient(teamId, userId),
      deps.workspaces.timezone(teamId),
      repo.history(teamId, userId, HISTORY_WEEKS),
    ]);
    const schedule: DigestSchedule = sub ? { day: sub.day, hour: sub.hour } : DEFAULT_DIGEST_SCHEDULE;
    return {
      email: sub?.email ?? false,
      slack_dm: sub?.slack_dm ?? false,
      email_address: who?.email ?? '',
      ...schedule,
      slack_user_known: !!who?.slack_user_id,
      timezone,
      next_at: new Date(nextSendAt(now(), timezone, schedule)).toISOString(),
      sent: sent.map((s) => ({
        week_start: s.week_start,
        email_sent_at: s.email_sent_at ? new Date(s.email_sent_at).toISOString() : null,
        slack_receipt_id: s.slack_receipt_id,
        error: s.error,
      })),
    };
  }

  /**
   * Sends what is left of one claimed digest: the e-mail unless sent, the DM unless queued. A failure leaves the
   * claim for a later tick (after DIGEST_CLAIM_SECONDS); what was done is not done again.
   */
  async function deliver(row: DeliveryRow, composed: Map<string, ReturnType<typeof composer.compose>>) {
    const { team_id: teamId, user_id: userId, week_start: weekStart } = row;
    const [sub, who] = await Promise.all([repo.subscription(teamId, userId), repo.recipient(teamId, userId)]);
    if (!sub || !who || !(sub.email || sub.slack_dm)) {
      await repo.finish(teamId, userId, weekStart, 'Not sent: the digest was turned off, or access removed');
      return;
    }
    const tz = await deps.workspaces.timezone(teamId);
    const key = `${teamId}\n${weekStart}`;
    if (!composed.has(key))
      composed.set(key, composer.compose(teamId, weekOfDay(weekStart, tz, { day: sub.day, hour: sub.hour })));
    const notes: string[] = [];
    try {
      const digest = await composed.get(key)!;
      if (sub.email && !row.email_sent_at) {
        await deps.mailer.deliver(digestMail(who.email, who.username, digest, deps.origin));
        await repo.markEmailSent(teamId, userId, weekStart);
      }
      if (sub.slack_dm && row.slack_receipt_id === null) {
        if (!who.slack_user_id)
          notes.push('Slack DM not sent: Flywheel does not know your Slack user here (use Add as Admin)');
        else {
          const sent = await deps.delivery.send({
            teamId,
            userId: null,
            actionType: 'Direct Message',
            sender: 'bot',
            adminUser: null,
            text: digestSlackText(digest, deps.origin),
            images: [],
            audience: {
              channel_ids: [],
              dms: { members: [who.slack_user_id], tags: [], channels: [] },
              sendtoworkspace: false,
            },
            description: `Weekly digest of ${weekLabel(digest.week.start, digest.week.end)} to ${who.username}`,
            idempotencyKey: digestSendKey(teamId, userId, weekStart),
            origin: 'automation',
          });
          await repo.markSlackQueued(teamId, userId, weekStart, sent.receipt_id);
        }
      }
      await repo.finish(teamId, userId, weekStart, notes.length ? notes.join('; ') : null);
    } catch (err) {
      const message = err instanceof AppError || err instanceof Error ? err.message : String(err);
      deps.logger.warn(
        { teamId, userId, weekStart, attempt: row.attempts, err: message },
        'weekly digest not sent yet: tried again later',
      );
      await repo.fail(teamId, userId, weekStart, message.slice(0, 500));
    }
  }

  return {
    settings,

    async updateSettings(
      teamId: string,
      userId: string,
      change: { email: boolean; slack_dm: boolean; day?: DigestSchedule['day']; hour?: number },
    ) {
      if (change.slack_dm && !(await repo.recipient(teamId, userId))?.slack_user_id)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          'slack_dm needs your Slack user in this workspace: use Add as Admin to link it first',
        );
      const sub = await repo.subscription(teamId, userId);
      await repo.subscribe(teamId, userId, change.email, change.slack_dm, {
        day: change.day ?? sub?.day ?? DEFAULT_DIGEST_SCHEDULE.day,
        hour: change.hour ?? sub?.hour ?? DEFAULT_DIGEST_SCHEDULE.hour,
      });
      return settings(teamId, userId);
    },

    /** The demo admin's default (on, e-mail and Slack DM), once: what they change afterwards is kept. */
    async subscribeByDefault(teamId: string, userId: string) {
      const slack = !!(await repo.recipient(teamId, userId))?.slack_user_id;
      await repo.subscribeIfNew(teamId, userId, true, slack);
    },

    /** The digest of the week a local day falls in (default: the last whole week). */
    async preview(teamId: string, day?: string) {
      const { week } = await composer.weekFor(teamId, day);
      return composer.compose(teamId, week);
    },

    compose: composer.compose,

    /**
     * The minute tick: claims every subscription's due week not claimed yet (one insert each; the first worker's
     * wins), takes back the claims left unfinished, and sends them. Answers how many were handled.
     */
    async runDue(): Promise<number> {
      const at = now();
      const claimed: DeliveryRow[] = [];
      for (const s of await repo.active()) {
        const week = dueWeek(at, s.timezone, { day: s.day, hour: s.hour });
        // None due, or turned on after this week's digest went out: the next one is theirs.
        if (!week || Date.parse(s.enabled_at) > week.sendAt) continue;
        if (await repo.claim(s.team_id, s.user_id, week.start))
          claimed.push({
            team_id: s.team_id,
            user_id: s.user_id,
            week_start: week.start,
            attempts: 1,
            email_sent_at: null,
            slack_receipt_id: null,
            error: null,
          });
      }
      claimed.push(...(await repo.reclaimStale(DIGEST_CLAIM_SECONDS, DIGEST_MAX_ATTEMPTS)));
      const composed = new Map<string, ReturnType<typeof composer.compose>>();
      for (const row of claimed) await deliver(row, composed);
      return claimed.length;
    },
  };
}
