import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInUser } from '../../testing/factories.ts';
import { apiRoutes as allApiRoutes, routeRequest } from '../../testing/route-requests.ts';
import { installThroughOAuth, slackTestEnv, type SlackTestEnv } from '../../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

// Routes that are not about one workspace: accounts, public settings, starting and finishing an install, the
// Slack app manifest (the installation's scopes, events and URLs: no workspace's data), and a person's own
// notifications (bound to the caller, across the workspaces they administer; notifications.test.ts).
const NOT_WORKSPACE_SCOPED = [
  /^\/api\/v0\/auth\//,
  /^\/api\/v0\/notifications(\/|$)/,
  /^\/api\/v0\/public\//,
  /^\/api\/v0\/auth-redirect$/,
  /^\/api\/v0\/slack\/installurl$/,
  /^\/api\/v0\/slack\/manifest$/,
];

let env: SlackTestEnv;
let owner: { token: string; userid: string };
let intruder: { token: string; userid: string };
let teamA: string;

beforeAll(async () => {
  env = await slackTestEnv({
    workspaces: [
      { seed: 3, members: 20, channels: 3, days: 3 },
      { seed: 4, members: 20, channels: 3, days: 3 },
    ],
  });
  [teamA] = env.emu.teamIds as [string, string];
  owner = await signedInUser(env.t);
  intruder = await signedInUser(env.t);
  // The intruder administers a workspace of their own: access is per workspace, not "has any".
  expect((await installThroughOAuth(env, owner, { teamId: env.emu.teamIds[0] })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, intruder, { teamId: env.emu.teamIds[1] })).statusCode).toBe(200);
}, 60_000);
afterAll(() => env.close());

const apiRoutes = () => allApiRoutes(env.t.app);
const request = routeRequest;

describe('tenancy', () => {
  it('every /api/v0 route is either workspace-scoped or on the short list of account routes', () => {
    const unscoped = apiRoutes().filter(
      (r) => !r.workspaceScoped && !NOT_WORKSPACE_SCOPED.some((re) => re.test(r.url)),
    );
    expect(unscoped).toEqual([]);
    expect(apiRoutes().filter((r) => r.workspaceScoped).length).toBeGreaterThanOrEqual(6);
  });

  it("refuses another user's workspace on every workspace-scoped route (403)", async () => {
    const scoped = apiRoutes().filter((r) => r.workspaceScoped);
    const refused: string[] = [];
    for (const route of scoped) {
      const res = await env.t.app.inject({
        ...request(route, teamA, intruder.userid),
        headers: bearer(intruder.token),
      });
      if (res.statusCode === 403 && res.json().code === 'FORBIDDEN')
        refused.push(`${route.method} ${route.url}`);
      else
        expect.fail(
          `${route.method} ${route.url} answered ${res.statusCode} ${res.body.slice(0, 200)} to another user's token`,
        );
    }
    expect(refused).toHaveLength(scoped.length);
  });

  it('the same calls work for the workspace admin, and without a token are 401', async () => {
    for (const route of apiRoutes().filter((r) => r.workspaceScoped)) {
      const mine = await env.t.app.inject({
        ...request(route, teamA, owner.userid),
        headers: bearer(owner.token),
      });
      expect([403, 500], `${route.method} ${route.url}: ${mine.body.slice(0, 200)}`).not.toContain(
        mine.statusCode,
      );
      const anonymous = await env.t.app.inject(request(route, teamA, owner.userid));
      expect(anonymous.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });

  it("'Add as Admin' cannot be started for a workspace one does not administer", async () => {
    const res = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/slack/installurl?team_id=${teamA}`,
      headers: bearer(intruder.token),
    });
    expect(res.statusCode).toBe(403);
  });

  it('an admin who installed the workspace under two Flywheel accounts is one authorized admin', async () => {
    const again = await signedInUser(env.t);
    expect((await installThroughOAuth(env, again, { teamId: teamA })).statusCode).toBe(200);
    for (const user of [owner, again]) {
      const res = await env.t.app.inject({
        method: 'GET',
        url: `/api/v0/getauthorizedadmins/${teamA}/${user.userid}`,
        headers: bearer(user.token),
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toHaveLength(1);
    }
  });

  it("'Add as Admin' with a second Slack admin keeps the first: both can be sent as", async () => {
    const admins = () =>
      env.t.app
        .inject({
          method: 'GET',
          url: `/api/v0/getauthorizedadmins/${teamA}/${owner.userid}`,
          headers: bearer(owner.token),
        })
        .then((r) =>
          r
            .json()
            .data.map((a: any) => a.user_id)
            .sort(),
        );
    const first = await admins();
    expect(first).toHaveLength(1);
    const second = ([...env.emu.truth(teamA).members()] as any[]).find(
      (m) => m.is_admin && !m.is_primary_owner && !m.deleted && !m.is_bot && !first.includes(m.id),
    ).id as string;
    expect(
      (await installThroughOAuth(env, owner, { teamId: teamA, installer: second, addAsAdmin: true }))
        .statusCode,
    ).toBe(200);
    expect(await admins()).toEqual([...first, second].sort());
    // Each has its own token: Flywheel can send as either.
    for (const slackUser of [first[0], second])
      expect(await (await env.t.ctx.services.workspaces.adminToken(teamA, slackUser))?.current()).toMatch(
        /^xoxp-/,
      );
  });
});
