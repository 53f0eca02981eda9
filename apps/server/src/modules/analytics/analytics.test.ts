import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityRow, ChannelActivity, MemberActivity, SummaryCard } from '@flywheel/shared/analytics';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { addDays } from '../members-list/service.ts';
import { localDay, tsToDate } from '../../lib/days.ts';
import { keywordsOf } from '../activity/keywords.ts';
import { LOCKS, xactLock } from '../../db/locks.ts';
import { rollupBuffer } from '../activity/rollups.ts';
import { refreshStandingWindows } from '../activity/standing-windows.ts';
import { refreshLevels } from '../activity/levels.ts';
import { change, localHour } from './service.ts';
import { typedResult } from '../../db/sql.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let teamId: string;
let emptyTeam: string;
let token: string;
let emptyToken: string;
let tz: string;
let today: string;

type Counts = { messages: number; replies: number; reactions: number };
/** One counted action, from the emulator's raw rows alone. */
type Act = { kind: keyof Counts; user: string; channel: string; day: string; hour: number };
let acts: Act[];
let people: { id: string; admin: boolean; joined: number; left: number | null; name: string }[];
let visible: Set<string>;
let terms: Map<string, Map<string, number>>; // day -> term -> messages containing it

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 21, members: 60, channels: 5, days: 30 },
        // All of its history lies before the import window: a connected workspace with no activity.
        { seed: 22, members: 8, channels: 2, days: 2, endTime: Math.floor(Date.now() / 1000) - 400 * 86400 },
      ],
    },
    { BACKFILL_DAYS: '60' },
  );
  [teamId, emptyTeam] = env.emu.teamIds as [string, string];
  const owner = await signedInUser(env.t);
  const other = await signedInUser(env.t);
  token = owner.token;
  emptyToken = other.token;
  expect((await installThroughOAuth(env, owner, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, other, { teamId: emptyTeam })).statusCode).toBe(200);
  await waitForBackfill(env, token, teamId, 90_000);
  await waitForBackfill(env, other.token, emptyTeam, 90_000);
  // Installing queued the standing windows' build, so the import added to them; make sure they exist.
  await refreshStandingWindows(env.t.ctx.database.db, await env.t.ctx.services.workspaces.allTimezones());
  // The members' levels too (the rows carry them): else the process's own levels job (every minute) computes
  // them between two calls a test compares.
  await refreshLevels(
    env.t.ctx.database.db,
    await env.t.ctx.services.workspaces.allTimezones(),
    new Date(),
    true,
  );
  const ws = await typedResult<{ timezone: string }>(
    env.t.ctx.database.db,
    sql`select timezone from workspaces where team_id = ${teamId}`,
  );
  tz = ws.rows[0]!.timezone;
  today = localDay(new Date(), tz);
  groundTruth();
}, 180_000);
afterAll(() => env?.close());

function groundTruth() {
  const t = env.emu.truth(teamId);
  const botUser = t.install()?.botUserId;
  visible = new Set(
    t
      .channels()
      .filter((c: any) => !c.is_im && (c.members as string[]).includes(botUser!))
      .map((c: any) => c.id as string),
  );
  const bots = new Set<string>();
  people = [];
  for (const m of [...t.members()] as any[]) {
    if (m.is_bot) {
      bots.add(m.id);
      continue;
    }
    people.push({
      id: m.id,
      admin: Boolean(m.is_admin || m.is_owner),
      joined: m.joined_at,
      left: m.deleted_at,
      name: String(m.real_name ?? m.profile?.real_name ?? ''),
    });
  }
  acts = [];
  terms = new Map();
  for (const m of [...t.messages()] as any[]) {
    if (!visible.has(m.channel) || m.deleted) continue;
    if (m.subtype && !['thread_broadcast', 'file_share', 'me_message'].includes(m.subtype)) continue;
    if (m.bot_id || !m.user || bots.has(m.user)) continue;
    const at = tsToDate(m.ts);
    const day = localDay(at, tz);
    const hour = localHour(at, tz);
    const kind = m.thread_ts && m.thread_ts !== m.ts ? 'replies' : 'messages';
    acts.push({ kind, user: m.user, channel: m.channel, day, hour });
    for (const r of m.reactions ?? [])
      for (const u of r.users) acts.push({ kind: 'reactions', user: u, channel: m.channel, day, hour });
    const byTerm = terms.get(day) ?? new Map<string, number>();
    terms.set(day, byTerm);
    for (const term of new Set(keywordsOf(String(m.text ?? ''))))
      byTerm.set(term, (byTerm.get(term) ?? 0) + 1);
  }
}

type Win = { fromDay: string; toDay: string };
const last = (days: number): Win => ({ fromDay: addDays(today, -(days - 1)), toDay: today });
const inWin = (w: Win) => (a: { day: string }) => a.day >= w.fromDay && a.day <= w.toDay;
const tally = (list: Act[]): Counts => {
  const c = { messages: 0, replies: 0, reactions: 0 };
  for (const a of list) c[a.kind]++;
  return c;
};
const total = (c: Counts) => c.messages + c.replies + c.reactions;
const daysOf = (w: Win) => {
  const out: string[] = [];
  for (let d = w.fromDay; d <= w.toDay; d = addDays(d, 1)) out.push(d);
  return out;
};
const windows: [string, Win, any][] = [];
const dynamic = () => ({ fromDay: addDays(today, -20), toDay: addDays(today, -4) });
const tfOf = (w: Win, days?: number) =>
  days ? { type: 'static', days } : { type: 'dynamic', start_date: w.fromDay, end_date: w.toDay };

async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: any, as = token) {
  const res = await env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(as), payload });
  return { status: res.statusCode, body: res.json() as any };
}
async function ok(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: any, as = token) {
  const r = await call(method, url, payload, as);
  expect(r.status, JSON.stringify(r.body)).toBe(r.status === 201 ? 201 : 200);
  return r.body;
}
const cases = () => [
  ['7 days', last(7), tfOf(last(7), 7), '?days=7'] as const,
  ['14 days', last(14), tfOf(last(14), 14), '?days=14'] as const,
  [
    'a dynamic range',
    dynamic(),
    tfOf(dynamic()),
    `?start_date=${dynamic().fromDay}&end_date=${dynamic().toDay}`,
  ] as const,
];
void windows;

describe('Home and Analytics against the ground truth', () => {
  it('sanity: the seed has activity in both windows', () => {
    for (const [, w] of cases()) expect(acts.filter(inWin(w)).length).toBeGreaterThan(20);
  });

  it('per-day activity: workspacehighlights and activityanalytics (workspace and channels)', async () => {
    for (const [, w, tf, qs] of cases()) {
      const want = daysOf(w).map((day) => ({
        date_of_data: day,
        ...tally(acts.filter((a) => a.day === day)),
      }));
      const home = await ok('GET', `/homepage/workspacehighlights/${teamId}${qs}`);
      expect(home.data).toEqual(want);
      const an = await ok('POST', '/analytics/activityanalytics', { team_id: teamId, time_filter: tf });
      expect(an.data).toEqual(want);
      const chans = [...visible].slice(0, 2);
      const per = await ok('POST', '/analytics/activityanalytics', {
        team_id: teamId,
        time_filter: tf,
        channels: chans,
      });
      const got = (per.data as ActivityRow[]).map((r) => ({
        day: r.date_of_data,
        channel: r.channel_id,
        messages: r.messages,
        replies: r.replies,
        reactions: r.reactions,
      }));
      const expected = daysOf(w).flatMap((day) =>
        chans.map((channel) => ({
          day,
          channel,
          ...tally(acts.filter((a) => a.day === day && a.channel === channel)),
        })),
      );
      expect(got).toEqual(expected);
      expect((per.data as ActivityRow[]).every((r) => r.channel_name && r.channel_name.length > 0)).toBe(
        true,
      );
    }
  });

  it('per-channel totals: getchanneldata and channelsactivityanalytics with an activity filter', async () => {
    for (const [, w, tf, qs] of cases()) {
      const home = (await ok('GET', `/homepage/getchanneldata/${teamId}${qs}`)).data as ChannelActivity[];
      const byId = new Map(home.map((c) => [c.channel_id, c]));
      for (const id of visible) {
        const want = tally(acts.filter(inWin(w)).filter((a) => a.channel === id));
        const got = byId.get(id)!;
        expect({ messages: got.messages, replies: got.replies, reactions: got.reactions }).toEqual(want);
        expect(got.activity).toBe(total(want));
      }
      for (const c of home) if (!visible.has(c.channel_id)) expect(c.activity).toBe(0);
      const sorted = [...home].sort((a, b) => b.activity - a.activity);
      expect(home.map((c) => c.activity)).toEqual(sorted.map((c) => c.activity));
      const filtered = (
        await ok('POST', '/analytics/channelsactivityanalytics', {
          team_id: teamId,
          time_filter: tf,
          activity_filter: {
            type: 'OR',
            message_filter: { operator: '>', count: 10 },
            reaction_filter: { operator: '=', count: 0 },
          },
        })
      ).data as ChannelActivity[];
      expect(filtered.map((c) => c.channel_id).sort()).toEqual(
        home
          .filter((c) => c.messages > 10 || c.reactions === 0)
          .map((c) => c.channel_id)
          .sort(),
      );
    }
  });

  it('per-member totals: membersactivityanalytics (channels, AND/OR filters, tags) and getmostactivemembers', async () => {
    const perMember = (list: Act[]) => {
      const m = new Map<string, Counts>();
      for (const a of list) {
        const c = m.get(a.user) ?? { messages: 0, replies: 0, reactions: 0 };
        c[a.kind]++;
        m.set(a.user, c);
      }
      return m;
    };
    const strip = (rows: MemberActivity[]) =>
      rows
        .map((r) => ({ id: r.member_id, messages: r.messages, replies: r.replies, reactions: r.reactions }))
        .sort((a, b) => a.id.localeCompare(b.id));
    const ids = new Set(people.map((p) => p.id));
    for (const [, w, tf] of cases()) {
      const truth = perMember(acts.filter(inWin(w)).filter((a) => ids.has(a.user)));
      const want = (keep: (c: Counts) => boolean, src = truth) =>
        people
          .map((p) => ({ id: p.id, ...(src.get(p.id) ?? { messages: 0, replies: 0, reactions: 0 }) }))
          .filter((c) => keep(c))
          .sort((a, b) => a.id.localeCompare(b.id));
      const plain = await ok('POST', '/analytics/membersactivityanalytics', {
        team_id: teamId,
        time_filter: tf,
      });
      expect(strip(plain.data)).toEqual(want((c) => total(c) > 0));
      const and = await ok('POST', '/analytics/membersactivityanalytics', {
        team_id: teamId,
        time_filter: tf,
        activity_filter: {
          type: 'AND',
          message_filter: { operator: '>', count: 2 },
          reply_filter: { operator: '<', count: 5 },
        },
      });
      expect(strip(and.data)).toEqual(want((c) => c.messages > 2 && c.replies < 5));
      const or = await ok('POST', '/analytics/membersactivityanalytics', {
        team_id: teamId,
        time_filter: tf,
        activity_filter: {
          type: 'OR',
          message_filter: { operator: '=', count: 0 },
          reaction_filter: { operator: '>', count: 3 },
        },
      });
      expect(strip(or.data)).toEqual(want((c) => c.messages === 0 || c.reactions > 3));
      const chans = [...visible].slice(0, 2);
      const inChans = perMember(
        acts.filter(inWin(w)).filter((a) => ids.has(a.user) && chans.includes(a.channel)),
      );
      const ch = await ok('POST', '/analytics/membersactivityanalytics', {
        team_id: teamId,
        time_filter: tf,
        channels: chans,
      });
      expect(strip(ch.data)).toEqual(want((c) => total(c) > 0, inChans));
      // Most active: the top 10 by total, descending.
      const top = (await ok('POST', '/homepage/getmostactivemembers', { team_id: teamId, time_filter: tf }))
        .data as MemberActivity[];
      const totals = want((c) => total(c) > 0)
        .map(total)
        .sort((a, b) => b - a)
        .slice(0, 10);
      expect(top.map((m) => m.activity)).toEqual(totals);
      for (const m of top) expect(total(truth.get(m.member_id)!)).toBe(m.activity);
    }
    // Tags: two members tagged; the filter keeps exactly the tagged ones among the active.
    const created = await ok('POST', '/tags/createtag', { team_id: teamId, name: 'Analytics VIP' });
    const active = [...perMember(acts.filter(inWin(last(7)))).keys()].filter((id) => ids.has(id)).slice(0, 2);
    await ok('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [{ id: created.data.id }],
      users: active.map((id) => ({ id })),
    });
    const tagged = await ok('POST', '/analytics/membersactivityanalytics', {
      team_id: teamId,
      time_filter: { type: 'static', days: 7 },
      tags: [created.data.id],
    });
    expect((tagged.data as MemberActivity[]).map((m) => m.member_id).sort()).toEqual([...active].sort());
  });

  it('members change: joins, leaves, active members and the count at the end of each day', async () => {
    for (const [, w, tf] of cases()) {
      const got = (
        await ok('POST', '/analytics/memberschangeanalytics', { team_id: teamId, time_filter: tf })
      ).data;
      const dayOf = (s: number) => localDay(new Date(s * 1000), tz);
      const want = daysOf(w).map((day) => ({
        date_of_data: day,
        new_members: people.filter((p) => dayOf(p.joined) === day).length,
        dropped_members: people.filter((p) => p.left && dayOf(p.left) === day).length,
        active_members: new Set(
          acts.filter((a) => a.day === day && people.some((p) => p.id === a.user)).map((a) => a.user),
        ).size,
        overall_members: people.filter((p) => dayOf(p.joined) <= day && !(p.left && dayOf(p.left) <= day))
          .length,
      }));
      expect(got).toEqual(want);
    }
  });

  it('activity trend: every slot size, keys and sums per local hour', async () => {
    for (const [, w, tf] of cases()) {
      for (const slot of [2, 3, 4, 6, 8, 12]) {
        const got = await ok('POST', '/analytics/getactivitytrend', {
          team_id: teamId,
          time_filter: tf,
          slot,
        });
        const want: Record<string, number> = {};
        for (let h = 0; h < 24; h += slot)
          want[`${String(h).padStart(2, '0')}-${String(h + slot).padStart(2, '0')}`] = acts
            .filter(inWin(w))
            .filter((a) => a.hour >= h && a.hour < h + slot).length;
        expect(got).toEqual({ slots: want });
      }
    }
    const dflt = await ok('POST', '/analytics/getactivitytrend', {
      team_id: teamId,
      time_filter: { type: 'static', days: 7 },
    });
    expect(Object.keys(dflt.slots)).toHaveLength(12);
  });

  it('compare cards and Home cards', async () => {
    const card = (cards: SummaryCard[], name: string) => cards.find((c) => c.name === name)!;
    const pct = (cur: number, prev: number) => {
      const raw = prev === 0 ? (cur === 0 ? 0 : 100) : ((cur - prev) / prev) * 100;
      return { val: cur, percent: Math.round(Math.abs(raw) * 10) / 10, sign: cur >= prev ? '+' : '-' };
    };
    for (const days of [7, 14]) {
      const cur = last(days);
      const prev = { fromDay: addDays(cur.fromDay, -days), toDay: addDays(cur.fromDay, -1) };
      const a = tally(acts.filter(inWin(cur)));
      const b = tally(acts.filter(inWin(prev)));
      const got = (await ok('GET', `/analytics/getanalyticscompare/${teamId}/${days}`)).data as SummaryCard[];
      const activeIn = (w: Win) =>
        new Set(
          acts
            .filter(inWin(w))
            .filter((x) => people.some((p) => p.id === x.user))
            .map((x) => x.user),
        ).size;
      const joinsIn = (w: Win) =>
        people.filter((p) => inWin(w)({ day: localDay(new Date(p.joined * 1000), tz) })).length;
      expect(card(got, 'Messages')).toMatchObject(pct(a.messages, b.messages));
      expect(card(got, 'Replies')).toMatchObject(pct(a.replies, b.replies));
      expect(card(got, 'Reactions')).toMatchObject(pct(a.reactions, b.reactions));
      expect(card(got, 'Total Activity')).toMatchObject(pct(total(a), total(b)));
      expect(card(got, 'Active Members')).toMatchObject(pct(activeIn(cur), activeIn(prev)));
      expect(card(got, 'New Members')).toMatchObject(pct(joinsIn(cur), joinsIn(prev)));
      // Both periods lie inside the history: a percent, or 'new' when the period before had nothing.
      for (const c of got) expect(['change', 'new'], c.name).toContain(c.comparison);
      expect(card(got, 'Messages').comparison).toBe(b.messages === 0 && a.messages > 0 ? 'new' : 'change');
    }
    // 30 days of history: the 90 and 365 days before the last 90 and 365 are not in it. No percent then.
    const firstDay = acts.map((x) => x.day).sort()[0]!;
    for (const days of [90, 365]) {
      const got = (await ok('GET', `/analytics/getanalyticscompare/${teamId}/${days}`)).data as SummaryCard[];
      expect(got.map((c) => c.comparison)).toEqual(got.map(() => 'incomplete'));
      expect(got[0]!.history_start! <= firstDay).toBe(true);
      expect(got[0]!.history_start! >= addDays(today, -31)).toBe(true);
    }
    const now = new Date();
    const slot = (h: number) => {
      const at = new Date(now.getTime() - h * 3600_000);
      return `${localDay(at, tz)} ${String(localHour(at, tz)).padStart(2, '0')}`;
    };
    const key = (a: Act) => `${a.day} ${String(a.hour).padStart(2, '0')}`;
    const between = (from: string, to: string) => tally(acts.filter((a) => key(a) >= from && key(a) <= to));
    const a = between(slot(23), slot(0));
    const b = between(slot(47), slot(24));
    const home = (await ok('GET', `/homepage/getcardsdata/${teamId}`)).data as SummaryCard[];
    expect(home.map((c) => c.name)).toEqual([
      'Messages',
      'Replies',
      'Reactions',
      'Active Members',
      'New Members',
    ]);
    expect(card(home, 'Messages')).toMatchObject(pct(a.messages, b.messages));
    expect(card(home, 'Replies')).toMatchObject(pct(a.replies, b.replies));
    expect(card(home, 'Reactions')).toMatchObject(pct(a.reactions, b.reactions));
  });

  it('content generation: admins vs members share of messages + replies', async () => {
    for (const [, w, tf] of cases()) {
      const admins = new Set(people.filter((p) => p.admin).map((p) => p.id));
      const ids = new Set(people.map((p) => p.id));
      const content = acts.filter(inWin(w)).filter((a) => a.kind !== 'reactions' && ids.has(a.user));
      const admin = content.filter((a) => admins.has(a.user)).length;
      const members = content.length - admin;
      const got = (await ok('POST', '/homepage/getuseradmindata', { team_id: teamId, time_filter: tf })).data;
      expect(got.admin).toBe(admin);
      expect(got.members).toBe(members);
      expect(got.admin_percent + got.members_percent).toBe(100);
      expect(got.admin_percent).toBe(Math.round((admin / (admin + members)) * 100));
    }
  });

  it('word cloud: top keywords with relevance = count / top count', async () => {
    for (const [, w, tf] of cases()) {
      const counts = new Map<string, number>();
      for (const [day, byTerm] of terms)
        if (inWin(w)({ day })) for (const [t, n] of byTerm) counts.set(t, (counts.get(t) ?? 0) + n);
      const max = Math.max(...counts.values());
      const got = (await ok('POST', '/analytics/wordcloud', { team_id: teamId, time_filter: tf })).data as {
        parsed_value: string;
        relevance: number;
      }[];
      expect(got.length).toBe(Math.min(100, counts.size));
      for (const item of got) expect(item.relevance).toBeCloseTo(counts.get(item.parsed_value)! / max, 10);
      expect(got[0]!.relevance).toBe(1);
      const kept = new Set(got.map((g) => g.parsed_value));
      const lowest = Math.min(...got.map((g) => counts.get(g.parsed_value)!));
      for (const [t, n] of counts) if (!kept.has(t)) expect(n).toBeLessThanOrEqual(lowest);
    }
  });

  it('a workspace without activity answers zeros and empty lists', async () => {
    const tf = { type: 'static', days: 7 };
    const as = emptyToken;
    const t = emptyTeam;
    const hl = await ok('GET', `/homepage/workspacehighlights/${t}?days=7`, undefined, as);
    expect(hl.data).toHaveLength(7);
    expect(hl.data.every((r: ActivityRow) => r.messages + r.replies + r.reactions === 0)).toBe(true);
    const ch = await ok('GET', `/homepage/getchanneldata/${t}`, undefined, as);
    expect(ch.data.every((c: ChannelActivity) => c.activity === 0)).toBe(true);
    const cards = await ok('GET', `/homepage/getcardsdata/${t}`, undefined, as);
    expect(cards.data.every((c: SummaryCard) => c.val === 0 && c.percent === 0 && c.sign === '+')).toBe(true);
    // The imported 60 days hold no activity: a true 0% change (the history covers both days), not 'new'.
    expect(cards.data.every((c: SummaryCard) => c.comparison === 'change')).toBe(true);
    expect(
      (await ok('POST', '/homepage/getuseradmindata', { team_id: t, time_filter: tf }, as)).data,
    ).toEqual({
      admin: 0,
      members: 0,
      admin_percent: 0,
      members_percent: 0,
    });
    expect(
      (await ok('POST', '/homepage/getmostactivemembers', { team_id: t, time_filter: tf }, as)).data,
    ).toEqual([]);
    const cmp = await ok('GET', `/analytics/getanalyticscompare/${t}/7`, undefined, as);
    expect(cmp.data.every((c: SummaryCard) => c.val === 0)).toBe(true);
    const trend = await ok(
      'POST',
      '/analytics/getactivitytrend',
      { team_id: t, time_filter: tf, slot: 6 },
      as,
    );
    expect(trend).toEqual({ slots: { '00-06': 0, '06-12': 0, '12-18': 0, '18-24': 0 } });
    for (const url of ['/analytics/membersactivityanalytics', '/analytics/wordcloud'])
      expect((await ok('POST', url, { team_id: t, time_filter: tf }, as)).data).toEqual([]);
    const change = await ok('POST', '/analytics/memberschangeanalytics', { team_id: t, time_filter: tf }, as);
    expect(change.data).toHaveLength(7);
    expect(change.data.every((r: any) => r.new_members === 0 && r.active_members === 0)).toBe(true);
  });
});

describe('standing windows and paging', () => {
  const db = () => env.t.ctx.database.db;
  const perMemberCalls = () =>
    [7, 14].flatMap((days) => {
      const time_filter = { type: 'static', days };
      return [
        ['POST', '/analytics/membersactivityanalytics', { team_id: teamId, time_filter }],
        [
          'POST',
          '/analytics/membersactivityanalytics',
          {
            team_id: teamId,
            time_filter,
            activity_filter: { type: 'AND', message_filter: { operator: '>', count: 1 } },
          },
        ],
        ['POST', '/homepage/getmostactivemembers', { team_id: teamId, time_filter }],
        ['POST', '/homepage/getuseradmindata', { team_id: teamId, time_filter }],
        ['GET', `/analytics/getanalyticscompare/${teamId}/${days}`],
        ['POST', '/members/getmembersdata', { team_id: teamId, time_filter, page: 1, page_size: 100 }],
      ] as const;
    });

  it('the windows end today and give the same answers as summing the rollups', async () => {
    const anchor = await typedResult<{ day: string }>(
      db(),
      sql`select day::text as day from activity_window_anchor where team_id = ${teamId}`,
    );
    expect(anchor.rows[0]?.day).toBe(today);
    const withWindows = [];
    for (const [m, url, body] of perMemberCalls()) withWindows.push(await ok(m, url, body));
    await db().execute(sql`delete from activity_window_anchor where team_id = ${teamId}`);
    try {
      const summed = [];
      for (const [m, url, body] of perMemberCalls()) summed.push(await ok(m, url, body));
      expect(summed).toEqual(withWindows);
      expect(withWindows[0].data.length).toBeGreaterThan(5);
    } finally {
      await refreshStandingWindows(db(), await env.t.ctx.services.workspaces.allTimezones());
    }
  });

  it('activity of a user missing from the directory is listed under their id; a bot never is', async () => {
    const bots = await typedResult<{ member_id: string }>(
      db(),
      sql`select member_id from slack_members where team_id = ${teamId} and is_bot limit 1`,
    );
    const bot = bots.rows[0]!.member_id;
    const channel = [...visible][0]!;
    const apply = async (sign: 1 | -1) => {
      const buf = rollupBuffer();
      buf.add(teamId, { day: today, hour: 0 }, 'UNOTLISTED', channel, { messages: 500 * sign });
      buf.add(teamId, { day: today, hour: 0 }, bot, channel, { messages: 900 * sign });
      await db().transaction(async (tx) => {
        await xactLock(tx, LOCKS.ingest);
        await buf.flush(tx);
      });
    };
    await apply(1);
    try {
      const top = (
        await ok('POST', '/homepage/getmostactivemembers', {
          team_id: teamId,
          time_filter: { type: 'static', days: 7 },
        })
      ).data as MemberActivity[];
      expect(top[0]).toMatchObject({ member_id: 'UNOTLISTED', real_name: 'UNOTLISTED', messages: 500 });
      expect(top.map((m) => m.member_id)).not.toContain(bot);
      const page = await ok('POST', '/analytics/membersactivityanalytics', {
        team_id: teamId,
        time_filter: { type: 'static', days: 7 },
        page_size: 500,
      });
      expect((page.data as MemberActivity[]).map((m) => m.member_id)).not.toContain(bot);
    } finally {
      await apply(-1);
    }
  });

  it('membersactivityanalytics pages most active first; the pages add up to the whole list', async () => {
    const body = { team_id: teamId, time_filter: { type: 'static', days: 14 } };
    const all = await ok('POST', '/analytics/membersactivityanalytics', body);
    expect(all.total).toBe(all.data.length);
    const pages: MemberActivity[] = [];
    for (let page = 1; page <= Math.ceil(all.total / 5); page++) {
      const p = await ok('POST', '/analytics/membersactivityanalytics', { ...body, page, page_size: 5 });
      expect(p.total).toBe(all.total);
      expect(p.data.length).toBeLessThanOrEqual(5);
      pages.push(...p.data);
    }
    expect(pages).toEqual(all.data);
    const activity = pages.map((m) => m.activity);
    expect(activity).toEqual([...activity].sort((a, b) => b - a));
    const past = await ok('POST', '/analytics/membersactivityanalytics', {
      ...body,
      page: 999,
      page_size: 5,
    });
    expect(past).toEqual({ data: [], total: all.total });
    for (const bad of [{ page_size: 0 }, { page_size: 501 }, { page: 0, page_size: 5 }, { page_size: 'x' }]) {
      const r = await call('POST', '/analytics/membersactivityanalytics', { ...body, ...bad });
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/page/);
    }
  });
});

describe('bad input is a 400 with a readable message', () => {
  it.each([
    [
      'POST',
      '/analytics/getactivitytrend',
      { time_filter: { type: 'static', days: 7 }, slot: 5 },
      'slot must be one of 2, 3, 4, 6, 8 or 12 hours',
    ],
    [
      'POST',
      '/analytics/activityanalytics',
      { time_filter: { type: 'static', days: 0 } },
      'time_filter.days must be at least 1',
    ],
    [
      'POST',
      '/analytics/wordcloud',
      { time_filter: { type: 'dynamic', start_date: '2024-05-10', end_date: '2024-05-01' } },
      'The start date must not be after the end date',
    ],
    [
      'POST',
      '/analytics/channelsactivityanalytics',
      { time_filter: { type: 'weekly' } },
      "time_filter.type must be 'static' or 'dynamic'",
    ],
    [
      'POST',
      '/analytics/membersactivityanalytics',
      {
        time_filter: { type: 'static', days: 7 },
        activity_filter: { type: 'AND', message_filter: { operator: '>=', count: 1 } },
      },
      'activity_filter.message_filter.operator must be one of >, < or =',
    ],
  ])('%s %s', async (method, url, body, message) => {
    const r = await call(method as 'POST', url, { team_id: teamId, ...body });
    expect(r.status).toBe(400);
    expect(r.body.message).toBe(message);
  });

  it('bad days, bad ranges on GET, unknown tasks', async () => {
    let r = await call('GET', `/analytics/getanalyticscompare/${teamId}/0`);
    expect([r.status, r.body.message]).toEqual([400, 'days must be at least 1']);
    r = await call('GET', `/analytics/getanalyticscompare/${teamId}/week`);
    expect([r.status, r.body.message]).toEqual([400, 'days must be a number of days']);
    r = await call(
      'GET',
      `/homepage/workspacehighlights/${teamId}?start_date=2024-05-10&end_date=2024-05-01`,
    );
    expect([r.status, r.body.message]).toEqual([400, 'The start date must not be after the end date']);
    r = await call('GET', `/homepage/getchanneldata/${teamId}?start_date=2024-05-10`);
    expect([r.status, r.body.message]).toEqual([400, 'A custom range needs both start_date and end_date']);
    r = await call('DELETE', `/homepage/deletetask/999999/${teamId}`);
    expect([r.status, r.body.code]).toEqual([404, 'NOT_FOUND']);
    r = await call('PATCH', '/homepage/edittask', { team_id: teamId, id: 999999, title: 'x' });
    expect(r.status).toBe(404);
    r = await call('PATCH', '/homepage/droptask', {
      team_id: teamId,
      id: 999999,
      status: 'done',
      position: 0,
    });
    expect(r.status).toBe(404);
    r = await call('PATCH', '/homepage/droptask', { team_id: teamId, id: 1, status: 'later', position: 0 });
    expect([r.status, r.body.message]).toEqual([400, "status must be 'todo', 'doing' or 'done'"]);
  });
});

describe('task board', () => {
  it('creates, edits, moves across columns and reorders with dense positions, deletes', async () => {
    const make = async (title: string, status?: string) =>
      (await ok('POST', '/homepage/createtasks', { team_id: teamId, title, ...(status ? { status } : {}) }))
        .data;
    const a = await make('Welcome newcomers');
    const b = await make('Plan AMA');
    const c = await make('Ship digest', 'doing');
    expect([a.status, a.position, b.position, c.status, c.position]).toEqual(['todo', 0, 1, 'doing', 0]);
    expect(
      (await ok('PATCH', '/homepage/edittask', { team_id: teamId, id: a.id, description: 'say hi' })).data,
    ).toMatchObject({ title: 'Welcome newcomers', description: 'say hi' });
    // b goes to the top of doing, then a to done, then c to position 5 of todo (clamped to its end).
    await ok('PATCH', '/homepage/droptask', { team_id: teamId, id: b.id, status: 'doing', position: 0 });
    await ok('PATCH', '/homepage/droptask', { team_id: teamId, id: a.id, status: 'done', position: 0 });
    const board = (
      await ok('PATCH', '/homepage/droptask', { team_id: teamId, id: c.id, status: 'todo', position: 5 })
    ).data;
    const view = (list: any[]) => list.map((t) => `${t.status}:${t.position}:${t.title}`);
    expect(view(board)).toEqual(['todo:0:Ship digest', 'doing:0:Plan AMA', 'done:0:Welcome newcomers']);
    const d = await make('Second todo');
    await ok('PATCH', '/homepage/droptask', { team_id: teamId, id: d.id, status: 'todo', position: 0 });
    expect(view((await ok('GET', `/homepage/gettasks/${teamId}`)).data)).toEqual([
      'todo:0:Second todo',
      'todo:1:Ship digest',
      'doing:0:Plan AMA',
      'done:0:Welcome newcomers',
    ]);
    await ok('DELETE', `/homepage/deletetask/${d.id}/${teamId}`);
    expect(view((await ok('GET', `/homepage/gettasks/${teamId}`)).data)[0]).toBe('todo:0:Ship digest');
    // Another workspace's board is separate.
    expect((await ok('GET', `/homepage/gettasks/${emptyTeam}`, undefined, emptyToken)).data).toEqual([]);
    const r = await call('POST', '/homepage/createtasks', { team_id: teamId, title: '   ' });
    expect([r.status, r.body.message]).toEqual([400, 'title must not be empty']);
  });
});

describe('bot details', () => {
  it('defaults, upload with the documented rules and messages, identity for chat:write.customize', async () => {
    const d = (await ok('GET', `/alterbot/getbotdetails/${teamId}`)).data;
    expect(d).toMatchObject({ bot_name: 'Flywheel', use_custom: true });
    expect(d.bot_image).toMatch(/\/api\/v0\/public\/flywheel-bot\.png$/);
    const img = await env.t.app.inject({ method: 'GET', url: '/api/v0/public/flywheel-bot.png' });
    expect([img.statusCode, img.headers['content-type']]).toEqual([200, 'image/png']);
    expect(img.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    for (const [name, message] of [
      ['a', 'Username should be 2-20 characters long!'],
      ['-bot', 'Username should not start or end with Hypen(s), Underscore(s) or Period(s)!'],
      [
        'my..bot',
        'Username should not contain two or more Hypens, Underscore , Periods or their combinations together!',
      ],
      ['my bot', 'Username should only contain alphanumeric characters, Underscores, Hypens and Period!'],
    ]) {
      const r = await call('POST', '/alterbot/uploadinfo', {
        team_id: teamId,
        botName: name,
        use_custom: true,
      });
      expect([r.status, r.body.message]).toEqual([400, message]);
    }
    const saved = await ok('POST', '/alterbot/uploadinfo', {
      team_id: teamId,
      botName: 'Helper.bot',
      use_custom: false,
    });
    expect(saved.message).toBe('Bot Details Uploaded Successfully!');
    expect(saved.data.bot_name).toBe('Helper.bot');
    expect(saved.data.use_custom).toBe(false);
    const id = await env.t.ctx.services.bot.botIdentity(teamId);
    expect(id.username).toBe('Helper.bot');
    expect(typeof id.icon_url).toBe('string');
    expect((await ok('GET', `/alterbot/getbotdetails/${teamId}`)).data.bot_name).toBe('Helper.bot');
  });
});

describe('change (a card against the period before)', () => {
  const full = { prevFrom: '2026-03-01', historyStart: '2026-01-01' };
  it('a percent and sign when both periods are in the history; +0% is a change of 0', () => {
    expect(change('Messages', 150, 100, full)).toEqual({
      name: 'Messages',
      val: 150,
      percent: 50,
      sign: '+',
      comparison: 'change',
    });
    expect(change('Messages', 5, 10, full)).toMatchObject({ percent: 50, sign: '-', comparison: 'change' });
    expect(change('Messages', 7, 7, full)).toMatchObject({ percent: 0, sign: '+', comparison: 'change' });
    expect(change('Messages', 0, 0, full)).toMatchObject({ percent: 0, comparison: 'change' });
  });

  it("'new' when the period before had nothing", () => {
    expect(change('Messages', 303, 0, full)).toMatchObject({ val: 303, comparison: 'new' });
  });

  it("'incomplete' (never +30,263%) when the period before starts before the history", () => {
    const late = { prevFrom: '2025-03-01', historyStart: '2025-11-20' };
    expect(change('Messages', 30_363, 100, late)).toEqual({
      name: 'Messages',
      val: 30_363,
      percent: 30_263,
      sign: '+',
      comparison: 'incomplete',
      history_start: '2025-11-20',
    });
    expect(change('Messages', 4, 0, { prevFrom: '2026-03-01', historyStart: null })).toMatchObject({
      comparison: 'incomplete',
      history_start: null,
    });
    // The period before starting on the history's first day is whole.
    expect(change('Messages', 4, 2, { prevFrom: '2025-11-20', historyStart: '2025-11-20' }).comparison).toBe(
      'change',
    );
  });
});
