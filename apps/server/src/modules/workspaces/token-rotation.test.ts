import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebClient } from '@slack/web-api';
import { sql } from 'drizzle-orm';
import { secretsKey } from '../../lib/secrets-key.ts';
import { firstRow, typedRows } from '../../db/sql.ts';
import { secretBox } from '../../lib/secret-box.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  ownerOf,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from '../delivery/engine.ts';
import { REFRESH_REFUSED_REASON, tokenProvider } from './tokens.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Slack token rotation (issue #31): an install with rotation keeps each token's refresh token and expiry; a
 * token is renewed before it expires and when Slack answers token_expired (the call made again, once); processes
 * renewing at the same moment spend the refresh token once; a refresh Slack refuses disconnects the workspace
 * (bot) or forgets the sender (user) and is not tried again and again. Against the emulator with rotation on.
 */

type Row = {
  bot: string | null;
  refresh: string | null;
  expires: string | null;
  status: string;
  reason: string | null;
};
const botRow = (env: SlackTestEnv, teamId: string) =>
  firstRow<Row>(
    env.t.ctx.database.db,
    sql`select bot_token_sealed as bot, bot_refresh_token_sealed as refresh, bot_token_expires_at::text as expires,
          status, disconnect_reason as reason
        from workspaces where team_id = ${teamId}`,
  );
const senderRow = (env: SlackTestEnv, teamId: string, slackUserId: string) =>
  firstRow<{ token: string; refresh: string | null; expires: string | null }>(
    env.t.ctx.database.db,
    sql`select user_token_sealed as token, user_refresh_token_sealed as refresh, user_token_expires_at::text as expires
        from workspace_senders where team_id = ${teamId} and slack_user_id = ${slackUserId}`,
  );
/** As if the stored token had reached the end of its life (the server's clock; the emulator's is moved apart). */
const expireStored = (env: SlackTestEnv, teamId: string) =>
  env.t.ctx.database.db.execute(
    sql`update workspaces set bot_token_expires_at = now() - interval '1 second' where team_id = ${teamId}`,
  );

/** Our messages in the emulator, per member they reached (in IMs), for a text. */
function dmsOf(env: SlackTestEnv, teamId: string, text: string): Map<string, number> {
  const ims = new Map<string, string[]>();
  for (const c of env.emu.truth(teamId).channels() as any[]) if (c.is_im) ims.set(c.id, c.members);
  const per = new Map<string, number>();
  for (const m of env.emu.truth(teamId).messages() as Iterable<any>) {
    if (m.text !== text || m.metadata?.event_type !== DELIVERY_EVENT_TYPE) continue;
    const pair = ims.get(m.channel);
    if (!pair) continue;
    const who = pair.find((u) => u !== m.user) ?? m.user;
    per.set(who, (per.get(who) ?? 0) + 1);
  }
  return per;
}

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function receiptOf(env: SlackTestEnv, token: string, teamId: string, id: number) {
  const res = await env.t.app.inject({
    method: 'GET',
    url: `/api/v0/receipts/getreceipt/${teamId}/${id}`,
    headers: bearer(token),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

describe('token rotation', () => {
  let env: SlackTestEnv;
  let admin: { token: string; userid: string };
  let other: { token: string; userid: string };
  let teamId: string;
  let otherTeam: string;
  let owner: string;
  let members: string[];
  /** The emulator's clock runs this far ahead of the server's (its tokens expire while ours look fresh). */
  let ahead = 0;
  const box = () => secretBox(secretsKey(env.t.ctx.config));

  beforeAll(async () => {
    env = await slackTestEnv(
      {
        workspaces: [
          { seed: 51, members: 30, channels: 3, days: 2 },
          { seed: 52, members: 10, channels: 2, days: 2 },
        ],
        tokenRotation: { expiresInSeconds: 43_200 },
        clock: () => Date.now() + ahead,
      },
      { DELIVERY_RETRY_BASE_MS: '20' },
    );
    [teamId, otherTeam] = env.emu.teamIds as [string, string];
    admin = await signedInUser(env.t);
    other = await signedInUser(env.t);
    owner = ownerOf(env, teamId);
    expect((await installThroughOAuth(env, admin, { teamId })).statusCode).toBe(200);
    expect((await installThroughOAuth(env, other, { teamId: otherTeam })).statusCode).toBe(200);
    await waitForBackfill(env, admin.token, teamId);
    await waitForBackfill(env, other.token, otherTeam);
    members = [...env.emu.truth(teamId).members()]
      .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && m.id !== owner)
      .map((m: any) => m.id);
  }, 120_000);
  afterAll(() => env.close());

  /** One DM through the delivery engine, waited for; answers the receipt. */
  async function dm(to: string, text: string, sender: 'bot' | 'admin' = 'bot', team = teamId, as = admin) {
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/member/directmessage',
      headers: bearer(as.token),
      payload: {
        team_id: team,
        sender,
        id: to,
        text,
        ...(sender === 'admin' ? { admin_user: ownerOf(env, team) } : {}),
      },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.receipt_id as number;
    let receipt: any;
    await until('the DM', async () => {
      receipt = await receiptOf(env, as.token, team, id);
      return receipt.successful_recipient_count + receipt.failed_recipient_count === 1;
    });
    return receipt;
  }

  it('an install with rotation stores the refresh tokens and expiries of the bot and user tokens, sealed', async () => {
    const row = (await botRow(env, teamId))!;
    const install = env.emu.truth(teamId).install()!;
    expect(box().open(row.bot!)).toBe(install.botToken);
    expect(install.botToken).toMatch(/^xoxe\.xoxb-/);
    expect(row.refresh).not.toContain('xoxe');
    expect(box().open(row.refresh!)).toBe(install.botRefreshToken);
    const left = Date.parse(row.expires!) - Date.now();
    expect(left).toBeGreaterThan(43_000_000);
    expect(left).toBeLessThanOrEqual(43_200_000);
    const sender = (await senderRow(env, teamId, owner))!;
    expect(box().open(sender.token)).toMatch(/^xoxe\.xoxp-/);
    expect(box().open(sender.refresh!)).toBe(install.userRefreshToken);
    expect(sender.expires).not.toBeNull();
  });

  it('a call after the token expired renews it first, once, and works', async () => {
    const before = env.emu.refreshCalls();
    const old = (await botRow(env, teamId))!;
    // Twelve hours later: Slack no longer takes the token, and we know it expires.
    ahead += 43_201_000;
    await expireStored(env, teamId);
    const receipt = await dm(members[0]!, 'after the expiry');
    expect(receipt.successful_recipient_count).toBe(1);
    expect(dmsOf(env, teamId, 'after the expiry').get(members[0]!)).toBe(1);
    expect(env.emu.refreshCalls() - before).toBe(1);
    const row = (await botRow(env, teamId))!;
    expect(row.bot).not.toBe(old.bot);
    expect(box().open(row.bot!)).toBe(env.emu.truth(teamId).install()!.botToken);
    expect(box().open(row.refresh!)).toBe(env.emu.truth(teamId).install()!.botRefreshToken);
    expect(Date.parse(row.expires!) - Date.now()).toBeGreaterThan(43_000_000);
  });

  it('a token_expired answer mid-use renews the token once and makes the call again (bot and Send as Admin)', async () => {
    const before = env.emu.refreshCalls();
    // Slack ends the tokens while ours still look fresh (12 hours away): the first call learns it. (The user
    // token, not used since the emulator's clock moved on, is already past its end there.)
    expect(env.emu.expireTokens(teamId)).toBeGreaterThanOrEqual(1);
    const receipt = await dm(members[1]!, 'expired mid-use');
    expect(receipt.successful_recipient_count).toBe(1);
    expect(env.emu.refreshCalls() - before).toBe(1);
    const asAdmin = await dm(members[2]!, 'as the admin, expired', 'admin');
    expect(asAdmin.successful_recipient_count).toBe(1);
    expect(env.emu.refreshCalls() - before).toBe(2);
    const sender = (await senderRow(env, teamId, owner))!;
    expect(box().open(sender.token)).toBe(env.emu.truth(teamId).install()!.userToken);
    expect(box().open(sender.refresh!)).toBe(env.emu.truth(teamId).install()!.userRefreshToken);
    // The admin's DM is from the admin.
    const msg = [...(env.emu.truth(teamId).messages() as Iterable<any>)].find(
      (m) => m.text === 'as the admin, expired',
    );
    expect(msg.user).toBe(owner);
    // Other paths use the same provider: the workspace icon (team.info) and the history import's client.
    const source = await env.t.ctx.services.workspaces.botToken(teamId);
    env.emu.expireTokens(teamId);
    const info = await env.t.ctx.slack.client(source).team.info({});
    expect(info.ok).toBe(true);
    expect(env.emu.refreshCalls() - before).toBe(3);
  });

  it('two processes renewing at the same moment spend the refresh token once and both end with the new token', async () => {
    const make = () =>
      tokenProvider({
        db: env.t.ctx.database.db,
        box: box(),
        slack: env.t.ctx.slack,
        logger: env.t.ctx.logger,
        marginMs: 300_000,
      });
    const [a, b] = [make(), make()];
    const before = env.emu.refreshCalls();
    ahead += 43_201_000;
    await expireStored(env, teamId);
    const [sa, sb] = [await a.bot(teamId), await b.bot(teamId)];
    // The refresh takes a while, so the second one certainly finds the first one's claim.
    env.emu.setFaults({ latencyMs: 300, methods: ['oauth.v2.access'] });
    let ta: string;
    let tb: string;
    try {
      [ta, tb] = await Promise.all([sa!.current(), sb!.current()]);
    } finally {
      env.emu.clearFaults();
    }
    expect(env.emu.refreshCalls() - before).toBe(1);
    expect(ta).toBe(tb);
    const install = env.emu.truth(teamId).install()!;
    expect(ta).toBe(install.botToken);
    const row = (await botRow(env, teamId))!;
    expect(box().open(row.refresh!)).toBe(install.botRefreshToken);
    const check = new WebClient(ta, { slackApiUrl: env.emu.apiUrl });
    expect((await check.auth.test()).ok).toBe(true);
    // And Slack ending the token under both at once (token_expired): one refresh again.
    env.emu.expireTokens(teamId);
    env.emu.setFaults({ latencyMs: 300, methods: ['oauth.v2.access'] });
    try {
      const [ra, rb] = await Promise.all([
        env.t.ctx.slack.client(sa).auth.test(),
        env.t.ctx.slack.client(sb).auth.test(),
      ]);
      expect(ra.ok && rb.ok).toBe(true);
    } finally {
      env.emu.clearFaults();
    }
    expect(env.emu.refreshCalls() - before).toBe(2);
  });

  it('a refresh Slack refuses disconnects the workspace once (no loop); an install without rotation still works', async () => {
    const row = (await botRow(env, otherTeam))!;
    const otherMembers = [...env.emu.truth(otherTeam).members()]
      .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
      .map((m: any) => m.id as string);
    // The stored refresh token is spent elsewhere (another copy of the data, a restored backup).
    const spent = await new WebClient(undefined, { slackApiUrl: env.emu.apiUrl }).oauth.v2.access({
      client_id: env.emu.app.clientId,
      client_secret: env.emu.app.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: box().open(row.refresh!),
    });
    expect(spent.ok).toBe(true);
    env.emu.expireTokens(otherTeam);
    const before = env.emu.refreshCalls();
    const receipt = await dm(otherMembers[0]!, 'refused refresh', 'bot', otherTeam, other);
    expect(receipt.failed_recipient_count).toBe(1);
    expect(env.emu.refreshCalls() - before).toBe(1);
    const after = (await botRow(env, otherTeam))!;
    expect(after.status).toBe('disconnected');
    expect(after.reason).toBe(REFRESH_REFUSED_REASON);
    expect(after.bot).toBeNull();
    expect(after.refresh).toBeNull();
    // Further sends are refused up front (reconnect first), and nothing asks Slack for a refresh again.
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/member/directmessage',
      headers: bearer(other.token),
      payload: { team_id: otherTeam, sender: 'bot', id: otherMembers[1], text: 'again' },
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(env.emu.refreshCalls() - before).toBe(1);

    // Reconnected without rotation (the app's setting turned off): a token that never expires, nothing to renew.
    env.emu.setTokenRotation(undefined);
    try {
      expect(
        (await installThroughOAuth(env, other, { teamId: otherTeam, addAsAdmin: true })).statusCode,
      ).toBe(200);
      const plain = (await botRow(env, otherTeam))!;
      expect(plain.status).toBe('active');
      expect(box().open(plain.bot!)).toMatch(/^xoxb-/);
      expect(plain.refresh).toBeNull();
      expect(plain.expires).toBeNull();
      ahead += 43_201_000;
      const ok = await dm(otherMembers[1]!, 'no rotation', 'bot', otherTeam, other);
      expect(ok.successful_recipient_count).toBe(1);
      expect(env.emu.refreshCalls() - before).toBe(1);
    } finally {
      env.emu.setTokenRotation({ expiresInSeconds: 43_200 });
    }
  });
});

/**
 * 500 recipients in the suite on both databases: one workspace's token crossing expiries mid-send, the same path
 * as the 2,000 (TOKEN_ROTATION_BULK=2000 runs that size; a 2,000-recipient bulk takes minutes of the suite).
 */
const BULK = Number(process.env.TOKEN_ROTATION_BULK ?? 500);

describe(`a rotating token that expires in the middle of a ${BULK}-recipient bulk DM`, () => {
  let env: SlackTestEnv;
  let admin: { token: string; userid: string };
  let teamId: string;
  let members: string[];

  beforeAll(async () => {
    env = await slackTestEnv(
      {
        workspace: { seed: 61, members: BULK + 60, channels: 2, days: 1 },
        tokenRotation: { expiresInSeconds: 43_200 },
      },
      // 1.2 x SLACK_RATE_SCALE (10,000) = 12,000 posts a minute at most: the machine is the limit.
      {
        SEND_DAILY_BUDGET: '100000',
        DELIVERY_POSTS_PER_MINUTE: '1.2',
        SLACK_TOKEN_REFRESH_MARGIN_SECONDS: '2',
      },
    );
    teamId = env.emu.teamIds[0]!;
    admin = await signedInUser(env.t);
    expect((await installThroughOAuth(env, admin, { teamId })).statusCode).toBe(200);
    await waitForBackfill(env, admin.token, teamId, 120_000);
    members = [...env.emu.truth(teamId).members()]
      .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
      .map((m: any) => m.id as string)
      .slice(0, BULK);
  }, 180_000);
  afterAll(() => env.close());

  it('0 lost, 0 doubled, no admin action needed', async () => {
    expect(members).toHaveLength(BULK);
    const text = 'bulk across a token expiry';
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/quickaction/dmtomultipleusers',
      headers: bearer(admin.token),
      payload: { team_id: teamId, sender: 'bot', users: members, text, confirm_recipients: members.length },
    });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.receipt_id as number;
    const done = async () => {
      const [row] = await typedRows<{ n: number }>(
        env.t.ctx.database.db,
        sql`select sent + failed as n from delivery_receipts where id = ${id}`,
      );
      return row!.n;
    };
    // A third of the way in, the token Slack holds expires (its 12 hours are up); from then on Slack issues
    // tokens that live 6 seconds, so the rest of the bulk also crosses expiries found before use.
    const started = Date.now();
    const progress = setInterval(() => {
      void typedRows<{ state: string; error: string | null; n: number }>(
        env.t.ctx.database.db,
        sql`select state, error, count(*)::int as n from delivery_recipients
            where receipt_id = ${id} group by 1, 2`,
      ).then((rows) =>
        console.log(
          `${Math.round((Date.now() - started) / 1000)} s`,
          JSON.stringify(rows),
          env.emu.refreshCalls(),
        ),
      );
    }, 15_000);
    await until('a third of the bulk', async () => (await done()) >= Math.round(BULK / 3), 300_000);
    const before = env.emu.refreshCalls();
    env.emu.setTokenRotation({ expiresInSeconds: 6 });
    expect(env.emu.expireTokens(teamId)).toBeGreaterThanOrEqual(1);
    try {
      await until('the bulk', async () => (await done()) === BULK, 600_000);
    } finally {
      clearInterval(progress);
    }
    const receipt = await receiptOf(env, admin.token, teamId, id);
    const refreshes = env.emu.refreshCalls() - before;
    const per = dmsOf(env, teamId, text);
    const lost = members.filter((m) => !per.has(m)).length;
    const doubled = [...per.values()].filter((n) => n > 1).length;
    console.log(
      `bulk of ${BULK} across a token expiry: sent ${receipt.successful_recipient_count}, failed ` +
        `${receipt.failed_recipient_count}, lost ${lost}, doubled ${doubled}, refreshes ${refreshes}`,
    );
    expect(receipt.total_recipient_count).toBe(BULK);
    expect(receipt.successful_recipient_count).toBe(BULK);
    expect(receipt.failed_recipient_count).toBe(0);
    expect(per.size).toBe(BULK);
    expect(lost).toBe(0);
    expect(doubled).toBe(0);
    // Renewed (at least the expiry Slack announced, by token_expired) and still connected: no admin action.
    expect(refreshes).toBeGreaterThanOrEqual(1);
    const [ws] = await typedRows<{ status: string }>(
      env.t.ctx.database.db,
      sql`select status from workspaces where team_id = ${teamId}`,
    );
    expect(ws!.status).toBe('active');
  }, 900_000);
});
