import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoginResponse } from '@flywheel/shared/auth';
import { LAST_OWNER_MESSAGE } from '@flywheel/shared/roles';
import type { RouteRecord } from '../../app.ts';
import { bearer, signedInUser, uniqueEmail } from '../../testing/factories.ts';
import { apiRoutes, routeRequest } from '../../testing/route-requests.ts';
import { installThroughOAuth, slackTestEnv, type SlackTestEnv } from '../../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

type Person = LoginResponse & { password: string };

let env: SlackTestEnv;
let owner: Person;
let editor: Person;
let viewer: Person;
let teamA: string;

const post = (who: { token: string }, url: string, payload: object) =>
  env.t.app.inject({ method: 'POST', url, payload, headers: bearer(who.token) });
const get = (who: { token: string }, url: string) =>
  env.t.app.inject({ method: 'GET', url, headers: bearer(who.token) });

/** Invites an address with a role, then signs it up: its first login accepts the invitation. */
async function invited(role: 'editor' | 'viewer' | undefined): Promise<Person> {
  const email = uniqueEmail(role ?? 'default');
  const res = await post(owner, '/api/v0/workspaces/inviteadmin', { team_id: teamA, email, role });
  expect(res.statusCode, res.body).toBe(201);
  return signedInUser(env.t, { email });
}

beforeAll(async () => {
  env = await slackTestEnv({ workspaces: [{ seed: 5, members: 20, channels: 3, days: 3 }] });
  [teamA] = env.emu.teamIds as [string];
  owner = await signedInUser(env.t);
  expect((await installThroughOAuth(env, owner, { teamId: teamA })).statusCode).toBe(200);
  editor = await invited('editor');
  viewer = await invited('viewer');
}, 240_000);
afterAll(() => env.close());

const scoped = () => apiRoutes(env.t.app).filter((r) => r.workspaceScoped);
const name = (r: RouteRecord) => `${r.method} ${r.url}`;

/** Calls every scoped route of an access as a person; answers the names refused by the role check, and the rest. */
async function walk(who: Person, access: RouteRecord['access']) {
  const refused: string[] = [];
  const passed: string[] = [];
  for (const route of scoped().filter((r) => r.access === access)) {
    const res = await env.t.app.inject({
      ...routeRequest(route, teamA, who.userid),
      headers: bearer(who.token),
    });
    expect(res.statusCode, `${name(route)}: ${res.body.slice(0, 200)}`).not.toBe(500);
    if (res.statusCode === 403) {
      expect(res.json().code, name(route)).toBe('FORBIDDEN');
      refused.push(name(route));
    } else passed.push(name(route));
  }
  return { refused, passed };
}

describe('roles over every route', () => {
  it('a login answers each workspace with the caller’s role', () => {
    expect(editor.workspaces.find((w) => w.team_id === teamA)?.role).toBe('editor');
    expect(viewer.workspaces.find((w) => w.team_id === teamA)?.role).toBe('viewer');
  });

  it('a Viewer is refused on every acting and managing route, naming the role needed', async () => {
    for (const access of ['act', 'manage'] as const) {
      const { refused, passed } = await walk(viewer, access);
      expect(passed, `${access} routes open to a Viewer`).toEqual([]);
      expect(refused.length).toBeGreaterThan(access === 'act' ? 30 : 5);
    }
    const send = await post(viewer, '/api/v0/quickaction/sendmessage', { team_id: teamA });
    expect(send.json().message).toBe('This needs the Editor role; you are a Viewer.');
    const invite = await post(viewer, '/api/v0/workspaces/inviteadmin', { team_id: teamA, email: 'a@b.co' });
    expect(invite.json().message).toBe('This needs the Owner role; you are a Viewer.');
  });

  it('a Viewer is not refused on any reading route', async () => {
    const { refused, passed } = await walk(viewer, 'read');
    expect(refused).toEqual([]);
    expect(passed.length).toBeGreaterThan(30);
  });

  it('an Editor is refused on every managing route and not on any acting or reading route', async () => {
    const manage = await walk(editor, 'manage');
    expect(manage.passed).toEqual([]);
    expect(manage.refused).toContain('POST /api/v0/workspaces/setrole');
    const send = await post(editor, '/api/v0/apikeys/create', { team_id: teamA, name: 'k', scope: 'read' });
    expect(send.json().message).toBe('This needs the Owner role; you are an Editor.');
    for (const access of ['act', 'read'] as const) expect((await walk(editor, access)).refused).toEqual([]);
  });
});

describe('the team', () => {
  it('lists the admins with their roles and e-mails, and the pending invitations, to every role', async () => {
    const pending = uniqueEmail('pending');
    expect(
      (await post(owner, '/api/v0/workspaces/inviteadmin', { team_id: teamA, email: pending })).statusCode,
    ).toBe(201);
    const res = await get(viewer, `/api/v0/workspaces/team/${teamA}`);
    expect(res.statusCode).toBe(200);
    const team = res.json();
    const roleOf = (email: string) => team.admins.find((a: any) => a.email === email)?.role;
    expect(team.admins[0].role).toBe('owner');
    expect(roleOf(owner.email)).toBe('owner');
    expect(roleOf(editor.email)).toBe('editor');
    expect(roleOf(viewer.email)).toBe('viewer');
    // An invitation with no role gives Editor.
    expect(team.invitations).toContainEqual(
      expect.objectContaining({ email: pending, role: 'editor', invited_by: owner.email }),
    );
    const revoked = await post(owner, '/api/v0/workspaces/revokeinvitation', {
      team_id: teamA,
      email: pending,
    });
    expect(revoked.statusCode).toBe(200);
    const after = (await get(owner, `/api/v0/workspaces/team/${teamA}`)).json();
    expect(after.invitations.map((i: any) => i.email)).not.toContain(pending);
    expect(
      (await post(owner, '/api/v0/workspaces/revokeinvitation', { team_id: teamA, email: pending }))
        .statusCode,
    ).toBe(404);
  });

  it('an Owner changes roles; the change applies on the next call', async () => {
    const promote = await post(owner, '/api/v0/workspaces/setrole', {
      team_id: teamA,
      user_id: viewer.userid,
      role: 'editor',
    });
    expect(promote.statusCode, promote.body).toBe(200);
    const send = await post(viewer, '/api/v0/quickaction/sendmessage', { team_id: teamA });
    expect(send.statusCode).toBe(400);
    await post(owner, '/api/v0/workspaces/setrole', {
      team_id: teamA,
      user_id: viewer.userid,
      role: 'viewer',
    });
    expect((await post(viewer, '/api/v0/quickaction/sendmessage', { team_id: teamA })).statusCode).toBe(403);
    const bad = await post(owner, '/api/v0/workspaces/setrole', {
      team_id: teamA,
      user_id: viewer.userid,
      role: 'admin',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/role/);
  });

  it('never leaves the workspace without an Owner', async () => {
    for (const [url, payload] of [
      ['/api/v0/workspaces/setrole', { team_id: teamA, user_id: owner.userid, role: 'editor' }],
      ['/api/v0/workspaces/removeadmin', { team_id: teamA, user_id: owner.userid }],
    ] as const) {
      const res = await post(owner, url, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().message).toBe(LAST_OWNER_MESSAGE);
    }
    // With a second Owner, the first may step down.
    await post(owner, '/api/v0/workspaces/setrole', {
      team_id: teamA,
      user_id: editor.userid,
      role: 'owner',
    });
    const down = await post(owner, '/api/v0/workspaces/setrole', {
      team_id: teamA,
      user_id: owner.userid,
      role: 'editor',
    });
    expect(down.statusCode).toBe(200);
    expect(
      (
        await post(owner, '/api/v0/workspaces/setrole', {
          team_id: teamA,
          user_id: owner.userid,
          role: 'owner',
        })
      ).statusCode,
    ).toBe(403);
    await post(editor, '/api/v0/workspaces/setrole', {
      team_id: teamA,
      user_id: owner.userid,
      role: 'owner',
    });
    await post(owner, '/api/v0/workspaces/setrole', {
      team_id: teamA,
      user_id: editor.userid,
      role: 'editor',
    });
  });

  it('an Owner removes an admin: they lose the workspace', async () => {
    const gone = await invited('viewer');
    expect((await get(gone, `/api/v0/workspaces/team/${teamA}`)).statusCode).toBe(200);
    const res = await post(owner, '/api/v0/workspaces/removeadmin', { team_id: teamA, user_id: gone.userid });
    expect(res.statusCode).toBe(200);
    const after = await get(gone, `/api/v0/workspaces/team/${teamA}`);
    expect(after.statusCode).toBe(403);
    expect(after.json().message).toBe('You do not have access to this workspace');
    expect(
      (await post(owner, '/api/v0/workspaces/removeadmin', { team_id: teamA, user_id: gone.userid }))
        .statusCode,
    ).toBe(404);
  });

  it('whoever installs through Slack is an Owner (a Viewer who does is promoted; an Owner never demoted)', async () => {
    const installer = await invited('viewer');
    expect((await installThroughOAuth(env, installer, { teamId: teamA })).statusCode).toBe(200);
    const team = (await get(owner, `/api/v0/workspaces/team/${teamA}`)).json();
    expect(team.admins.find((a: any) => a.user_id === installer.userid).role).toBe('owner');
    expect(team.admins.find((a: any) => a.user_id === owner.userid).role).toBe('owner');
  });
});
