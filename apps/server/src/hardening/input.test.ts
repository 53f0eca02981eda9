import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestDay } from '@flywheel/shared/input';
import { bearer, signedInUser } from '../testing/factories.ts';
import { installThroughOAuth, slackTestEnv, type SlackTestEnv } from '../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

// Issue 18 items 1 and 2: every date range is bounded and real, any bad string is a 400 naming the field.
let env: SlackTestEnv;
let admin: { token: string; userid: string };
let teamId: string;

beforeAll(async () => {
  env = await slackTestEnv({ workspaces: [{ seed: 7, members: 12, channels: 3, days: 3 }] });
  teamId = env.emu.teamIds[0]!;
  admin = await signedInUser(env.t);
  expect((await installThroughOAuth(env, admin, { teamId })).statusCode).toBe(200);
}, 60_000);
afterAll(() => env.close());

const call = (method: string, url: string, payload?: unknown) =>
  env.t.app.inject({
    method: method as any,
    url: `/api/v0${url}`,
    payload: payload as any,
    headers: bearer(admin.token),
  });

const dynamic = (start_date: string, end_date: string) => ({ type: 'dynamic', start_date, end_date });
const tomorrowAnywhere = () => {
  const d = new Date(`${latestDay()}T00:00:00Z`);
  return new Date(d.getTime() + 86_400_000).toISOString().slice(0, 10);
};

describe('date ranges', () => {
  it('the 10,000-year range is a 400 on the GET and POST calls, and the server stays up', async () => {
    const get = await call(
      'GET',
      `/homepage/workspacehighlights/${teamId}?start_date=0001-01-01&end_date=9999-12-31`,
    );
    expect([get.statusCode, get.json().message]).toEqual([400, 'Dates cannot be in the future']);
    const old = await call(
      'GET',
      `/homepage/getchanneldata/${teamId}?start_date=0001-01-01&end_date=2020-12-31`,
    );
    expect([old.statusCode, old.json().message]).toEqual([400, 'A custom range can cover at most 366 days']);
    for (const url of [
      '/analytics/activityanalytics',
      '/analytics/memberschangeanalytics',
      '/members/getmembersdata',
    ]) {
      const r = await call('POST', url, {
        team_id: teamId,
        time_filter: dynamic('0001-01-01', '2020-12-31'),
        channels: [],
      });
      expect([url, r.statusCode, r.json().message]).toEqual([
        url,
        400,
        'A custom range can cover at most 366 days',
      ]);
    }
    expect((await env.t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('refuses dates that are not on the calendar (Feb 30, Feb 29 of a common year, month 13)', async () => {
    for (const bad of ['2024-02-30', '2023-02-29', '2024-13-01', '2024-04-31']) {
      const r = await call(
        'GET',
        `/homepage/workspacehighlights/${teamId}?start_date=${bad}&end_date=2024-12-31`,
      );
      expect([bad, r.statusCode, r.json().message]).toEqual([bad, 400, 'start_date is not a real date']);
      const p = await call('POST', '/analytics/activityanalytics', {
        team_id: teamId,
        time_filter: dynamic('2024-01-01', bad),
      });
      expect([bad, p.statusCode, p.json().message]).toEqual([
        bad,
        400,
        'time_filter.end_date is not a real date',
      ]);
    }
    const leap = await call(
      'GET',
      `/homepage/workspacehighlights/${teamId}?start_date=2024-02-29&end_date=2024-03-01`,
    );
    expect(leap.statusCode).toBe(200);
    expect(leap.json().data).toHaveLength(2);
  });

  it('refuses a future end, a start after the end, and more than 366 days; 366 days pass', async () => {
    const future = await call('POST', '/homepage/getuseradmindata', {
      team_id: teamId,
      time_filter: dynamic('2024-01-01', tomorrowAnywhere()),
    });
    expect([future.statusCode, future.json().message]).toEqual([400, 'Dates cannot be in the future']);
    const order = await call('POST', '/analytics/wordcloud', {
      team_id: teamId,
      time_filter: dynamic('2024-02-02', '2024-02-01'),
    });
    expect([order.statusCode, order.json().message]).toEqual([
      400,
      'The start date must not be after the end date',
    ]);
    const year = await call('POST', '/analytics/activityanalytics', {
      team_id: teamId,
      time_filter: dynamic('2024-01-01', '2024-12-31'),
    });
    expect([year.statusCode, year.json().data.length]).toEqual([200, 366]);
    for (const days of [367, 3660]) {
      const r = await call('GET', `/analytics/getanalyticscompare/${teamId}/${days}`);
      expect([r.statusCode, r.json().message]).toEqual([400, 'days must be at most 366']);
      const s = await call('POST', '/analytics/channelsactivityanalytics', {
        team_id: teamId,
        time_filter: { type: 'static', days },
      });
      expect([s.statusCode, s.json().message]).toEqual([400, 'time_filter.days must be at most 366']);
    }
  });

  it('bounds per-day-and-channel answers: at most 100 channels', async () => {
    const channels = Array.from({ length: 101 }, (_, i) => `C${i}`);
    const r = await call('POST', '/analytics/activityanalytics', {
      team_id: teamId,
      time_filter: { type: 'static', days: 7 },
      channels,
    });
    expect([r.statusCode, r.json().message]).toEqual([400, 'channels: at most 100 channels']);
  });
});

describe('bad strings and numbers', () => {
  it('a NUL byte in team_id (path, body, query) or search is a 400 naming the field', async () => {
    const cases: [string, string, unknown, string][] = [
      ['GET', `/homepage/workspacehighlights/T%00x`, undefined, 'teamId must not contain control characters'],
      ['GET', `/members/getmembers/${teamId}%00`, undefined, 'teamId must not contain control characters'],
      [
        'POST',
        '/members/getmembersdata',
        { team_id: 'T\u0000' },
        'team_id must not contain control characters',
      ],
      [
        'POST',
        '/members/getmembersdata',
        { team_id: teamId, search: 'a\u0000b' },
        'search must not contain control characters',
      ],
      [
        'POST',
        '/analytics/activityanalytics',
        { team_id: teamId, time_filter: { type: 'static', days: 7 }, channels: ['C\u0000'] },
        'channels[0] must not contain control characters',
      ],
      ['GET', `/slack/installurl?team_id=T%00`, undefined, 'team_id must not contain control characters'],
      [
        'POST',
        '/auth/login',
        { email: 'a@b.co', password: 'x\u0000y' },
        'password must not contain control characters',
      ],
      [
        'POST',
        '/homepage/createtasks',
        { team_id: teamId, title: 'ok', description: 'bell\u0007' },
        'description must not contain control characters',
      ],
    ];
    for (const [method, url, body, message] of cases) {
      const r = await call(method, url, body);
      expect([url, r.statusCode, r.json().message]).toEqual([url, 400, message]);
    }
  });

  it('ids beyond the database integer range are a 400, not a 500', async () => {
    const del = await call('DELETE', `/homepage/deletetask/99999999999/${teamId}`);
    expect([del.statusCode, del.json().message]).toEqual([400, 'taskId must be an id']);
    const tags = await call('POST', '/members/getmembersdata', { team_id: teamId, tags: [1e12] });
    expect([tags.statusCode, tags.json().message]).toEqual([400, 'tags[] must be an id']);
    for (const id of [2 ** 31, 2 ** 53]) {
      const update = await call('PATCH', '/actions/updateactions', { team_id: teamId, id });
      expect([update.statusCode, update.json().message]).toEqual([
        400,
        'id must be an automation or schedule id',
      ]);
      const remove = await call('DELETE', `/actions/deleteaction/${teamId}/${id}`);
      expect([remove.statusCode, remove.json().message]).toEqual([
        400,
        'id must be an automation or schedule id',
      ]);
    }
    // The largest id the database holds is an id: unknown here, a 404.
    expect((await call('DELETE', `/actions/deleteaction/${teamId}/${2 ** 31 - 1}`)).statusCode).toBe(404);
  });

  it('half of an emoji (a lone surrogate) anywhere in a body, query or path is a 400 naming the field', async () => {
    const cases: [string, string, unknown, string][] = [
      [
        'POST',
        '/homepage/createtasks',
        { team_id: teamId, title: 'ok', description: 'half \ud83c' },
        'description must not contain half of a character (a broken emoji)',
      ],
      [
        'POST',
        '/members/getmembersdata',
        { team_id: teamId, search: '\udc00x' },
        'search must not contain half of a character (a broken emoji)',
      ],
      [
        'POST',
        '/poll/createpoll',
        { team_id: teamId, options: [{ emoji: '👍', emoji_code: 'thumbsup', value: 'a\ud800' }] },
        'options[0].value must not contain half of a character (a broken emoji)',
      ],
    ];
    for (const [method, url, body, message] of cases) {
      const r = await call(method, url, body);
      expect([url, r.statusCode, r.json().message]).toEqual([url, 400, message]);
    }
    // A whole emoji is fine.
    const ok = await call('POST', '/homepage/createtasks', {
      team_id: teamId,
      title: 'ok 🎉',
      description: '👨‍👩‍👧',
    });
    expect(ok.statusCode, ok.body).toBe(201);
  });
});
