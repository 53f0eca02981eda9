import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, signedInUser, uniqueEmail, waitForMailLink } from '../testing/factories.ts';
import { installThroughOAuth, ownerOf, slackTestEnv, type SlackTestEnv } from '../testing/slack.ts';

// Issue 18 item 4: only Slack admins and owners connect or join a workspace; an admin invites others by e-mail.
let env: SlackTestEnv;
let teamId: string;
let owner: Awaited<ReturnType<typeof signedInUser>>;

const regularMember = (team: string) => {
  const m = [...env.emu.truth(team).members()].find((u) => {
    const x = u as { is_admin?: boolean; is_owner?: boolean; is_bot?: boolean; deleted?: boolean };
    return !x.is_admin && !x.is_owner && !x.is_bot && !x.deleted;
  });
  if (!m) throw new Error('no regular member');
  return m.id;
};

beforeAll(async () => {
  env = await slackTestEnv({
    workspaces: [
      { seed: 11, members: 15, channels: 2, days: 2 },
      { seed: 12, members: 15, channels: 2, days: 2 },
    ],
  });
  teamId = env.emu.teamIds[0]!;
  owner = await signedInUser(env.t);
}, 60_000);
afterAll(() => env.close());

const workspacesOf = async (token: string) =>
  (await env.t.app.inject({ method: 'GET', url: '/api/v0/auth/me', headers: bearer(token) })).json()
    .workspaces as { team_id: string }[];

describe('who may connect a workspace', () => {
  it('a regular member cannot connect a new workspace: 403 with a clear message, nothing stored', async () => {
    const member = await signedInUser(env.t);
    const other = env.emu.teamIds[1]!;
    const res = await installThroughOAuth(env, member, { teamId: other, installer: regularMember(other) });
    expect([res.statusCode, res.json().code]).toEqual([403, 'FORBIDDEN']);
    expect(res.json().message).toMatch(/^Only admins and owners of .+ in Slack can connect it to Flywheel/);
    expect(await workspacesOf(member.token)).toEqual([]);
  });

  it('a regular member cannot join a connected workspace by re-authorizing it (and reads nothing)', async () => {
    expect((await installThroughOAuth(env, owner, { teamId })).statusCode).toBe(200);
    const member = await signedInUser(env.t);
    const res = await installThroughOAuth(env, member, { teamId, installer: regularMember(teamId) });
    expect(res.statusCode).toBe(403);
    expect(await workspacesOf(member.token)).toEqual([]);
    const emails = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/members/getmembers/${teamId}`,
      headers: bearer(member.token),
    });
    expect(emails.statusCode).toBe(403);
  });

  it('the Slack owner (and admins) still connect and join', async () => {
    const admin = await signedInUser(env.t);
    const res = await installThroughOAuth(env, admin, { teamId, installer: ownerOf(env, teamId) });
    expect(res.statusCode).toBe(200);
    expect((await workspacesOf(admin.token)).map((w) => w.team_id)).toContain(teamId);
  });
});

describe('inviting an admin by e-mail', () => {
  it('an admin invites an address; the person signs up with it and is an admin at their first login', async () => {
    const email = uniqueEmail('invitee');
    const invite = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/workspaces/inviteadmin',
      headers: bearer(owner.token),
      payload: { team_id: teamId, email },
    });
    expect(invite.statusCode).toBe(201);
    expect(invite.json().message).toMatch(
      new RegExp(`^Invitation sent to ${email.replace(/\./g, '\\.')}\\.`),
    );
    const link = await waitForMailLink(env.t, email, /invited you|administer/i);
    expect(link).toBe('http://localhost:3000/auth/login');

    const invitee = await signedInUser(env.t, { email });
    expect(invitee.workspaces.map((w) => w.team_id)).toEqual([teamId]);
    const members = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/members/getmembers/${teamId}`,
      headers: bearer(invitee.token),
    });
    expect(members.statusCode).toBe(200);
  });

  it('only the workspace’s admins can invite, and the address must be an e-mail', async () => {
    const stranger = await signedInUser(env.t);
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/workspaces/inviteadmin',
      headers: bearer(stranger.token),
      payload: { team_id: teamId, email: stranger.email },
    });
    expect(res.statusCode).toBe(403);
    expect(await workspacesOf(stranger.token)).toEqual([]);
    const bad = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/workspaces/inviteadmin',
      headers: bearer(owner.token),
      payload: { team_id: teamId, email: 'not-an-address' },
    });
    expect([bad.statusCode, bad.json().message]).toEqual([
      400,
      'Enter a valid email address, like name@example.com',
    ]);
  });

  it('is documented in the OpenAPI document', async () => {
    const doc = (await env.t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(doc.paths['/api/v0/workspaces/inviteadmin'].post.summary).toMatch(/Invites a person by e-mail/);
  });
});
