import { sql } from 'drizzle-orm';
import type { DayCode } from '@flywheel/shared/clock';
import type { DigestSchedule } from '@flywheel/shared/digest';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';
import { users } from '../auth/table.ts';
import { deliveryReceipts } from '../delivery/table.ts';
import { memberEvents, slackMembers } from '../workspace-data/table.ts';
import { workspaceAdmins, workspaces } from '../workspaces/table.ts';
import { digestDeliveries, digestSubscriptions } from './table.ts';

export type Subscription = {
  email: boolean;
  slack_dm: boolean;
  day: DayCode;
  hour: number;
  enabled_at: string;
};
export type DueSubscription = {
  team_id: string;
  user_id: string;
  email: boolean;
  slack_dm: boolean;
  day: DayCode;
  hour: number;
  enabled_at: string;
  timezone: string;
};
export type DeliveryRow = {
  team_id: string;
  user_id: string;
  week_start: string;
  attempts: number;
  email_sent_at: string | null;
  slack_receipt_id: number | null;
  error: string | null;
};
export type NamedMember = { member_id: string; name: string };
export type SendsRow = { count: number; recipients: number; sent: number; failed: number };
export type FailedSend = { receipt_id: number; description: string; total: number; failed: number };

/** The idempotency key of a digest's Slack DM (its receipt): one per admin, workspace and week. */
export const digestSendKey = (teamId: string, userId: string, weekStart: string) =>
  `digest:${teamId}:${userId}:${weekStart}`;

const NAME = sql.raw(`coalesce(nullif(m.display_name, ''), nullif(m.real_name, ''), m.member_id)`);

export const digestRepo = (db: Db) => ({
  async subscription(teamId: string, userId: string): Promise<Subscription | null> {
    return (
      (await firstRow<Subscription>(
        db,
        sql`select email, slack_dm, day, hour, enabled_at::text from ${digestSubscriptions}
          where team_id = ${teamId} and user_id = ${userId}`,
      )) ?? null
    );
  },

  /** Turning either on (from both off) moves `enabled_at` to now: only digests due from now on go out. */
  async subscribe(
    teamId: string,
    userId: string,
    email: boolean,
    slackDm: boolean,
    schedule: DigestSchedule,
  ): Promise<void> {
    await db.execute(sql`insert into ${digestSubscriptions} (team_id, user_id, email, slack_dm, day, hour)
      values (${teamId}, ${userId}, ${email}, ${slackDm}, ${schedule.day}, ${schedule.hour})
      on conflict (team_id, user_id) do update set email = excluded.email, slack_dm = excluded.slack_dm,
        day = excluded.day, hour = excluded.hour, updated_at = now(),
        enabled_at = case when not (${digestSubscriptions}.email or ${digestSubscriptions}.slack_dm)
          then now() else ${digestSubscriptions}.enabled_at end`);
  },

  /** A first subscription, when the admin has none yet (a choice they made is kept). */
  subscribeIfNew: (teamId: string, userId: string, email: boolean, slackDm: boolean) =>
    db.execute(sql`insert into ${digestSubscriptions} (team_id, user_id, email, slack_dm)
      values (${teamId}, ${userId}, ${email}, ${slackDm}) on conflict do nothing`),

  /** Every subscription with something on, of a connected workspace, with the workspace's timezone. */
  async active(): Promise<DueSubscription[]> {
    return typedRows<DueSubscription>(
      db,
      sql`select s.team_id, s.user_id, s.email, s.slack_dm, s.day, s.hour, s.enabled_at::text, w.timezone
        from ${digestSubscriptions} s join ${workspaces} w on w.team_id = s.team_id
        where (s.email or s.slack_dm) and w.status = 'active'
        order by s.team_id, s.user_id`,
    );
  },

  /** Claims one week of one subscription: true for the one caller that made the row. */
  async claim(teamId: string, userId: string, weekStart: string): Promise<boolean> {
    const rows = await typedRows<{ ok: number }>(
      db,
      sql`insert into ${digestDeliveries} (team_id, user_id, week_start) values (${teamId}, ${userId}, ${weekStart})
        on conflict do nothing returning 1 as ok`,
    );
    return rows.length > 0;
  },

  /**
   * Claims again the unfinished deliveries whose claim is older than `staleSeconds` (their process died or the
   * mail server refused), fewer than `maxAttempts` times: each row goes to one caller.
   */
  async reclaimStale(staleSeconds: number, maxAttempts: number): Promise<DeliveryRow[]> {
    return typedRows<DeliveryRow>(
      db,
      sql`update ${digestDeliveries} d set claimed_at = now(), attempts = d.attempts + 1
        where d.done_at is null and d.attempts < ${maxAttempts}
          and d.claimed_at < now() - make_interval(secs => ${staleSeconds})
        returning d.team_id, d.user_id, d.week_start::text, d.attempts, d.email_sent_at::text,
          d.slack_receipt_id, d.error`,
    );
  },

  async delivery(teamId: string, userId: string, weekStart: string): Promise<DeliveryRow | null> {
    return (
      (await firstRow<DeliveryRow>(
        db,
        sql`select team_id, user_id, week_start::text, attempts, email_sent_at::text, slack_receipt_id, error
          from ${digestDeliveries} where team_id = ${teamId} and user_id = ${userId} and week_start = ${weekStart}`,
      )) ?? null
    );
  },

  markEmailSent: (teamId: string, userId: string, weekStart: string) =>
    db.execute(sql`update ${digestDeliveries} set email_sent_at = now()
      where team_id = ${teamId} and user_id = ${userId} and week_start = ${weekStart}`),

  markSlackQueued: (teamId: string, userId: string, weekStart: string, receiptId: number) =>
    db.execute(sql`update ${digestDeliveries} set slack_receipt_id = ${receiptId}
      where team_id = ${teamId} and user_id = ${userId} and week_start = ${weekStart}`),

  /** Done: nothing more to send for that week (`note`: what was left out, and why). */
  finish: (teamId: string, userId: string, weekStart: string, note: string | null) =>
    db.execute(sql`update ${digestDeliveries} set done_at = now(), error = ${note}
      where team_id = ${teamId} and user_id = ${userId} and week_start = ${weekStart}`),

  /** Not done: the claim stays, taken again after its time (reclaimStale). */
  fail: (teamId: string, userId: string, weekStart: string, error: string) =>
    db.execute(sql`update ${digestDeliveries} set error = ${error}
      where team_id = ${teamId} and user_id = ${userId} and week_start = ${weekStart}`),

  async history(teamId: string, userId: string, limit: number): Promise<DeliveryRow[]> {
    return typedRows<DeliveryRow>(
      db,
      sql`select team_id, user_id, week_start::text, attempts, email_sent_at::text, slack_receipt_id, error
        from ${digestDeliveries} where team_id = ${teamId} and user_id = ${userId}
        order by week_start desc limit ${limit}`,
    );
  },

  /** The admin's account (e-mail, name) and their Slack user in the workspace, if they still administer it. */
  async recipient(
    teamId: string,
    userId: string,
  ): Promise<{ email: string; username: string; slack_user_id: string | null } | null> {
    return (
      (await firstRow(
        db,
        sql`select u.email, u.username, a.slack_user_id from ${workspaceAdmins} a join ${users} u on u.id = a.user_id
          where a.team_id = ${teamId} and a.user_id = ${userId}`,
      )) ?? null
    );
  },

  /** Members who joined in [from, to) (not bots), newest first: how many and the first `limit`. */
  async joined(teamId: string, from: Date, to: Date, limit: number) {
    return named(
      db,
      sql`select e.member_id, ${NAME} as name, max(e.at) as at
        from ${memberEvents} e join ${slackMembers} m on m.team_id = e.team_id and m.member_id = e.member_id
        where e.team_id = ${teamId} and e.kind = 'join' and not m.is_bot
          and e.at >= ${from.toISOString()}::timestamptz and e.at < ${to.toISOString()}::timestamptz
        group by e.member_id, name`,
      limit,
    );
  },

  /** The sends started in [from, to), without the digests' own DMs: totals and those with failures. */
  async sends(
    teamId: string,
    from: Date,
    to: Date,
    limit: number,
  ): Promise<SendsRow & { failures: FailedSend[] }> {
    const where = sql`team_id = ${teamId} and created_at >= ${from.toISOString()}::timestamptz
      and created_at < ${to.toISOString()}::timestamptz
      and (idempotency_key is null or idempotency_key not like 'digest:%')`;
    const totals = await firstRow<SendsRow>(
      db,
      sql`select count(*)::int as count, coalesce(sum(total), 0)::int as recipients,
          coalesce(sum(sent), 0)::int as sent, coalesce(sum(failed), 0)::int as failed
        from ${deliveryReceipts} where ${where}`,
    );
    const failures = await typedRows<FailedSend>(
      db,
      sql`select id::int as receipt_id, description, total, failed from ${deliveryReceipts}
        where ${where} and failed > 0 order by failed desc, id desc limit ${limit}`,
    );
    return { ...(totals ?? { count: 0, recipients: 0, sent: 0, failed: 0 }), failures };
  },
});

async function named(runner: Tx, query: ReturnType<typeof sql>, limit: number) {
  const [count] = await typedRows<{ n: number }>(runner, sql`select count(*)::int as n from (${query}) q`);
  const members = await typedRows<NamedMember>(
    runner,
    sql`select member_id, name from (${query}) q order by at desc, member_id limit ${limit}`,
  );
  return { count: count?.n ?? 0, members };
}

export type DigestRepo = ReturnType<typeof digestRepo>;
