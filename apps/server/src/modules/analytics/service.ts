import {
  WORD_CLOUD_MAX,
  type ActivityRow,
  type ChannelActivity,
  type MemberActivity,
  type MembersChangeRow,
  type SummaryCard,
  type WordCloudItem,
} from '@flywheel/shared/analytics';
import type { ActivityFilter, TimeFilter } from '@flywheel/shared/members';
import type { Db } from '../../db/client.ts';
import { activityMatch, addDays, dayRange } from '../members-list/service.ts';
import { localDay } from '../../lib/days.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { activityReads, type Counts, type MemberTotalsRow, type Window } from '../activity/reads.ts';
import type { CohortsQuery } from '@flywheel/shared/cohorts';
import { joinCohortGrid } from './cohorts.ts';

export type AnalyticsService = ReturnType<typeof analyticsService>;

/** Every local day from..to inclusive. */
export function daysOf(fromDay: string, toDay: string): string[] {
  const out: string[] = [];
  for (let d = fromDay; d <= toDay; d = addDays(d, 1)) out.push(d);
  return out;
}

/**
 * Change of `cur` against `prev` as an unsigned percent (one decimal) and a sign; from 0 to n>0 is +100 and
 * says 'new'. When the period before starts before the history Flywheel holds (`prevFrom` before
 * `historyStart`, both local days), the percent would compare with days Slack never gave: 'incomplete'.
 */
export function change(
  name: string,
  cur: number,
  prev: number,
  history?: { prevFrom: string; historyStart: string | null },
): SummaryCard {
  const raw = prev === 0 ? (cur === 0 ? 0 : 100) : ((cur - prev) / prev) * 100;
  const card: SummaryCard = {
    name,
    val: cur,
    percent: Math.round(Math.abs(raw) * 10) / 10,
    sign: cur >= prev ? '+' : '-',
    comparison: prev === 0 && cur > 0 ? 'new' : 'change',
  };
  if (history && (history.historyStart === null || history.prevFrom < history.historyStart))
    return { ...card, comparison: 'incomplete', history_start: history.historyStart };
  return card;
}

/** Slot keys of an Activity Trends slot size: 2 -> "00-02", "02-04", ... "22-24". */
export function slotKeys(slot: number): string[] {
  const pad = (n: number) => String(n).padStart(2, '0');
  const keys: string[] = [];
  for (let h = 0; h < 24; h += slot) keys.push(`${pad(h)}-${pad(h + slot)}`);
  return keys;
}

const total = (c: Counts) => c.messages + c.replies + c.reactions;
const zero = (): Counts => ({ messages: 0, replies: 0, reactions: 0 });

export function toMemberActivity(r: MemberTotalsRow): MemberActivity {
  const display = r.display_name || r.real_name;
  return {
    member_id: r.member_id,
    real_name: r.real_name,
    display_name: display,
    first_name: (r.real_name || r.display_name).trim().split(/\s+/)[0] ?? '',
    email: r.email,
    messages: r.messages,
    replies: r.replies,
    reactions: r.reactions,
    activity: total(r),
  };
}

/**
 * Home and Analytics numbers, all from the rollups and all in the workspace's timezone. A window is a set of
 * whole local days; the Home cards use local hours.
 */
export const analyticsService = (deps: { db: Db; workspaces: WorkspacesService }) => {
  const repo = activityReads(deps.db);

  async function tzOf(teamId: string): Promise<string> {
    return await deps.workspaces.timezone(teamId);
  }
  async function windowOf(teamId: string, tf: TimeFilter | undefined, now: Date): Promise<Window> {
    const today = localDay(now, await tzOf(teamId));
    return { teamId, ...dayRange(tf, today) };
  }

  /** Per-day workspace totals, every day of the window present. */
  async function activityPerDay(w: Window): Promise<ActivityRow[]> {
    const byDay = new Map((await repo.perDay(w)).map((r) => [r.day, r]));
    return daysOf(w.fromDay, w.toDay).map((day) => {
      const c = byDay.get(day) ?? zero();
      return { date_of_data: day, messages: c.messages, replies: c.replies, reactions: c.reactions };
    });
  }

  type MembersOptions = {
    channels?: string[];
    tags?: number[];
    filter?: ActivityFilter | null;
    limit?: number;
    offset?: number;
  };
  /** One page of members with their totals, most active first, and how many match in all. */
  async function membersPage(teamId: string, tf: TimeFilter, opts: MembersOptions, now = new Date()) {
    const w = await windowOf(teamId, tf, now);
    const query = {
      channels: opts.channels?.length ? [...new Set(opts.channels)] : null,
      tags: opts.tags?.length ? [...new Set(opts.tags)] : null,
      match: activityMatch(opts.filter),
    };
    const rows = await repo.memberTotals(w, { ...query, limit: opts.limit, offset: opts.offset });
    // Past the last page no row carries the count: ask for the first row to learn it.
    const total =
      rows[0]?.total ??
      (opts.offset ? ((await repo.memberTotals(w, { ...query, limit: 1 }))[0]?.total ?? 0) : 0);
    return { rows: rows.map(toMemberActivity), total };
  }

  return {
    tzOf,
    windowOf,
    activityPerDay,

    /** Retention by join cohort (./cohorts.ts). */
    cohorts: async (teamId: string, q: CohortsQuery, now = new Date()) =>
      joinCohortGrid(deps.db, await tzOf(teamId), teamId, q, now),

    /** Per-day rows of the workspace, or per day and channel (every day x channel present) for `channels`. */
    async activity(teamId: string, tf: TimeFilter, channels: string[], now = new Date()) {
      const w = await windowOf(teamId, tf, now);
      if (channels.length === 0) return activityPerDay(w);
      const ids = [...new Set(channels)];
      const names = new Map((await repo.channelNames(teamId, ids)).map((c) => [c.channel_id, c.name]));
      const rows = new Map((await repo.perDayChannel(w, ids)).map((r) => [`${r.day}|${r.channel_id}`, r]));
      return daysOf(w.fromDay, w.toDay).flatMap((day) =>
        ids.map((id): ActivityRow => {
          const c = rows.get(`${day}|${id}`) ?? zero();
          const name = names.get(id) ?? id;
          return {
            date_of_data: day,
            messages: c.messages,
            replies: c.replies,
            reactions: c.reactions,
            channel_id: id,
            channel_name: name,
            name,
          };
        }),
      );
    },

    /** Every channel with its totals, most active first; optionally filtered by activity. */
    async channels(
      teamId: string,
      tf: TimeFilter | undefined,
      filter?: ActivityFilter | null,
      now = new Date(),
    ) {
      const w = await windowOf(teamId, tf, now);
      const rows = await repo.channelTotals(w, activityMatch(filter));
      return rows.map((r): ChannelActivity => ({ ...r, activity: total(r) }));
    },

    /** The most active members with their totals, most active first (see the repo for who is listed). */
    async members(teamId: string, tf: TimeFilter, opts: { limit: number }, now = new Date()) {
      const w = await windowOf(teamId, tf, now);
      // Not counted: the top of the ranking alone is a top-N sort, not a pass over every active member.
      const query = { channels: null, tags: null, match: null, limit: opts.limit, counted: false };
      return (await repo.memberTotals(w, query)).map(toMemberActivity);
    },
    membersPage,

    /** Activity Trends: messages + replies + reactions per slot of local hours over the window. */
    async trend(teamId: string, tf: TimeFilter, slot: number, now = new Date()) {
      const w = await windowOf(teamId, tf, now);
      const keys = slotKeys(slot);
      const slots: Record<string, number> = Object.fromEntries(keys.map((k) => [k, 0]));
      for (const r of await repo.perHour(w)) slots[keys[Math.floor(r.hour / slot)]!]! += total(r);
      return { slots };
    },

    /** Per day: joins, leaves, distinct active members and the member count at the end of the day. */
    async membersChange(teamId: string, tf: TimeFilter, channels: string[], now = new Date()) {
      const w = await windowOf(teamId, tf, now);
      const events = await repo.eventsPerDay(teamId, w.fromDay);
      const active = new Map(
        (await repo.activePerDay(w, channels.length ? [...new Set(channels)] : null)).map((r) => [
          r.day,
          r.n,
        ]),
      );
      const byDay = new Map(events.map((e) => [e.day, e]));
      // Members now, walked back through the joins and leaves recorded after each day.
      let overall = await repo.currentMembers(teamId);
      for (const e of events) if (e.day > w.toDay) overall -= e.joins - e.leaves;
      const days = daysOf(w.fromDay, w.toDay);
      const rows: MembersChangeRow[] = [];
      for (let i = days.length - 1; i >= 0; i--) {
        const day = days[i]!;
        const e = byDay.get(day);
        rows.push({
          date_of_data: day,
          new_members: e?.joins ?? 0,
          dropped_members: e?.leaves ?? 0,
          active_members: active.get(day) ?? 0,
          overall_members: Math.max(0, overall),
        });
        overall -= (e?.joins ?? 0) - (e?.leaves ?? 0);
      }
      return rows.reverse();
    },

    /** Stat cards of the last `days` local days (today included) against the `days` before. */
    async compare(teamId: string, days: number, now = new Date()): Promise<SummaryCard[]> {
      const cur = await windowOf(teamId, { type: 'static', days }, now);
      const prev: Window = { teamId, fromDay: addDays(cur.fromDay, -days), toDay: addDays(cur.fromDay, -1) };
      const [a, b, activeA, activeB, events, historyStart] = await Promise.all([
        repo.totals(cur),
        repo.totals(prev),
        repo.activeMembers(cur),
        repo.activeMembers(prev),
        repo.eventsPerDay(teamId, prev.fromDay),
        repo.historyStart(teamId),
      ]);
      const history = { prevFrom: prev.fromDay, historyStart };
      const joins = (w: Window) =>
        events.filter((e) => e.day >= w.fromDay && e.day <= w.toDay).reduce((n, e) => n + e.joins, 0);
      const leaves = (w: Window) =>
        events.filter((e) => e.day >= w.fromDay && e.day <= w.toDay).reduce((n, e) => n + e.leaves, 0);
      return [
        change('Total Activity', total(a), total(b), history),
        change('Messages', a.messages, b.messages, history),
        change('Replies', a.replies, b.replies, history),
        change('Reactions', a.reactions, b.reactions, history),
        change('Active Members', activeA, activeB, history),
        change('New Members', joins(cur), joins(prev), history),
        change('Members Left', leaves(cur), leaves(prev), history),
      ];
    },

    /**
     * Home summary cards: the last 24 hours (the current local hour and the 23 before it) against the 24
     * hours before. Active Members compares today with yesterday (local days: members are rolled up per day).
     */
    async homeCards(teamId: string, now = new Date()): Promise<SummaryCard[]> {
      const tz = await tzOf(teamId);
      const slotAt = (hoursBack: number) => {
        const at = new Date(now.getTime() - hoursBack * 3600_000);
        return { day: localDay(at, tz), hour: localHour(at, tz) };
      };
      const today = localDay(now, tz);
      const yesterday = addDays(today, -1);
      const [a, b, ea, eb, activeA, activeB, historyStart] = await Promise.all([
        repo.hourTotals(teamId, slotAt(23), slotAt(0)),
        repo.hourTotals(teamId, slotAt(47), slotAt(24)),
        repo.eventsBetween(teamId, new Date(now.getTime() - 24 * 3600_000), now),
        repo.eventsBetween(
          teamId,
          new Date(now.getTime() - 48 * 3600_000),
          new Date(now.getTime() - 24 * 3600_000),
        ),
        repo.activeMembers({ teamId, fromDay: today, toDay: today }),
        repo.activeMembers({ teamId, fromDay: yesterday, toDay: yesterday }),
        repo.historyStart(teamId),
      ]);
      // The 24 hours before start on the local day of 47 hours ago (yesterday for Active Members).
      const history = { prevFrom: slotAt(47).day, historyStart };
      const activeHistory = { prevFrom: yesterday, historyStart };
      return [
        change('Messages', a.messages, b.messages, history),
        change('Replies', a.replies, b.replies, history),
        change('Reactions', a.reactions, b.reactions, history),
        change('Active Members', activeA, activeB, activeHistory),
        change('New Members', ea.joins, eb.joins, history),
      ];
    },

    /** Content Generation: admins' and members' share of messages + replies, whole percents summing to 100. */
    async adminShare(teamId: string, tf: TimeFilter, now = new Date()) {
      const w = await windowOf(teamId, tf, now);
      const { admin, members } = await repo.adminShare(w);
      const sum = admin + members;
      const admin_percent = sum === 0 ? 0 : Math.round((admin / sum) * 100);
      return { admin, members, admin_percent, members_percent: sum === 0 ? 0 : 100 - admin_percent };
    },

    /**
     * Word cloud: the top keywords (lemmas) of the window by the number of messages containing them;
     * relevance = count / count of the top keyword (1 for the first, in 0..1).
     */
    async wordCloud(teamId: string, tf: TimeFilter, now = new Date()): Promise<WordCloudItem[]> {
      const w = await windowOf(teamId, tf, now);
      const rows = await repo.topTerms(w, WORD_CLOUD_MAX);
      const max = rows[0]?.n ?? 0;
      return rows.map((r) => ({ parsed_value: r.term, relevance: max ? r.n / max : 0 }));
    },
  };
};

const hourFormatters = new Map<string, Intl.DateTimeFormat>();
/** The local hour (0-23) of an instant in a timezone. */
export function localHour(at: Date, timeZone: string): number {
  let f = hourFormatters.get(timeZone);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' });
    } catch {
      f = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', hourCycle: 'h23' });
    }
    hourFormatters.set(timeZone, f);
  }
  return Number(f.format(at)) % 24;
}
