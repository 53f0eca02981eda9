import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Member } from '@flywheel/shared/directory';
import type { MembersDataRequest } from '@flywheel/shared/members';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { localDay } from '../../lib/days.ts';
import {
  countsIn,
  groundTruth,
  type Counts,
  type GroundTruth,
  type TruthWindow,
} from '../../testing/ground-truth.ts';
import { addDays } from './service.ts';
import { typedResult } from '../../db/sql.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let teamId: string;
let otherTeam: string;
let token: string;
let tz: string;
let today: string;

/** Ground truth, computed from the emulator's raw rows alone. */
let truth: GroundTruth;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 11, members: 70, channels: 6, days: 40 },
        { seed: 12, members: 15, channels: 3, days: 3 },
      ],
    },
    { BACKFILL_DAYS: '90' },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  const owner = await signedInUser(env.t);
  const other = await signedInUser(env.t);
  token = owner.token;
  expect((await installThroughOAuth(env, owner, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, other, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, token, teamId, 90_000);
  await waitForBackfill(env, other.token, otherTeam, 90_000);
  const ws = await typedResult<{ timezone: string }>(
    env.t.ctx.database.db,
    sql`select timezone from workspaces where team_id = ${teamId}`,
  );
  tz = ws.rows[0]!.timezone;
  today = localDay(new Date(), tz);
  truth = groundTruth(env, teamId, tz);
}, 180_000);
afterAll(() => env?.close());

type Expect = TruthWindow;
const countsOf = (id: string, w: Expect): Counts => countsIn(truth, id, w);

async function getData(body: Omit<MembersDataRequest, 'team_id'> & { team_id?: string }) {
  const res = await env.t.app.inject({
    method: 'POST',
    url: '/api/v0/members/getmembersdata',
    headers: bearer(token),
    payload: { team_id: teamId, page_size: 500, ...body },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Member[]; total: number; left: number };
}

/** The ids and counts the API returns must equal the independent computation. */
async function expectSame(
  body: Omit<MembersDataRequest, 'team_id'>,
  w: Expect,
  keep: (c: Counts, p: (typeof truth)['people'][number]) => boolean,
) {
  const got = await getData(body);
  const want = truth.people
    .map((p) => ({ p, c: countsOf(p.id, w) }))
    .filter(({ p, c }) => keep(c, p))
    .map(({ p, c }) => ({ id: p.id, ...c }))
    .sort((a, b) => a.id.localeCompare(b.id));
  const have = got.data
    .map((m) => ({ id: m.member_id, messages: m.messages, replies: m.replies, reactions: m.reactions }))
    .sort((a, b) => a.id.localeCompare(b.id));
  expect(have).toEqual(want);
  expect(got.total).toBe(want.length);
  return want;
}

const last = (days: number): Expect => ({ fromDay: addDays(today, -(days - 1)), toDay: today });
const all = () => true;

describe('POST /members/getmembersdata against ground truth', () => {
  it('static windows without filters list every member with the window counts', async () => {
    for (const days of [7, 14, 90]) {
      const want = await expectSame({ time_filter: { type: 'static', days } }, last(days), all);
      expect(want.length).toBe(truth.people.length);
    }
    // The default window is 7 days.
    const got = await getData({});
    expect(got.total).toBe(truth.people.length);
  });

  it('AND over messages > and replies >, with a dynamic range', async () => {
    const w = { fromDay: addDays(today, -30), toDay: addDays(today, -5) };
    const want = await expectSame(
      {
        time_filter: { type: 'dynamic', start_date: w.fromDay, end_date: w.toDay },
        activity_filter: {
          type: 'AND',
          message_filter: { operator: '>', count: 3 },
          reply_filter: { operator: '>', count: 1 },
        },
      },
      w,
      (c) => c.messages > 3 && c.replies > 1,
    );
    expect(want.length).toBeGreaterThan(0);
  });

  it('OR over messages = 0 and reactions >', async () => {
    const want = await expectSame(
      {
        time_filter: { type: 'static', days: 14 },
        activity_filter: {
          type: 'OR',
          message_filter: { operator: '=', count: 0 },
          reaction_filter: { operator: '>', count: 5 },
        },
      },
      last(14),
      (c) => c.messages === 0 || c.reactions > 5,
    );
    expect(want.length).toBeGreaterThan(0);
    expect(want.length).toBeLessThan(truth.people.length);
  });

  it('< on replies within channels (members of the channels, counts only there)', async () => {
    const channels = truth.visible.slice(0, 2);
    const w = { ...last(90), channels };
    const inChannels = (id: string) => channels.some((c) => truth.channelMembers.get(c)?.has(id));
    const want = await expectSame(
      {
        time_filter: { type: 'static', days: 90 },
        channels,
        activity_filter: { type: 'AND', reply_filter: { operator: '<', count: 3 } },
      },
      w,
      (c, p) => inChannels(p.id) && c.replies < 3,
    );
    expect(want.length).toBeGreaterThan(0);
  });

  it('base filter team_join with a time_filter window, and team_left with startts/endts', async () => {
    const w = last(30);
    const joined = await expectSame(
      {
        time_filter: { type: 'static', days: 365 },
        base_filter: { type: 'team_join', time_filter: { type: 'static', days: 30 } },
      },
      last(365),
      (_c, p) => {
        const d = localDay(new Date(p.joined * 1000), tz);
        return d >= w.fromDay && d <= w.toDay;
      },
    );
    expect(joined.length).toBeGreaterThan(0);

    const startts = Date.now() - 60 * 86400_000;
    const endts = Date.now();
    const left = await expectSame(
      { time_filter: { type: 'static', days: 7 }, base_filter: { type: 'team_left', startts, endts } },
      last(7),
      (_c, p) => p.left !== null && p.left * 1000 >= startts && p.left * 1000 <= endts,
    );
    expect(left.length).toBeGreaterThan(0);
  });

  it('tags: members carrying any of the tags; AND with an activity filter', async () => {
    const made = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/tags/createtag',
      headers: bearer(token),
      payload: { team_id: teamId, name: 'Filter Test' },
    });
    expect(made.statusCode).toBe(201);
    const tag = made.json().data as { id: number; name: string };
    const chosen = truth.people.slice(0, 6).map((p) => p.id);
    const add = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/tags/addtagtousers',
      headers: bearer(token),
      payload: { team_id: teamId, tags: [tag], users: chosen.map((id) => ({ id })) },
    });
    expect(add.statusCode, add.body).toBe(200);
    expect(add.json().added).toBe(6);
    await expectSame({ time_filter: { type: 'static', days: 90 }, tags: [tag.id] }, last(90), (_c, p) =>
      chosen.includes(p.id),
    );
    await expectSame(
      {
        time_filter: { type: 'static', days: 90 },
        tags: [tag.id],
        activity_filter: { type: 'AND', message_filter: { operator: '>', count: 0 } },
      },
      last(90),
      (c, p) => chosen.includes(p.id) && c.messages > 0,
    );
    // A custom range narrowed by a tag: the activity is summed for the tagged members alone.
    const range = { fromDay: addDays(today, -40), toDay: addDays(today, -3) };
    await expectSame(
      {
        time_filter: { type: 'dynamic', start_date: range.fromDay, end_date: range.toDay },
        tags: [tag.id],
        activity_filter: {
          type: 'OR',
          message_filter: { operator: '>', count: 1 },
          reaction_filter: { operator: '=', count: 0 },
        },
      },
      range,
      (c, p) => chosen.includes(p.id) && (c.messages > 1 || c.reactions === 0),
    );
    const page = await getData({ tags: [tag.id] });
    expect(page.data.every((m) => m.tags?.some((t) => t.id === tag.id))).toBe(true);
  });

  it('search, sort and pagination happen on the server', async () => {
    const w = last(90);
    const sorted = truth.people
      .map((p) => ({ id: p.id, ...countsOf(p.id, w) }))
      .sort((a, b) => b.messages - a.messages || a.id.localeCompare(b.id));
    const res = await getData({
      time_filter: { type: 'static', days: 90 },
      sort: { field: 'messages', direction: 'desc' },
      page: 2,
      page_size: 5,
    });
    expect(res.total).toBe(truth.people.length);
    expect(res.data.map((m) => m.member_id)).toEqual(sorted.slice(5, 10).map((s) => s.id));

    const someone = truth.people.find((p) => p.real_name.length > 4)!;
    const needle = someone.real_name.slice(1, 4).toUpperCase();
    const found = await getData({ search: needle });
    const want = truth.people.filter((p) =>
      [p.real_name, p.display_name, p.email].some((s) => s.toLowerCase().includes(needle.toLowerCase())),
    );
    expect(found.data.map((m) => m.member_id).sort()).toEqual(want.map((p) => p.id).sort());

    // E-mail and display name count too, in any case; wildcards are literal; no match spans two fields.
    const mailed = truth.people.find((p) => p.email.includes('@'))!;
    const atDomain = mailed.email.slice(mailed.email.indexOf('@')).toUpperCase();
    const byMail = await getData({ search: atDomain });
    expect(byMail.data.map((m) => m.member_id)).toContain(mailed.id);
    expect(byMail.total).toBe(
      truth.people.filter((p) => p.email.toLowerCase().includes(atDomain.toLowerCase())).length,
    );
    const shown = truth.people.find(
      (p) => p.display_name.length > 2 && !p.real_name.includes(p.display_name),
    )!;
    const byDisplay = await getData({ search: shown.display_name.toUpperCase() });
    expect(byDisplay.data.map((m) => m.member_id)).toContain(shown.id);
    expect((await getData({ search: '%' })).total).toBe(
      truth.people.filter((p) => [p.real_name, p.display_name, p.email].some((x) => x.includes('%'))).length,
    );
    expect((await getData({ search: '_' })).total).toBe(
      truth.people.filter((p) => [p.real_name, p.display_name, p.email].some((x) => x.includes('_'))).length,
    );
    const spanning = `${someone.real_name.slice(-2)}${truth.people.find((p) => p.id === someone.id)!.display_name.slice(0, 2)}`;
    const spanHits = await getData({ search: spanning });
    const spanWant = truth.people.filter((p) =>
      [p.real_name, p.display_name, p.email].some((x) => x.toLowerCase().includes(spanning.toLowerCase())),
    );
    expect(spanHits.data.map((m) => m.member_id).sort()).toEqual(spanWant.map((p) => p.id).sort());

    const beyond = await getData({ page: 99, page_size: 50 });
    expect(beyond).toMatchObject({ data: [], total: truth.people.length });
  });
});

describe('members who left', () => {
  it("are marked, counted apart, and the rest is Analytics' Overall", async () => {
    const leavers = truth.people.filter((p) => p.left !== null);
    expect(leavers.length, 'the seed has members who left').toBeGreaterThan(0);
    const got = await getData({});
    expect(got.total).toBe(truth.people.length);
    expect(got.left).toBe(leavers.length);
    expect(
      got.data
        .filter((m) => m.deleted)
        .map((m) => m.member_id)
        .sort(),
    ).toEqual(leavers.map((p) => p.id).sort());
    // Overall members (the Users chart's last day) counts everyone but them.
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/analytics/memberschangeanalytics',
      headers: bearer(token),
      payload: { team_id: teamId, time_filter: { type: 'static', days: 7 }, channels: [] },
    });
    const days = res.json().data as { overall_members: number }[];
    expect(days.at(-1)!.overall_members).toBe(got.total - got.left);
    // The count follows the filters and the pages: a page past the end still says it.
    const leaver = leavers[0]!;
    expect(await getData({ search: leaver.email })).toMatchObject({ total: 1, left: 1 });
    expect(await getData({ page: 99, page_size: 50 })).toMatchObject({ data: [], left: leavers.length });
    const one = await getData({ page_size: 1 });
    expect(one.left).toBe(leavers.length);
  });

  it('blank display names sort as the real name the table shows', async () => {
    const got = await getData({ sort: { field: 'display_name', direction: 'asc' } });
    const shown = got.data.map((m) => (m.display_name || m.real_name).toLowerCase());
    expect(shown).toEqual([...shown].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });
});

describe('bad payloads get 400 with a readable message', () => {
  it.each([
    [{ time_filter: { type: 'weekly' } }, "time_filter.type must be 'static' or 'dynamic'"],
    [{ time_filter: { type: 'dynamic', start_date: '2024-05-01' } }, 'A custom range needs both'],
    [
      { time_filter: { type: 'dynamic', start_date: '2024-05-09', end_date: '2024-05-01' } },
      'The start date must not be after the end date',
    ],
    [{ time_filter: { type: 'static', days: 0 } }, 'time_filter.days must be at least 1'],
    [
      { activity_filter: { type: 'AND', message_filter: { operator: '>=', count: 1 } } },
      'activity_filter.message_filter.operator must be one of >, < or =',
    ],
    [
      { activity_filter: { type: 'AND', reply_filter: { operator: '>', count: -1 } } },
      'activity_filter.reply_filter.count must be 0 or more',
    ],
    [{ activity_filter: { type: 'XOR' } }, "activity_filter.type must be 'AND' or 'OR'"],
    [{ base_filter: { type: 'team_join' } }, 'base_filter needs a window'],
    [{ base_filter: { type: 'joined', startts: 1, endts: 2 } }, "base_filter.type must be 'team_join'"],
    [{ sort: { field: 'password' } }, 'sort.field must be one of'],
    [{ page: 0 }, 'page starts at 1'],
    [{ channels: 'C1' }, 'channels must be a list of channel ids'],
  ])('%j', async (extra, message) => {
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/members/getmembersdata',
      headers: bearer(token),
      payload: { team_id: teamId, ...extra },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    expect(res.json().message).toContain(message);
  });
});

describe('CSV export', () => {
  it("streams 'Members Data' with a BOM, a header, quoted UserName and Email", async () => {
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/members/exportmembersdata',
      headers: bearer(token),
      payload: {
        team_id: teamId,
        time_filter: { type: 'static', days: 14 },
        sort: { field: 'real_name', direction: 'asc' },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('Members Data.csv');
    const raw = res.rawPayload.toString('utf8');
    expect(raw.charCodeAt(0)).toBe(0xfeff);
    const lines = raw.slice(1).trimEnd().split('\r\n');
    expect(lines[0]).toBe('"UserName","Email"');
    expect(lines).toHaveLength(truth.people.length + 1);
    const byEmail = new Map(truth.people.map((p) => [p.email, p]));
    for (const line of lines.slice(1)) {
      const [, name, email] = line.match(/^"((?:[^"]|"")*)","((?:[^"]|"")*)"$/)!;
      expect(byEmail.get(email!)?.real_name || byEmail.get(email!)?.display_name).toBe(
        name!.replace(/""/g, '"'),
      );
    }
  });

  it('exports only the chosen members when member_ids are given', async () => {
    const ids = truth.people.slice(0, 3).map((p) => p.id);
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/members/exportmembersdata',
      headers: bearer(token),
      payload: { team_id: teamId, member_ids: ids },
    });
    expect(res.rawPayload.toString('utf8').trimEnd().split('\r\n')).toHaveLength(4);
  });
});

describe('tags', () => {
  const call = (method: 'POST' | 'DELETE' | 'GET', url: string, payload?: object) =>
    env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(token), payload });

  it('create, refuse a duplicate in any case, add to members, remove one, list', async () => {
    const made = await call('POST', '/tags/createtag', { team_id: teamId, name: '  Champions ' });
    expect(made.statusCode).toBe(201);
    const tag = made.json().data;
    expect(tag.name).toBe('Champions');
    const dup = await call('POST', '/tags/createtag', { team_id: teamId, name: 'champions' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().message).toBe("A tag named 'Champions' already exists");

    const [a, b] = truth.people;
    expect(
      (
        await call('POST', '/tags/addtagtousers', {
          team_id: teamId,
          tags: [tag],
          users: [{ id: a!.id }, { id: b!.id }],
        })
      ).statusCode,
    ).toBe(200);
    const del = await call('DELETE', `/tags/removetagfromuser/${teamId}/${a!.id}/${tag.id}`);
    expect(del.statusCode).toBe(200);
    expect((await call('DELETE', `/tags/removetagfromuser/${teamId}/${a!.id}/${tag.id}`)).statusCode).toBe(
      404,
    );

    const info = await call('GET', `/member/memberinfo/${teamId}/${b!.id}`);
    expect(info.json().data.tags).toContainEqual(tag);
    const infoA = await call('GET', `/member/memberinfo/${teamId}/${a!.id}`);
    expect(infoA.json().data.tags).not.toContainEqual(tag);
    const listed = await call('GET', `/members/getmembers/${teamId}`);
    expect(listed.json().data.find((m: Member) => m.member_id === b!.id).tags).toContainEqual(tag);
    expect((await call('GET', `/tags/gettags/${teamId}`)).json().data).toContainEqual(tag);
  });

  it('refuses empty lists, unknown tags and other workspaces’ members with a message', async () => {
    const none = await call('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [],
      users: [{ id: 'U1' }],
    });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Select a tag');
    const nobody = await call('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [{ id: 1 }],
      users: [],
    });
    expect(nobody.json().message).toBe('Select at least one member');
    const unknown = await call('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [{ id: 999999 }],
      users: [{ id: truth.people[0]!.id }],
    });
    expect(unknown.statusCode).toBe(404);
    const tags = (await call('GET', `/tags/gettags/${teamId}`)).json().data;
    const stranger = [...env.emu.truth(otherTeam).members()].find((m) => !m.is_bot)!.id;
    const res = await call('POST', '/tags/addtagtousers', {
      team_id: teamId,
      tags: [tags[0]],
      users: [{ id: stranger }],
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain(stranger);
    const empty = await call('POST', '/tags/createtag', { team_id: teamId, name: '   ' });
    expect(empty.json()).toMatchObject({ statusCode: 400, message: 'Enter a tag name' });
  });
});

describe('member detail', () => {
  const get = (url: string) =>
    env.t.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(token) });
  const busiest = () =>
    truth.people
      .map((p) => ({ p, c: countsOf(p.id, last(90)) }))
      .sort((a, b) => b.c.messages - a.c.messages || a.p.id.localeCompare(b.p.id))[0]!;

  it('memberinfo: profile, all-time totals, channels', async () => {
    const { p } = busiest();
    const res = await get(`/member/memberinfo/${teamId}/${p.id}`);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    const total = countsOf(p.id, { fromDay: '0000-01-01', toDay: '9999-12-31' });
    expect(d).toMatchObject({ member_id: p.id, email: p.email, ...total });
    expect(d.activity).toBe(total.messages + total.replies + total.reactions);
    const channels = truth.visible.filter((c) => truth.channelMembers.get(c)!.has(p.id));
    expect(d.channels.map((c: any) => c.channel_id).sort()).toEqual(channels);
    const of = await get(`/member/channelsofuser/${teamId}/${p.id}`);
    expect(of.json().data).toEqual(d.channels);
    // The history Flywheel holds starts with the import window (90 days) or the first activity, the later:
    // 40 days of seeded history here. A member without a join date joined before it.
    const firstActive = [...truth.activity.values()].flatMap((byDay) => [...byDay.keys()]).sort()[0]!;
    expect(d.history_start).toBe(firstActive);
    const early = truth.people.find((x) => localDay(new Date(x.joined * 1000), tz) < firstActive)!;
    const earlyInfo = (await get(`/member/memberinfo/${teamId}/${early.id}`)).json().data;
    expect(earlyInfo).toMatchObject({ join_time: 0, history_start: firstActive });
  });

  it('activity per day, per channel and the pie agree with ground truth', async () => {
    const { p } = busiest();
    const days = (await get(`/member/activity/${teamId}/${p.id}/14`)).json().data;
    expect(days).toHaveLength(14);
    for (const d of days)
      expect(d).toEqual({
        date_of_data: d.date_of_data,
        ...countsOf(p.id, { fromDay: d.date_of_data, toDay: d.date_of_data }),
      });
    const per = (await get(`/member/channelactivity/${teamId}/${p.id}/90`)).json().data;
    for (const row of per)
      expect(row).toMatchObject(countsOf(p.id, { ...last(90), channels: [row.channel_id] }));
    expect(per.map((r: any) => r.messages)).toEqual(
      [...per.map((r: any) => r.messages)].sort((a, b) => b - a),
    );
    const pie = (await get(`/member/piegraph/${teamId}/${p.id}/90`)).json().data;
    const sum = pie.reduce((s: number, r: any) => s + r.activity, 0);
    const c = countsOf(p.id, last(90));
    expect(sum).toBe(c.messages + c.replies + c.reactions);
  });

  it('last7days: the action log, newest first, with mentions made readable', async () => {
    const { p } = busiest();
    const channel = truth.visible[0]!;
    const someone = truth.people.find((x) => x.id !== p.id)!;
    env.emu.team(teamId).postMessage(channel, { user: p.id, text: `ping <@${someone.id}> in <#${channel}>` });
    await env.emu.eventsIdle();
    await env.t.ctx.services.events.drain();
    const rows = (await get(`/member/last7days/${teamId}/${p.id}`)).json().data;
    const channelName = (await get(`/channels/getchannels/${teamId}`))
      .json()
      .data.find((c: any) => c.channel_id === channel).channel_name;
    expect(rows[0]).toMatchObject({
      activity_type: 'message',
      channel_id: channel,
      content: `ping @${someone.real_name} in #${channelName}`,
      is_pinned: false,
    });
    expect(rows.map((r: any) => r.at)).toEqual([...rows.map((r: any) => r.at)].sort((a, b) => b - a));
    // Pinned in Slack (pin_added): the row says so, so the page offers Unpin instead of Pin.
    const pinned = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/quickaction/pinpost',
      headers: bearer(token),
      payload: { team_id: teamId, channel_id: channel, ts: rows[0].ts },
    });
    expect(pinned.statusCode, pinned.body).toBe(200);
    await env.emu.eventsIdle();
    await env.t.ctx.services.events.drain();
    const after = (await get(`/member/last7days/${teamId}/${p.id}`)).json().data;
    expect(after[0]).toMatchObject({ ts: rows[0].ts, is_pinned: true });
    expect(
      after.filter((r: any) => r.activity_type === 'reaction').every((r: any) => !('is_pinned' in r)),
    ).toBe(true);
  });

  it("an unknown member, or another workspace's member, is 404; another workspace is 403", async () => {
    const stranger = [...env.emu.truth(otherTeam).members()].find((m) => !m.is_bot)!.id;
    for (const url of [
      `/member/memberinfo/${teamId}/${stranger}`,
      `/member/memberinfo/${teamId}/UNOBODY`,
      `/member/activity/${teamId}/${stranger}/7`,
      `/member/last7days/${teamId}/${stranger}`,
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'NOT_FOUND', message: 'This member is not in the workspace' });
    }
    expect((await get(`/member/memberinfo/${otherTeam}/${stranger}`)).statusCode).toBe(403);
    const bad = await get(`/member/activity/${teamId}/${stranger}/lots`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('days must be a number of days');
  });
});
