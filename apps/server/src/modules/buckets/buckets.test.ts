import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '@flywheel/shared/directory';
import {
  BUCKET_CHANNELS_EMPTY,
  BUCKET_NAME_EMPTY,
  type AdvanceAnalyticsRequest,
  type Bucket,
  type BucketData,
  type BucketRow,
} from '@flywheel/shared/buckets';
import { audienceSchema } from '@flywheel/shared/delivery';
import { typedResult } from '../../db/sql.ts';
import { csvCellSql, bucketsRepo } from './repo.ts';
import { csvCell } from '../members-list/service.ts';
import { bucketCsvLines } from './service.ts';
import { channelNames } from '../workspace-data/names.ts';
import { addDays, localDay } from '../../lib/days.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import { countsIn, groundTruth, type Counts, type GroundTruth } from '../../testing/ground-truth.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';

let env: SlackTestEnv;
let teamId: string;
let otherTeam: string;
let churnTeam: string;
let token: string;
let otherToken: string;
let tz: string;
let today: string;
/** The emulator's raw rows, counted here (never through the product's SQL). */
let truth: GroundTruth;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 11, members: 70, channels: 6, days: 40 },
        { seed: 12, members: 15, channels: 3, days: 3 },
        // Members here join a channel and leave it again inside the imported history.
        { seed: 21, members: 60, channels: 5, days: 40 },
      ],
    },
    { BACKFILL_DAYS: '90' },
  );
  [teamId, otherTeam, churnTeam] = env.emu.teamIds as [string, string, string];
  const owner = await signedInUser(env.t);
  const other = await signedInUser(env.t);
  token = owner.token;
  otherToken = other.token;
  expect((await installThroughOAuth(env, owner, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, other, { teamId: otherTeam })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, owner, { teamId: churnTeam })).statusCode).toBe(200);
  await waitForBackfill(env, token, teamId, 90_000);
  await waitForBackfill(env, token, churnTeam, 90_000);
  await waitForBackfill(env, otherToken, otherTeam, 90_000);
  const ws = await typedResult<{ timezone: string }>(
    env.t.ctx.database.db,
    sql`select timezone from workspaces where team_id = ${teamId}`,
  );
  tz = ws.rows[0]!.timezone;
  today = localDay(new Date(), tz);
  truth = groundTruth(env, teamId, tz);
}, 180_000);
afterAll(() => env?.close());

type Person = GroundTruth['people'][number];
const last = (days: number) => ({ fromDay: addDays(today, -(days - 1)), toDay: today });
const activityOf = (c: Counts) => c.messages + c.replies + c.reactions;
const localJoin = (p: Person) => localDay(new Date(p.joined * 1000), tz);

function call(method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown, as = token) {
  return env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(as), payload: payload as never });
}

/** Every row of the bucket table, page by page (500 a page). */
async function allRows(body: Omit<AdvanceAnalyticsRequest, 'team_id'>) {
  const rows: BucketRow[] = [];
  let total = -1;
  for (let page = 1; ; page++) {
    const res = await call('POST', '/analytics/performadvanceanalytics', {
      team_id: teamId,
      ...body,
      page,
      page_size: 500,
    });
    expect(res.statusCode, res.body).toBe(200);
    const got = res.json() as { data: BucketRow[]; total: number };
    total = got.total;
    rows.push(...got.data);
    if (got.data.length < 500) break;
  }
  expect(rows.length).toBe(total);
  return rows;
}

type Want = { id: string } & Counts;
const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
const fromRows = (rows: BucketRow[]): Want[] =>
  rows
    .map((r) => ({ id: r.member_id, messages: r.messages, replies: r.replies, reactions: r.reactions }))
    .sort(byId);

/** Members the test picks from the raw rows, with their counts over the window. */
function expected(
  w: { fromDay: string; toDay: string; channels?: string[] },
  keep: (c: Counts, p: Person) => boolean,
) {
  return truth.people
    .map((p) => ({ p, c: countsIn(truth, p.id, w) }))
    .filter(({ p, c }) => keep(c, p))
    .map(({ p, c }) => ({ id: p.id, ...c }))
    .sort(byId);
}

/** Two visible channels with the most members in common (members who joined and left one are counted out). */
function busyPair(): [string, string] {
  const steady = truth.visible;
  let best: [string, string] = [steady[0]!, steady[1]!];
  let most = -1;
  for (const a of steady)
    for (const b of steady) {
      if (a >= b) continue;
      const both = [...truth.channelMembers.get(a)!].filter((m) =>
        truth.channelMembers.get(b)!.has(m),
      ).length;
      if (both > most) [best, most] = [[a, b], both];
    }
  return best;
}
const inAll = (id: string, channels: string[]) => channels.every((c) => truth.channelMembers.get(c)?.has(id));

describe('POST /analytics/performadvanceanalytics against ground truth', () => {
  it('join window AND two channels: members who joined in 30 days and are in both, counts only there', async () => {
    const channels = busyPair();
    const join = last(30);
    const rows = await allRows({
      time_filter: { type: 'static', days: 90 },
      channels,
      channel_type: 'AND',
      base_filter: { type: 'team_join', time_filter: { type: 'static', days: 30 } },
    });
    const want = expected({ ...last(90), channels }, (_c, p) => {
      const d = localJoin(p);
      return d >= join.fromDay && d <= join.toDay && inAll(p.id, channels);
    });
    expect(want.length).toBeGreaterThan(0);
    expect(fromRows(rows)).toEqual(want);
    // OR over the same channels finds at least as many (members of either).
    const either = await allRows({
      time_filter: { type: 'static', days: 90 },
      channels,
      channel_type: 'OR',
      base_filter: { type: 'team_join', time_filter: { type: 'static', days: 30 } },
    });
    const wantEither = expected({ ...last(90), channels }, (_c, p) => {
      const d = localJoin(p);
      return (
        d >= join.fromDay && d <= join.toDay && channels.some((c) => truth.channelMembers.get(c)?.has(p.id))
      );
    });
    expect(fromRows(either)).toEqual(wantEither);
    expect(wantEither.length).toBeGreaterThan(want.length);
    // Rows carry the window and the channels' names.
    expect(rows[0]!.date_of_data).toBe(`${last(90).fromDay} to ${today}`);
    const names = await channelNames(env.t.ctx.database.db, teamId, channels);
    // Channels read as on screen, with their '#'.
    expect(rows[0]!.channel_name).toBe(channels.map((c) => `#${names.get(c)}`).join(', '));
    expect(rows.every((r) => r.activity === r.messages + r.replies + r.reactions)).toBe(true);
  });

  it("each channel's members are the emulator's, also where members joined and left it in the history", async () => {
    const ws = await typedResult<{ timezone: string }>(
      env.t.ctx.database.db,
      sql`select timezone from workspaces where team_id = ${churnTeam}`,
    );
    const churn = groundTruth(env, churnTeam, ws.rows[0]!.timezone);
    const start = env.emu.truth(churnTeam).window.start;
    // Someone joined a visible channel inside the history and left it again.
    const events = [...env.emu.truth(churnTeam).membershipEvents()];
    const rejoinedAndLeft = events.filter(
      (e) =>
        e.kind === 'leave' &&
        churn.visible.includes(e.channel) &&
        events.some(
          (j) => j.kind === 'join' && j.user === e.user && j.channel === e.channel && j.at >= start,
        ),
    );
    expect(rejoinedAndLeft.length).toBeGreaterThan(0);
    for (const channel of churn.visible) {
      const res = await call('POST', '/analytics/performadvanceanalytics', {
        team_id: churnTeam,
        channels: [channel],
        page_size: 500,
      });
      const want = churn.people.filter((p) => churn.channelMembers.get(channel)!.has(p.id)).map((p) => p.id);
      const have = (res.json().data as BucketRow[]).map((r) => r.member_id);
      expect(have.sort(), channel).toEqual(want.sort());
    }
  });

  it('activity OR with three operators (>, <, =) over 14 days', async () => {
    const rows = await allRows({
      time_filter: { type: 'static', days: 14 },
      activity_filter: {
        type: 'OR',
        message_filter: { operator: '>', count: 4 },
        reaction_filter: { operator: '<', count: 1 },
        reply_filter: { operator: '=', count: 2 },
      },
    });
    const want = expected(last(14), (c) => c.messages > 4 || c.reactions < 1 || c.replies === 2);
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(truth.people.length);
    expect(fromRows(rows)).toEqual(want);
    // Most active first.
    const acts = rows.map((r) => r.activity);
    expect(acts).toEqual([...acts].sort((a, b) => b - a));
  });

  it('split by date: one row per member, local day and channel with activity, newest day first', async () => {
    const channels = truth.visible.slice(0, 3);
    const w = { ...last(14), channels };
    const rows = await allRows({
      time_filter: { type: 'static', days: 14 },
      channels,
      split_by_date_and_channel: true,
    });
    const want: string[] = [];
    for (const p of truth.people) {
      if (!channels.some((c) => truth.channelMembers.get(c)?.has(p.id))) continue;
      for (const [day, byChannel] of truth.activity.get(p.id) ?? [])
        for (const [channel, c] of byChannel)
          if (day >= w.fromDay && day <= w.toDay && channels.includes(channel) && activityOf(c) > 0)
            want.push(`${day}|${p.id}|${channel}|${c.messages}|${c.replies}|${c.reactions}`);
    }
    const have = rows.map(
      (r) => `${r.date_of_data}|${r.member_id}|${r.channel_id}|${r.messages}|${r.replies}|${r.reactions}`,
    );
    expect(want.length).toBeGreaterThan(20);
    expect([...have].sort()).toEqual(want.sort());
    const days = rows.map((r) => r.date_of_data);
    expect(days).toEqual([...days].sort().reverse());
    // Each row names its channel as the screens do: '#general'.
    const names = await channelNames(env.t.ctx.database.db, teamId, channels);
    expect(rows.every((r) => r.channel_name === `#${names.get(r.channel_id!)}`)).toBe(true);
    // A small page carries the count of every row.
    const page = await call('POST', '/analytics/performadvanceanalytics', {
      team_id: teamId,
      time_filter: { type: 'static', days: 14 },
      channels,
      split_by_date_and_channel: true,
      page: 2,
      page_size: 5,
    });
    expect(page.json().total).toBe(want.length);
    expect(page.json().data).toEqual(rows.slice(5, 10));
  });

  it('left members: who left the workspace in a window, with their counts', async () => {
    const startts = Date.now() - 60 * 86_400_000;
    const endts = Date.now();
    const rows = await allRows({
      time_filter: { type: 'static', days: 90 },
      base_filter: { type: 'team_left', startts, endts },
    });
    const want = expected(
      last(90),
      (_c, p) => p.left !== null && p.left * 1000 >= startts && p.left * 1000 <= endts,
    );
    expect(want.length).toBeGreaterThan(0);
    expect(fromRows(rows)).toEqual(want);
  });

  it('the database writes CSV cells as csvCell does: quotes doubled, formulas made text', async () => {
    const values = [
      'plain',
      '2026-11-23',
      'x-y',
      '\\n',
      'say "hi"',
      '=SUM(A1)',
      '+1',
      '-5',
      '@here',
      '\tx',
      '\rx',
      '',
      'a,b',
      'é ✓',
    ];
    for (const v of values) {
      const r = await typedResult<{ cell: string }>(
        env.t.ctx.database.db,
        sql`select ${csvCellSql(sql`${v}::text`)} as cell`,
      );
      expect(r.rows[0]!.cell, JSON.stringify(v)).toBe(csvCell(v));
    }
  });

  it("CSV: a BOM, the product's header, quoted strings; a single 'no data' row when nothing matches", async () => {
    const res = await call('POST', '/analytics/exportadvanceanalytics', {
      team_id: teamId,
      time_filter: { type: 'static', days: 14 },
      split_by_date_and_channel: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const text = res.rawPayload.toString('utf8');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const lines = text.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      '"Date of Data","Member Name","Member Email ID","Channel Name","Messages","Reactions","Replies","Activity"',
    );
    expect(lines[1]).toMatch(/^"\d{4}-\d{2}-\d{2}","[^"]*","[^"]*","#[^"]+",\d+,\d+,\d+,\d+$/);
    const rows = await allRows({
      time_filter: { type: 'static', days: 14 },
      split_by_date_and_channel: true,
    });
    expect(lines).toHaveLength(rows.length + 1);
    // Streamed two weeks at a time, the export holds the table's rows in the table's order, also with an activity
    // filter over the whole window and a channel filter.
    for (const body of <Omit<AdvanceAnalyticsRequest, 'team_id'>[]>[
      { time_filter: { type: 'static', days: 14 }, split_by_date_and_channel: true },
      {
        time_filter: { type: 'static', days: 30 },
        split_by_date_and_channel: true,
        channels: busyPair(),
        activity_filter: { type: 'OR', message_filter: { operator: '>', count: 0 } },
      },
    ]) {
      const csv = await call('POST', '/analytics/exportadvanceanalytics', { team_id: teamId, ...body });
      let want = '';
      for await (const part of bucketCsvLines(await allRows(body))) want += part;
      expect(csv.rawPayload.toString('utf8')).toBe(want);
    }

    const none = await call('POST', '/analytics/exportadvanceanalytics', {
      team_id: teamId,
      activity_filter: { type: 'AND', message_filter: { operator: '>', count: 1_000_000 } },
    });
    expect(none.rawPayload.toString('utf8').slice(1).trimEnd().split('\r\n')).toEqual([
      expect.stringContaining('"Date of Data"'),
      '"no data"',
    ]);
  });
});

describe('buckets', () => {
  const definition = (channels: string[]): BucketData => ({
    basis: 'members',
    base_events: { event: 'workspace_join', time_filter_type: 'Fixed', days: 30 },
    sub_time_filter: { type: 'static', days: 90 },
    activity_filter: 'AND',
    channel_filter: { ids: channels, type: 'AND' },
    message_filter: null,
    reaction_filter: null,
    replies_filter: null,
  });

  it('create (Not-Executed), run (members = the ground truth), result rows, tags for all, delete', async () => {
    const channels = busyPair();
    const made = await call('POST', '/bucket/createbucket', {
      team_id: teamId,
      bucket_name: '  Newcomers  ',
      data: definition(channels),
    });
    expect(made.statusCode, made.body).toBe(201);
    const bucket = made.json().data as Bucket;
    expect(bucket.name).toBe('Newcomers');
    expect(bucket.last_execute).toBeNull();
    expect(
      (
        await call('POST', '/bucket/createbucket', {
          team_id: teamId,
          bucket_name: 'NEWCOMERS',
          data: definition(channels),
        })
      ).statusCode,
    ).toBe(409);

    const listed = (await call('GET', `/bucket/getbuckets/${teamId}`)).json().data as Bucket[];
    expect(listed.map((b) => b.id)).toContain(bucket.id);
    // Before a run there is nothing to export.
    expect((await call('GET', `/bucket/getbucketres/${bucket.id}/${teamId}`)).json().data).toEqual([]);

    const before = Date.now();
    const run = await call('POST', '/bucket/execute', { team_id: teamId, id: bucket.id });
    expect(run.statusCode, run.body).toBe(200);
    const ran = run.json().data.bucketdata as Bucket;
    expect(ran.last_execute).toBeGreaterThanOrEqual(before - 1000);
    const join = last(30);
    const want = expected({ ...last(90), channels }, (_c, p) => {
      const d = localJoin(p);
      return d >= join.fromDay && d <= join.toDay && inAll(p.id, channels);
    });
    expect(ran.member_count).toBe(want.length);
    expect(run.json().message).toContain(`${want.length} member`);

    const res = await call('GET', `/bucket/getbucketres/${bucket.id}/${teamId}`);
    expect(res.statusCode).toBe(200);
    expect(fromRows(res.json().data as BucketRow[])).toEqual(want);

    // Tags for every member of the last run; the Members tag filter then shows exactly them.
    const tag = (await call('POST', '/tags/createtag', { team_id: teamId, name: 'Bucket Tag' })).json()
      .data as {
      id: number;
      name: string;
    };
    const tagged = await call('POST', '/bucket/addtags', { team_id: teamId, id: bucket.id, tags: [tag] });
    expect(tagged.statusCode, tagged.body).toBe(200);
    const members = await call('POST', '/members/getmembersdata', {
      team_id: teamId,
      tags: [tag.id],
      page_size: 500,
    });
    expect((members.json().data as Member[]).map((m) => m.member_id).sort()).toEqual(want.map((w) => w.id));

    const gone = await call('DELETE', `/bucket/deletebucket/${bucket.id}/${teamId}`);
    expect(gone.statusCode).toBe(200);
    expect((await call('DELETE', `/bucket/deletebucket/${bucket.id}/${teamId}`)).statusCode).toBe(404);
    expect((await call('POST', '/bucket/execute', { team_id: teamId, id: bucket.id })).statusCode).toBe(404);
  });

  it('stays live: a run evaluates the definition on the current data (activity OR, three operators)', async () => {
    const made = await call('POST', '/bucket/createbucket', {
      team_id: teamId,
      bucket_name: 'Talkers',
      data: {
        ...definition([truth.visible[0]!]),
        base_events: null,
        channel_filter: { ids: truth.visible, type: 'OR' },
        sub_time_filter: { type: 'static', days: 14 },
        activity_filter: 'OR',
        message_filter: { operator: '>', count: 4 },
        reaction_filter: { operator: '<', count: 1 },
        replies_filter: { operator: '=', count: 2 },
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = (made.json().data as Bucket).id;
    const run = await call('POST', '/bucket/execute', { team_id: teamId, id });
    const want = expected(
      { ...last(14), channels: truth.visible },
      (c, p) =>
        truth.visible.some((ch) => truth.channelMembers.get(ch)?.has(p.id)) &&
        (c.messages > 4 || c.reactions < 1 || c.replies === 2),
    );
    expect(run.json().data.bucketdata.member_count).toBe(want.length);
    const rows = (await call('GET', `/bucket/getbucketres/${id}/${teamId}`)).json().data as BucketRow[];
    expect(fromRows(rows)).toEqual(want);
  });

  it('a run again writes what changed: members no longer found go, new ones come, counts move', async () => {
    const made = await call('POST', '/bucket/createbucket', {
      team_id: teamId,
      bucket_name: 'Rerun',
      data: { ...definition([truth.visible[0]!]), base_events: null },
    });
    const id = (made.json().data as Bucket).id;
    const repo = bucketsRepo(env.t.ctx.database.db);
    const [a, b, c] = truth.people.slice(0, 3).map((p) => p.id);
    const run = (rows: [string, number][]) =>
      repo.saveRun(teamId, id, {
        at: new Date(),
        fromDay: last(7).fromDay,
        toDay: today,
        channels: 'x',
        matches: sql`select v.member_id, v.messages, 0 as replies, 0 as reactions
          from jsonb_to_recordset(${JSON.stringify(rows.map(([member_id, messages]) => ({ member_id, messages })))}::jsonb)
            as v(member_id text, messages int)`,
      });
    const stored = async () =>
      (
        await typedResult<{ member_id: string; messages: number }>(
          env.t.ctx.database.db,
          sql`select member_id, messages from bucket_members where bucket_id = ${id} order by member_id`,
        )
      ).rows.map((r) => [r.member_id, r.messages]);
    expect(
      (
        await run([
          [a!, 1],
          [b!, 2],
        ])
      )?.lastCount,
    ).toBe(2);
    expect(await stored()).toEqual(
      [
        [a, 1],
        [b, 2],
      ].sort(),
    );
    expect(
      (
        await run([
          [b!, 5],
          [c!, 1],
        ])
      )?.lastCount,
    ).toBe(2);
    expect(await stored()).toEqual(
      [
        [b, 5],
        [c, 1],
      ].sort(),
    );
    expect((await run([]))?.lastCount).toBe(0);
    expect(await stored()).toEqual([]);
    expect(
      await repo.saveRun(otherTeam, id, {
        at: new Date(),
        fromDay: today,
        toDay: today,
        channels: '',
        matches: sql`select 'U1' as member_id, 1 as messages, 0 as replies, 0 as reactions`,
      }),
    ).toBeUndefined();
  });

  it('a Channels-basis bucket exports one row per member and channel', async () => {
    const channels = truth.visible.slice(0, 2);
    const made = await call('POST', '/bucket/createbucket', {
      team_id: teamId,
      bucket_name: 'Per channel',
      data: {
        ...definition(channels),
        basis: 'channels',
        base_events: null,
        channel_filter: { ids: channels, type: 'OR' },
      },
    });
    const id = (made.json().data as Bucket).id;
    expect((await call('POST', '/bucket/execute', { team_id: teamId, id })).statusCode).toBe(200);
    const rows = (await call('GET', `/bucket/getbucketres/${id}/${teamId}`)).json().data as BucketRow[];
    const run = await bucketsRepo(env.t.ctx.database.db).memberIds(teamId, id);
    const w = last(90);
    const want: string[] = [];
    for (const p of truth.people) {
      if (!channels.some((c) => truth.channelMembers.get(c)?.has(p.id))) continue;
      let any = false;
      for (const ch of channels) {
        const c = countsIn(truth, p.id, { ...w, channels: [ch] });
        if (activityOf(c) > 0) want.push(`${p.id}|${ch}|${activityOf(c)}`);
        any ||= activityOf(c) > 0;
      }
      // A member of the run quiet in those channels has one row without a channel.
      if (!any && run.includes(p.id)) want.push(`${p.id}|null|0`);
    }
    expect(rows.map((r) => `${r.member_id}|${r.channel_id}|${r.activity}`).sort()).toEqual(want.sort());
  });

  it('a Channels-basis bucket of members quiet in its channels exports them too (the count and the CSV agree)', async () => {
    // Two channels where someone was quiet all week (the generated history ends today: which channels have quiet
    // members depends on the date, so they are picked from the ground truth, not taken as the first two).
    const quietIn = (pair: string[]) =>
      truth.people.filter(
        (p) =>
          p.left === null &&
          pair.some((c) => truth.channelMembers.get(c)?.has(p.id)) &&
          activityOf(countsIn(truth, p.id, { ...last(7), channels: pair })) === 0,
      );
    const pairs = truth.visible.flatMap((a) => truth.visible.filter((b) => a < b).map((b) => [a, b]));
    const channels = pairs.find((pair) => quietIn(pair).length > 0)!;
    expect(channels, 'two channels with a member quiet in them for a week').toBeDefined();
    const made = await call('POST', '/bucket/createbucket', {
      team_id: teamId,
      bucket_name: 'Quiet per channel',
      data: {
        ...definition(channels),
        basis: 'channels',
        base_events: null,
        channel_filter: { ids: channels, type: 'OR' },
        sub_time_filter: { type: 'static', days: 7 },
        activity_filter: 'AND',
        message_filter: { operator: '<', count: 1 },
        reaction_filter: { operator: '<', count: 1 },
        replies_filter: { operator: '<', count: 1 },
      },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = (made.json().data as Bucket).id;
    const run = await call('POST', '/bucket/execute', { team_id: teamId, id });
    const count = run.json().data.bucketdata.member_count as number;
    expect(count).toBe(quietIn(channels).length);
    const rows = (await call('GET', `/bucket/getbucketres/${id}/${teamId}`)).json().data as BucketRow[];
    expect(new Set(rows.map((r) => r.member_id))).toEqual(new Set(quietIn(channels).map((p) => p.id)));
    for (const r of rows) expect(r.activity).toBe(0);
  });
});

describe('a bucket as an audience', () => {
  it('resolves to the members of its last run (deactivated members left out); an unknown bucket is a 400', async () => {
    const channels = busyPair();
    const made = await call('POST', '/bucket/createbucket', {
      team_id: teamId,
      bucket_name: 'Audience',
      data: { channel_filter: { ids: channels, type: 'OR' }, sub_time_filter: { type: 'static', days: 30 } },
    });
    const id = (made.json().data as Bucket).id;
    expect((await call('POST', '/bucket/execute', { team_id: teamId, id })).statusCode).toBe(200);
    const want = truth.people
      .filter((p) => p.left === null && channels.some((c) => truth.channelMembers.get(c)?.has(p.id)))
      .map((p) => p.id)
      .sort();
    expect(want.length).toBeGreaterThan(0);
    const audience = env.t.ctx.services.audience;
    const got = await audience.resolve(teamId, audienceSchema.parse({ buckets: [id] }));
    expect([...got.members].sort()).toEqual(want);
    await expect(audience.resolve(teamId, audienceSchema.parse({ buckets: [id, 999_999] }))).rejects.toThrow(
      'Unknown bucket id(s) in this workspace: 999999',
    );
    // Another workspace's bucket is unknown here.
    await expect(audience.resolve(otherTeam, audienceSchema.parse({ buckets: [id] }))).rejects.toThrow(
      'Unknown bucket id(s)',
    );
  });
});

describe('bad input and other workspaces', () => {
  it.each([
    [{ bucket_name: '   ', data: { channel_filter: { ids: ['C1'] } } }, BUCKET_NAME_EMPTY],
    [{ bucket_name: 'x', data: { channel_filter: { ids: [] } } }, BUCKET_CHANNELS_EMPTY],
    [{ bucket_name: 'x', data: {} }, BUCKET_CHANNELS_EMPTY],
    [
      {
        bucket_name: 'x',
        data: { channel_filter: { ids: ['C1'] }, message_filter: { operator: '>=', count: 1 } },
      },
      'data.message_filter.operator must be one of >, < or =',
    ],
    [
      {
        bucket_name: 'x',
        data: { channel_filter: { ids: ['C1'] }, replies_filter: { operator: '>', count: -1 } },
      },
      'data.replies_filter.count must be 0 or more',
    ],
    [
      {
        bucket_name: 'x',
        data: {
          channel_filter: { ids: ['C1'] },
          base_events: { event: 'workspace_join', time_filter_type: 'custom' },
        },
      },
      'data.base_events.start_time',
    ],
    [{ bucket_name: 'x', data: { channel_filter: { ids: ['CNOPE'] } } }, 'data.channel_filter.ids'],
  ])('createbucket %j -> 400 %s', async (payload, message) => {
    const res = await call('POST', '/bucket/createbucket', { team_id: teamId, ...payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it.each([
    [{ activity_filter: { type: 'XOR' } }, "activity_filter.type must be 'AND' or 'OR'"],
    [{ channel_type: 'ALL' }, "channel_type must be 'AND' or 'OR'"],
    [{ split_by_date_and_channel: 'yes' }, 'split_by_date_and_channel must be true or false'],
    [{ base_filter: { type: 'team_left', startts: 5, endts: 1 } }, 'base_filter.startts'],
    [{ time_filter: { type: 'static', days: 0 } }, 'time_filter.days must be at least 1'],
    [{ page_size: 10_000 }, 'page_size must be at most 500'],
  ])('performadvanceanalytics %j -> 400 %s', async (payload, message) => {
    const res = await call('POST', '/analytics/performadvanceanalytics', { team_id: teamId, ...payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toContain(message);
  });

  it("another workspace's bucket is 404 through one's own workspace and 403 through theirs", async () => {
    const theirs = await call(
      'POST',
      '/bucket/createbucket',
      {
        team_id: otherTeam,
        bucket_name: 'Theirs',
        data: { channel_filter: { ids: [env.emu.truth(otherTeam).channels()[0]!.id] } },
      },
      otherToken,
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    const id = (theirs.json().data as Bucket).id;
    expect((await call('POST', '/bucket/execute', { team_id: teamId, id })).statusCode).toBe(404);
    expect((await call('GET', `/bucket/getbucketres/${id}/${teamId}`)).statusCode).toBe(404);
    expect((await call('DELETE', `/bucket/deletebucket/${id}/${teamId}`)).statusCode).toBe(404);
    expect(
      (await call('POST', '/bucket/addtags', { team_id: teamId, id, tags: [{ id: 1 }] })).statusCode,
    ).toBe(404);
    expect((await call('POST', '/bucket/execute', { team_id: otherTeam, id })).statusCode).toBe(403);
    expect((await call('GET', `/bucket/getbuckets/${otherTeam}`)).statusCode).toBe(403);
    expect((await call('GET', `/bucket/getbucketres/abc/${teamId}`)).statusCode).toBe(400);
    // Still theirs, untouched.
    expect((await call('POST', '/bucket/execute', { team_id: otherTeam, id }, otherToken)).statusCode).toBe(
      200,
    );
  });

  it('tags need a run first, and a tag of this workspace', async () => {
    const made = await call('POST', '/bucket/createbucket', {
      team_id: teamId,
      bucket_name: 'Unrun',
      data: { channel_filter: { ids: [truth.visible[0]!] } },
    });
    const id = (made.json().data as Bucket).id;
    const res = await call('POST', '/bucket/addtags', { team_id: teamId, id, tags: [{ id: 1 }] });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('first');
    expect(
      (await call('POST', '/bucket/addtags', { team_id: teamId, id, tags: [] })).json().message,
    ).toContain('Select a tag');
  });
});
