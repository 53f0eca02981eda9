import { sql } from 'drizzle-orm';
import { nextRun, recurrenceOf, type DayCode } from '@flywheel/shared/clock';
import {
  pollBallotOf,
  RECURRING_POLL_TEXTS,
  type createRecurringPollBody,
  type Poll,
  type RecurringPoll,
} from '@flywheel/shared/polls';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { firstRow, typedRows, type Tx } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { planDue } from '../../lib/plan-due.ts';
import type { AudienceService } from '../audience/service.ts';
import { POLL_RECORD_COLUMNS, type PollRecord } from './repo.ts';
import type { PollBallot, PollOptionRecord } from './table.ts';

type CreateBody = z.output<typeof createRecurringPollBody>;

type RecurrenceRecord = {
  id: number;
  team_id: string;
  question: string;
  html: string;
  images: string[];
  options: PollOptionRecord[];
  channel_ids: string[];
  sender: 'bot' | 'admin';
  admin_user: string | null;
  created_by: string;
  created_by_user: string | null;
  voting: 'emoji' | 'buttons';
  ballot: PollBallot | null;
  frequency: 'Everyday' | 'Weekly';
  days: string[];
  time: string;
  duration_hours: number;
  next_run_at: string | null;
  created_at: string;
};

const COLUMNS = sql.raw(`r.id, r.team_id, r.question, r.html, r.images, r.options, r.channel_ids, r.sender,
  r.admin_user, r.created_by, r.created_by_user, r.voting, r.ballot, r.frequency, r.days, r.time, r.duration_hours,
  r.next_run_at::text as next_run_at, r.created_at::text as created_at`);
/** The newest occurrences listed per recurring poll. */
const LISTED_INSTANCES = 100;
const json = (v: unknown) => JSON.stringify(v);

const recurrence = (r: Pick<RecurrenceRecord, 'frequency' | 'time' | 'days'>) =>
  recurrenceOf({ frequency: r.frequency, time: r.time, days: r.days, at: null });

/**
 * Recurring polls: created with what each occurrence posts (emoji or button voting, with a one-off poll's
 * settings) and when (Every Day or Weekly at a time in the workspace's timezone); `plan` (the minute tick) turns
 * each due run into a scheduled poll of its own with the shared planner, one per recurring poll and run time
 * whatever number of workers tick; the polls tick then posts it like any scheduled poll, so its results, details
 * and export are the poll's own.
 */
export function recurringPolls(deps: {
  db: Db;
  audience: AudienceService;
  timezoneOf: (teamId: string, tx?: Tx) => Promise<string>;
  /** A run planned later than this is skipped (the product was down); the next is planned from now. */
  graceMs: number;
  logger: Logger;
  now: () => number;
  adminName: (teamId: string, memberId: string) => Promise<string | null>;
  channelNames: (teamId: string, ids: string[]) => Promise<Map<string, string>>;
  toPolls: (teamId: string, records: PollRecord[]) => Promise<Poll[]>;
}) {
  const db = deps.db;

  async function toRecurring(teamId: string, rows: RecurrenceRecord[]): Promise<RecurringPoll[]> {
    const ids = rows.map((r) => r.id);
    const instances = ids.length
      ? await typedRows<PollRecord & { recurrence_id: number }>(
          db,
          sql`select * from (select ${POLL_RECORD_COLUMNS}, recurrence_id,
                row_number() over (partition by recurrence_id order by post_at desc, id desc) as n
              from polls where team_id = ${teamId} and deleted_at is null
                and recurrence_id in (select jsonb_array_elements_text(${json(ids)}::jsonb)::int)) x
            where n <= ${LISTED_INSTANCES} order by post_at desc, id desc`,
        )
      : [];
    const polls = new Map((await deps.toPolls(teamId, instances)).map((p) => [p.id, p]));
    const names = await deps.channelNames(teamId, [...new Set(rows.flatMap((r) => r.channel_ids))]);
    return rows.map((r) => ({
      id: r.id,
      question: r.question,
      htmlquestion: r.html,
      created_by: r.created_by,
      sender: r.sender,
      admin_user: r.admin_user,
      channel_ids: r.channel_ids,
      channels: r.channel_ids.map((id) => names.get(id) ?? id),
      options: r.options,
      voting: r.voting,
      anonymous: r.ballot?.anonymous ?? false,
      multiple: r.ballot?.multiple ?? false,
      max_choices: r.ballot?.max_choices ?? null,
      allow_add: r.ballot?.allow_add ?? false,
      results: r.ballot?.results ?? 'live',
      frequency: r.frequency,
      days: r.days as DayCode[],
      time: r.time,
      schedule:
        r.frequency === 'Everyday' ? `Every Day at ${r.time}` : `Weekly (${r.days.join(', ')}) at ${r.time}`,
      duration_hours: r.duration_hours,
      next_run: r.next_run_at ? new Date(r.next_run_at).toISOString() : null,
      instances: instances
        .filter((i) => i.recurrence_id === r.id)
        .map((i) => {
          const p = polls.get(i.id)!;
          return { poll_id: p.id, post_at: p.post_at, state: p.state, total_votes: p.total_votes };
        }),
      created_at: new Date(r.created_at).toISOString(),
    }));
  }

  const list = (teamId: string, id?: number) =>
    typedRows<RecurrenceRecord>(
      db,
      sql`select ${COLUMNS} from poll_recurrences r where r.team_id = ${teamId} and r.deleted_at is null
        ${id === undefined ? sql`` : sql`and r.id = ${id}`} order by r.id desc limit 500`,
    );

  return {
    async create(userId: string | null, b: CreateBody): Promise<RecurringPoll> {
      // The channels must be this workspace's (a 400 naming the unknown ones otherwise).
      await deps.audience.resolve(b.team_id, {
        channel_ids: b.channel_ids,
        dms: { members: [], tags: [], channels: [] },
        sendtoworkspace: false,
      });
      const days = b.frequency === 'Weekly' ? [...new Set(b.days)] : [];
      const rec = recurrence({ frequency: b.frequency, time: b.time, days });
      const tz = await deps.timezoneOf(b.team_id);
      const next = rec ? nextRun(rec, deps.now(), tz) : null;
      if (next === null) throw new AppError('VALIDATION_ERROR', 400, RECURRING_POLL_TEXTS.time);
      const adminName =
        b.sender === 'admin' && b.admin_user ? await deps.adminName(b.team_id, b.admin_user) : null;
      const ballot = pollBallotOf(b);
      const row = await firstRow<{ id: number }>(
        db,
        sql`insert into poll_recurrences (team_id, question, html, images, options, channel_ids, sender, admin_user,
            created_by, created_by_user, voting, ballot, frequency, days, time, duration_hours, next_run_at)
          values (${b.team_id}, ${b.poll_question}, ${b.htmlquestion ?? ''}, ${json(b.images)}::jsonb,
            ${json(
              b.options.map((o) => ({
                emoji: o.emoji.trim(),
                emoji_code: o.emoji_code.replace(/^:|:$/g, ''),
                value: o.value.trim(),
              })),
            )}::jsonb, ${json([...new Set(b.channel_ids)])}::jsonb, ${b.sender},
            ${b.sender === 'admin' ? (b.admin_user ?? null) : null},
            ${b.created_by?.trim() || (b.sender === 'bot' ? 'Bot' : (adminName ?? 'Admin'))}, ${userId},
            ${b.voting}, ${ballot ? json(ballot) : null}::jsonb, ${b.frequency}, ${json(days)}::jsonb, ${b.time}, ${b.duration_hours},
            ${new Date(next).toISOString()}::timestamptz)
          returning id`,
      );
      const [made] = await toRecurring(b.team_id, await list(b.team_id, row!.id));
      return made!;
    },

    async list(teamId: string): Promise<RecurringPoll[]> {
      return toRecurring(teamId, await list(teamId));
    },

    /** Stops a recurring poll: no later occurrence is planned or posted; the polls it posted stay. */
    async remove(teamId: string, id: number): Promise<void> {
      const rows = await typedRows<{ id: number }>(
        db,
        sql`update poll_recurrences set deleted_at = now(), next_run_at = null
          where team_id = ${teamId} and id = ${id} and deleted_at is null returning id`,
      );
      if (rows.length === 0) throw notFound('No such recurring poll in this workspace');
    },

    /**
     * Turns due runs into scheduled polls (posted by the same tick's postDue), with the shared planner: one
     * transaction per batch locks the recurring polls (another worker skips them), a run too late is skipped,
     * and the next run is computed from now in the workspace's timezone.
     */
    async plan(): Promise<number> {
      return planDue<RecurrenceRecord & { late_ms: number }>({
        db,
        kind: 'poll',
        now: deps.now,
        graceMs: deps.graceMs,
        timezoneOf: deps.timezoneOf,
        logger: deps.logger,
        recurrence,
        lock: (tx, limit, at) =>
          typedRows<RecurrenceRecord & { late_ms: number }>(
            tx,
            sql`select ${COLUMNS},
                (extract(epoch from (${at.toISOString()}::timestamptz - r.next_run_at)) * 1000)::float8 as late_ms
              from poll_recurrences r
              where r.deleted_at is null and r.next_run_at is not null and r.next_run_at <= ${at.toISOString()}::timestamptz
              order by r.next_run_at limit ${limit} for update skip locked`,
          ),
        write: async (tx, runs) => {
          for (const run of runs) {
            const r = run.row;
            if (run.status === 'due') {
              const ends = new Date(Date.parse(run.at) + r.duration_hours * 3_600_000).toISOString();
              await tx.execute(sql`insert into polls (team_id, question, html, images, options, channel_ids, sender,
                  admin_user, type, created_by, created_by_user, post_at, expires_at, recurrence_id, voting, ballot)
                values (${r.team_id}, ${r.question}, ${r.html}, ${json(r.images)}::jsonb, ${json(r.options)}::jsonb,
                  ${json(r.channel_ids)}::jsonb, ${r.sender}, ${r.admin_user}, 'scheduled', ${r.created_by},
                  ${r.created_by_user}, ${run.at}::timestamptz, ${ends}::timestamptz, ${r.id}, ${r.voting},
                  ${r.ballot ? json(r.ballot) : null}::jsonb)
                on conflict (recurrence_id, post_at) do nothing`);
            } else deps.logger.warn({ recurringPoll: r.id, at: run.at }, 'recurring poll run skipped (late)');
            await tx.execute(sql`update poll_recurrences set next_run_at = ${run.next}::timestamptz,
                last_run_at = ${run.at}::timestamptz where id = ${r.id}`);
          }
        },
      });
    },
  };
}
export type RecurringPolls = ReturnType<typeof recurringPolls>;
