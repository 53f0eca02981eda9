import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { firstRow } from '../../db/sql.ts';
import { BOT_SCOPES, USER_SCOPES } from '../../slack/scopes.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  authorizeThroughOAuth,
  installThroughOAuth,
  ownerOf,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The user token (Send as Admin) is asked only at Add as Admin (issue #31): the install asks for the bot scopes,
 * and its installer becomes the workspace's admin without being a sender; Add as Admin asks for the user scopes
 * too. An install again (a reconnect) keeps the tokens admins already gave.
 */
type User = { token: string; userid: string };

let env: SlackTestEnv;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 71, members: 12, channels: 2, days: 1 },
        { seed: 72, members: 12, channels: 2, days: 1 },
        { seed: 73, members: 12, channels: 2, days: 1 },
      ],
      tokenRotation: { expiresInSeconds: 43_200 },
    },
    { DELIVERY_RETRY_BASE_MS: '20' },
  );
}, 60_000);
afterAll(() => env.close());

const get = (user: User, url: string) =>
  env.t.app.inject({ method: 'GET', url: `/api/v0${url}`, headers: bearer(user.token) });

const installUrl = async (user: User, teamId?: string) => {
  const res = await get(user, `/slack/installurl${teamId ? `?team_id=${teamId}` : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  return new URL(res.json().url);
};

const authorizedAdmins = async (user: User, teamId: string): Promise<string[]> => {
  const res = await get(user, `/getauthorizedadmins/${teamId}/${user.userid}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.map((a: any) => a.user_id);
};

const member = (teamId: string) =>
  ([...env.emu.truth(teamId).members()] as any[]).find(
    (m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_admin && !m.is_owner,
  ).id as string;

const dm = (user: User, teamId: string, to: string, text: string, sender: 'bot' | 'admin') =>
  env.t.app.inject({
    method: 'POST',
    url: '/api/v0/member/directmessage',
    headers: bearer(user.token),
    payload: {
      team_id: teamId,
      sender,
      id: to,
      text,
      ...(sender === 'admin' ? { admin_user: ownerOf(env, teamId) } : {}),
    },
  });

/** Who posted the messages with this text in the emulator. */
const postersOf = (teamId: string, text: string) =>
  ([...env.emu.truth(teamId).messages()] as any[]).filter((m) => m.text === text).map((m) => m.user);

async function until(what: string, done: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const adminRow = (teamId: string, userId: string) =>
  firstRow<{ slack: string | null; token: string | null; scopes: string | null }>(
    env.t.ctx.database.db,
    sql`select slack_user_id as slack, user_token_sealed as token, user_scopes as scopes
        from workspace_admins where team_id = ${teamId} and user_id = ${userId}`,
  );

describe('the user token is asked only at Add as Admin', () => {
  it('the install URL asks for the bot scopes only; Add as Admin for the bot and user scopes, of its team', async () => {
    const user = await signedInUser(env.t);
    const install = await installUrl(user);
    expect(install.searchParams.get('scope')).toBe(BOT_SCOPES.join(','));
    expect(install.searchParams.has('user_scope')).toBe(false);
    expect(install.searchParams.has('team')).toBe(false);

    const teamId = env.emu.teamIds[2]!;
    expect((await installThroughOAuth(env, user, { teamId, adminToken: false })).statusCode).toBe(200);
    const add = await installUrl(user, teamId);
    expect(add.searchParams.get('scope')).toBe(BOT_SCOPES.join(','));
    expect(add.searchParams.get('user_scope')).toBe(USER_SCOPES.join(','));
    expect(add.searchParams.get('team')).toBe(teamId);
  });

  it("the emulator's install page lists no user scopes for the install, and lists them for Add as Admin", async () => {
    const user = await signedInUser(env.t);
    const heading = 'What the app can do on your behalf (user scopes)';
    const page = async (url: URL) => {
      const res = await fetch(`${env.emu.url}/oauth/v2/authorize${url.search}`);
      expect(res.status).toBe(200);
      return res.text();
    };
    const install = await page(await installUrl(user));
    expect(install).toContain('What the app can view and do (bot scopes)');
    expect(install).not.toContain(heading);

    const teamId = env.emu.teamIds[2]!;
    expect((await installThroughOAuth(env, user, { teamId, adminToken: false })).statusCode).toBe(200);
    const add = await page(await installUrl(user, teamId));
    expect(add).toContain(heading);
    expect(add).toContain('<code>reactions:write</code>');
  });

  it('after the install alone the installer administers the workspace but is no sender: a send as Admin is refused, as the Bot it goes', async () => {
    const teamId = env.emu.teamIds[0]!;
    const owner = ownerOf(env, teamId);
    const user = await signedInUser(env.t);
    const res = await installThroughOAuth(env, user, { teamId, adminToken: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toMatch(/is connected/);
    expect(res.json().workspaces.map((w: any) => w.team_id)).toContain(teamId);
    // An admin of it in Flywheel, as the Slack user who installed, with no user token.
    expect((await get(user, `/workspaces/status/${teamId}`)).statusCode).toBe(200);
    expect(await adminRow(teamId, user.userid)).toEqual({ slack: owner, token: null, scopes: null });
    // No sender: the list the Send as Admin picker shows is empty, and Flywheel has no user token for them.
    expect(await authorizedAdmins(user, teamId)).toEqual([]);
    expect(await env.t.ctx.services.workspaces.listAdmins(teamId)).toEqual([]);
    expect(await env.t.ctx.services.workspaces.adminToken(teamId, owner)).toBeNull();

    const to = member(teamId);
    const asAdmin = await dm(user, teamId, to, 'as the admin, too early', 'admin');
    expect(asAdmin.statusCode).toBe(400);
    expect(asAdmin.json().message).toBe(
      'This admin has not authorized Flywheel to send as them yet: they must click Add as Admin first',
    );
    const channels = await get(
      user,
      `/delivery/adminchannels/${teamId}?admin_user=${owner}&channel_ids=${[...env.emu.truth(teamId).channels()][0]!.id}`,
    );
    expect(channels.statusCode).toBe(400);
    expect(channels.json().message).toMatch(/must click Add as Admin first/);
    // Someone who is no admin at all is still told so.
    const stranger = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/member/directmessage',
      headers: bearer(user.token),
      payload: { team_id: teamId, sender: 'admin', admin_user: to, id: to, text: 'x' },
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().message).toMatch(/not an admin of this workspace/);

    // The bot needs no user token (and its token rotates as usual). A DM goes to a member Flywheel knows: once the
    // install's import has the members (on a busy machine it may not yet, and the send is a 400 naming the id).
    await waitForBackfill(env, user.token, teamId);
    const asBot = await dm(user, teamId, to, 'as the bot, after the install', 'bot');
    expect(asBot.statusCode, asBot.body).toBe(202);
    await until('the bot DM', () => postersOf(teamId, 'as the bot, after the install').length === 1);
    expect(postersOf(teamId, 'as the admin, too early')).toEqual([]);

    // Add as Admin: the same Slack user gives their user token, and becomes a sender.
    const added = await authorizeThroughOAuth(env, user, { teamId, addAsAdmin: true });
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().message).toMatch(/You are now an admin of/);
    expect(await authorizedAdmins(user, teamId)).toEqual([owner]);
    const row = await adminRow(teamId, user.userid);
    expect(row?.token).not.toBeNull();
    expect(row?.scopes?.split(',').sort()).toEqual([...USER_SCOPES].sort());
    // Rotating (the emulator rotates its tokens): stored with its refresh token.
    const sender = await firstRow<{ refresh: string | null }>(
      env.t.ctx.database.db,
      sql`select user_refresh_token_sealed as refresh from workspace_senders
          where team_id = ${teamId} and slack_user_id = ${owner}`,
    );
    expect(sender?.refresh).toBeTruthy();

    const now = await dm(user, teamId, to, 'as the admin, after Add as Admin', 'admin');
    expect(now.statusCode, now.body).toBe(202);
    await until('the admin DM', () => postersOf(teamId, 'as the admin, after Add as Admin').length === 1);
    expect(postersOf(teamId, 'as the admin, after Add as Admin')).toEqual([owner]);
  });

  it('an install again (a reconnect, even of a disconnected workspace) keeps the user tokens admins gave', async () => {
    const teamId = env.emu.teamIds[1]!;
    const owner = ownerOf(env, teamId);
    const user = await signedInUser(env.t);
    // The default of the test helper: the install, then Add as Admin.
    expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
    expect(await authorizedAdmins(user, teamId)).toEqual([owner]);
    const before = await adminRow(teamId, user.userid);
    const tokenBefore = await (await env.t.ctx.services.workspaces.adminToken(teamId, owner))!.current();
    expect(tokenBefore).toMatch(/^xoxe\.xoxp-/);

    // Installed again by the same account: still its sender, with the same token.
    const again = await installThroughOAuth(env, user, { teamId, adminToken: false });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().message).toMatch(/is connected again/);
    expect(await authorizedAdmins(user, teamId)).toEqual([owner]);
    expect(await adminRow(teamId, user.userid)).toEqual(before);
    expect(await (await env.t.ctx.services.workspaces.adminToken(teamId, owner))!.current()).toBe(
      tokenBefore,
    );

    // Disconnected (its bot token refused), then reconnected by another account's install: the first admin's
    // token stays, and the newcomer is an admin without one.
    await env.t.ctx.services.workspaces.markDisconnected(teamId, 'token_refresh_failed');
    const other = await signedInUser(env.t);
    const reconnect = await installThroughOAuth(env, other, { teamId, adminToken: false });
    expect(reconnect.statusCode, reconnect.body).toBe(200);
    expect((await env.t.ctx.services.workspaces.find(teamId))?.status).toBe('active');
    expect(await adminRow(teamId, user.userid)).toEqual(before);
    expect(await adminRow(teamId, other.userid)).toEqual({ slack: owner, token: null, scopes: null });
    expect(await authorizedAdmins(other, teamId)).toEqual([owner]);
    const to = member(teamId);
    const res = await dm(other, teamId, to, 'as the admin, after a reconnect', 'admin');
    expect(res.statusCode, res.body).toBe(202);
    await until('the admin DM', () => postersOf(teamId, 'as the admin, after a reconnect').length === 1);
    expect(postersOf(teamId, 'as the admin, after a reconnect')).toEqual([owner]);
  });

  it('an account that installs as another Slack user does not keep the first one’s token on its admin row', async () => {
    const teamId = env.emu.teamIds[1]!;
    const owner = ownerOf(env, teamId);
    const second = ([...env.emu.truth(teamId).members()] as any[]).find(
      (m) => m.is_admin && !m.is_primary_owner && !m.deleted && !m.is_bot,
    ).id as string;
    const user = await signedInUser(env.t);
    expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
    expect((await adminRow(teamId, user.userid))?.token).not.toBeNull();
    const res = await installThroughOAuth(env, user, { teamId, installer: second, adminToken: false });
    expect(res.statusCode, res.body).toBe(200);
    expect(await adminRow(teamId, user.userid)).toEqual({ slack: second, token: null, scopes: null });
    // The owner's sender (their own token) is still there; the second admin is none until Add as Admin.
    const senders = await authorizedAdmins(user, teamId);
    expect(senders).toContain(owner);
    expect(senders).not.toContain(second);
  });
});
