import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberHit } from '@flywheel/shared/member-directory';
import { bearer, signedInUser } from '../../testing/factories.ts';
import { installThroughOAuth, slackTestEnv, type SlackTestEnv } from '../../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

let env: SlackTestEnv;
let teamA: string;
let teamB: string;
let owner: { token: string; userid: string };
let intruder: { token: string; userid: string };

/** 14 members named "Quillon …" (unique to this test), one who left, one bot, and a look-alike in team B. */
beforeAll(async () => {
  env = await slackTestEnv({
    workspaces: [
      { seed: 21, members: 10, channels: 2, days: 2 },
      { seed: 22, members: 10, channels: 2, days: 2 },
    ],
  });
  [teamA, teamB] = env.emu.teamIds as [string, string];
  owner = await signedInUser(env.t);
  intruder = await signedInUser(env.t);
  expect((await installThroughOAuth(env, owner, { teamId: teamA })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, intruder, { teamId: teamB })).statusCode).toBe(200);
  const db = env.t.ctx.database.db;
  const row = (team: string, id: string, real: string, display: string, email: string, more = {}) => ({
    team,
    id,
    real,
    display,
    email,
    deleted: false,
    bot: false,
    ...more,
  });
  const rows = [
    ...Array.from({ length: 12 }, (_, i) =>
      row(teamA, `UQ${String(i).padStart(3, '0')}`, `Quillon Member ${i}`, `quill${i}`, `q${i}@quill.test`),
    ),
    row(teamA, 'UQX001', 'Ada Quillonsdottir', 'ada', 'ada@elsewhere.test'),
    row(teamA, 'UQX002', 'Zed Zebra', 'zz', 'zed.QUILLON@mail.test'),
    row(teamA, 'UQX003', 'Quillon Gone', 'gone', 'gone@quill.test', { deleted: true }),
    row(teamA, 'UQX004', 'Quillon Bot', 'qbot', 'bot@quill.test', { bot: true }),
    row(teamB, 'UQB001', 'Quillon Other Team', 'other', 'other@quill.test'),
  ];
  for (const r of rows)
    await db.execute(sql`insert into slack_members (team_id, member_id, real_name, display_name, email, deleted, is_bot)
      values (${r.team}, ${r.id}, ${r.real}, ${r.display}, ${r.email}, ${r.deleted}, ${r.bot})`);
}, 60_000);
afterAll(() => env.close());

const search = (team: string, query: string, token = owner.token) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0/members/search/${team}?${query}`, headers: bearer(token) });
const lookup = (payload: object, token = owner.token) =>
  env.t.app.inject({ method: 'POST', url: '/api/v0/members/lookup', payload, headers: bearer(token) });
const ids = (res: { json(): any }) => (res.json().data as MemberHit[]).map((m) => m.member_id);

describe('GET /members/search/:teamId', () => {
  it('matches real name, display name and e-mail case-insensitively, capped at 10 with "more"', async () => {
    const res = await search(teamA, 'q=QUILLON');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.data).toHaveLength(10);
    expect(body.more).toBe(true);
    // Names starting with the query first, then by name.
    expect(body.data[0].real_name).toMatch(/^Quillon/);
    const byMail = await search(teamA, 'q=zed.quillon');
    expect(ids(byMail)).toEqual(['UQX002']);
    expect(byMail.json().more).toBe(false);
    expect(byMail.json().data[0]).toEqual({
      member_id: 'UQX002',
      real_name: 'Zed Zebra',
      display_name: 'zz',
      email: 'zed.QUILLON@mail.test',
      deleted: false,
    });
    expect(ids(await search(teamA, 'q=quill7'))).toEqual(['UQ007']);
    // A substring inside the name, not only at its start.
    expect(ids(await search(teamA, 'q=sdottir'))).toEqual(['UQX001']);
  });

  it('leaves out bots, other workspaces and (unless left=true) members who left', async () => {
    const all = await search(teamA, 'q=quillon&limit=10');
    const everyone = [...ids(all)];
    expect(everyone).not.toContain('UQX004');
    expect(everyone).not.toContain('UQB001');
    expect(ids(await search(teamA, 'q=quillon gone'))).toEqual([]);
    const left = await search(teamA, 'q=quillon gone&left=true');
    expect(left.json().data).toEqual([expect.objectContaining({ member_id: 'UQX003', deleted: true })]);
    expect(ids(await search(teamA, 'q=qbot'))).toEqual([]);
  });

  it('answers a smaller limit, and treats % and _ as plain characters', async () => {
    const three = await search(teamA, 'q=quillon&limit=3');
    expect(three.json().data).toHaveLength(3);
    expect(three.json().more).toBe(true);
    expect(ids(await search(teamA, 'q=%25'))).toEqual([]);
    expect(ids(await search(teamA, 'q=_'))).toEqual([]);
  });

  it('refuses bad input with 400 and a message', async () => {
    for (const [query, message] of [
      ['', 'q is required'],
      ['q=%20%20', 'q is required'],
      ['q=a&limit=11', 'limit must be at most 10'],
      ['q=a&limit=0', 'limit must be at least 1'],
      ['q=a&limit=x', 'limit must be'],
      [`q=${'a'.repeat(101)}`, 'q must be at most 100 characters'],
      ['q=a%00b', 'q must not contain control characters'],
    ] as const) {
      const res = await search(teamA, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message, query).toContain(message);
    }
  });

  it("refuses another admin's workspace (403) and a missing token (401)", async () => {
    const res = await search(teamA, 'q=quillon', intruder.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
    expect(
      (await env.t.app.inject({ method: 'GET', url: `/api/v0/members/search/${teamA}?q=quillon` }))
        .statusCode,
    ).toBe(401);
    // The intruder's own workspace does not show team A's members.
    expect(ids(await search(teamB, 'q=quillon', intruder.token))).toEqual(['UQB001']);
  });
});

describe('POST /members/lookup', () => {
  it('answers the members of the ids asked (who left too), in one call, and nothing for unknown ids', async () => {
    const res = await lookup({ team_id: teamA, member_ids: ['UQ001', 'UQX003', 'UQB001', 'UNKNOWN'] });
    expect(res.statusCode).toBe(200);
    expect(ids(res).sort()).toEqual(['UQ001', 'UQX003']);
    expect(res.json().data.find((m: MemberHit) => m.member_id === 'UQX003').deleted).toBe(true);
  });

  it('resolves typed entries exactly by e-mail, real name, display name or id, case-insensitively', async () => {
    const res = await lookup({
      team_id: teamA,
      entries: ['ZED.quillon@MAIL.test', 'quillon member 3', '@quill4', 'uq005', 'quillon', 'q9@quill.test '],
    });
    expect(res.statusCode).toBe(200);
    expect(ids(res).sort()).toEqual(['UQ003', 'UQ004', 'UQ005', 'UQ009', 'UQX002']);
    // A substring is not an exact entry, and another workspace's e-mail resolves to nobody.
    expect(ids(await lookup({ team_id: teamA, entries: ['other@quill.test', 'quill'] }))).toEqual([]);
  });

  it('refuses bad input with 400', async () => {
    for (const payload of [
      { team_id: teamA },
      { team_id: teamA, member_ids: [] },
      { team_id: teamA, member_ids: 'UQ001' },
      { team_id: teamA, member_ids: [''] },
      { team_id: teamA, member_ids: ['U'.repeat(33)] },
      { team_id: teamA, member_ids: Array.from({ length: 501 }, (_, i) => `U${i}`) },
      { team_id: teamA, entries: ['a\u0000b'] },
    ]) {
      const res = await lookup(payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
    expect((await lookup({})).statusCode).toBe(400);
    // A pasted list is bounded: the 400 names the field.
    const long = await lookup({
      team_id: teamA,
      entries: Array.from({ length: 501 }, (_, i) => `m${i}@x.test`),
    });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toContain('at most 500 entries');
  });

  it("refuses another admin's workspace (403)", async () => {
    const res = await lookup({ team_id: teamA, member_ids: ['UQ001'] }, intruder.token);
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FORBIDDEN');
  });
});
