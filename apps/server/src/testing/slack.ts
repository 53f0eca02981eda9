import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { typedRows } from '../db/sql.ts';
import { startEmulator, type Emulator, type EmulatorOptions } from '@flywheel/slack-emulator';
import { buildTestApp, type TestApp } from './build-test-app.ts';
import { bearer } from './factories.ts';
import type pino from 'pino';

export type SlackTestEnv = { t: TestApp; emu: Emulator; url: string; close(): Promise<void> };

/**
 * The server listening on a real port (Slack must reach it) wired to a fresh emulator: the app's
 * credentials, API and authorize URLs, and the emulator's events/interactivity URLs pointed back at it.
 */
export async function slackTestEnv(
  emuOptions: EmulatorOptions = {},
  env: Record<string, string> = {},
  opts: {
    logStream?: pino.DestinationStream;
    /** The app in Socket Mode: the server gets its app-level token and the emulator no Request URLs. */
    socketMode?: boolean;
    /** A database kept after close (see buildTestApp). */
    database?: NonNullable<Parameters<typeof buildTestApp>[1]>['database'];
  } = {},
): Promise<SlackTestEnv> {
  const emu = await startEmulator({
    rateLimits: { profile: 'off' },
    events: { timeoutMs: 3000, retryDelaysMs: [50, 100, 200] },
    ...(opts.socketMode
      ? { socketMode: { enabled: true, ackTimeoutMs: 3000, retryDelaysMs: [50, 100, 200] } }
      : {}),
    ...emuOptions,
  });
  const t = await buildTestApp(
    {
      SLACK_CLIENT_ID: emu.app.clientId,
      SLACK_CLIENT_SECRET: emu.app.clientSecret,
      SLACK_SIGNING_SECRET: emu.app.signingSecret,
      SLACK_API_URL: emu.apiUrl,
      SLACK_AUTHORIZE_URL: emu.authorizeUrl,
      SLACK_RATE_SCALE: '10000',
      ...(opts.socketMode ? { SLACK_APP_TOKEN: emu.app.appToken } : {}),
      ...env,
    },
    { logStream: opts.logStream, database: opts.database },
  );
  const url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  // The app first, while Slack still answers: its workers' last handlers finish their calls instead of retrying
  // against a closed port until the stop's timeout (a close of button-polls.test on PostgreSQL ran past 60 s).
  const close = async () => {
    await t.close();
    await emu.close();
  };
  // Socket Mode: the test connects (modules/intake/socket-mode.ts) when it wants the events.
  if (opts.socketMode) return { t, emu, url, close };
  // Slack waits 3 s for the challenge's answer; a server's first request on a busy machine can take longer. As a
  // person presses Retry on the app's settings page, the handshake is tried again (a few times).
  let verified = false;
  for (let i = 0; i < 5 && !verified; i++) verified = await emu.setEventsUrl(`${url}/slack/events`);
  expect(verified).toBe(true);
  emu.setInteractivityUrl(`${url}/slack/interactivity`);
  return { t, emu, url, close };
}

/**
 * The browser's part of connecting a workspace, as its tests mostly need it: the install (Create Workspace, bot
 * scopes only), then Add as Admin by the same installer (the user scopes: the installer can Send as Admin).
 * Answers the install's response. `adminToken: false`: the install alone (the installer is an admin without a
 * user token). `addAsAdmin`: only Add as Admin (the user must already be an admin of `teamId`).
 */
export async function installThroughOAuth(
  env: SlackTestEnv,
  user: { token: string; userid: string },
  opts: { teamId?: string; installer?: string; addAsAdmin?: boolean; adminToken?: boolean } = {},
) {
  const res = await authorizeThroughOAuth(env, user, opts);
  if (opts.addAsAdmin || opts.adminToken === false || res.statusCode !== 200) return res;
  const added = await authorizeThroughOAuth(env, user, { ...opts, addAsAdmin: true });
  expect(added.statusCode, added.body).toBe(200);
  return res;
}

/**
 * One round trip: ask the server for the authorize URL (the install's, or with `addAsAdmin` Add as Admin's),
 * press Allow on the emulator's page as `installer`, and follow the redirect's code to POST /auth-redirect.
 */
export async function authorizeThroughOAuth(
  env: SlackTestEnv,
  user: { token: string; userid: string },
  opts: { teamId?: string; installer?: string; addAsAdmin?: boolean } = {},
) {
  const teamId = opts.teamId ?? env.emu.teamIds[0]!;
  const q = opts.addAsAdmin ? `?team_id=${teamId}` : '';
  const res = await env.t.app.inject({
    method: 'GET',
    url: `/api/v0/slack/installurl${q}`,
    headers: bearer(user.token),
  });
  expect(res.statusCode).toBe(200);
  const authorize = new URL(res.json().url);
  const installer = opts.installer ?? ownerOf(env, teamId);
  const form = new URLSearchParams({
    ...Object.fromEntries(authorize.searchParams),
    team: teamId,
    installer,
    decision: 'allow',
  });
  const allow = await fetch(`${env.emu.url}/oauth/v2/authorize`, {
    method: 'POST',
    body: form,
    redirect: 'manual',
  });
  expect(allow.status).toBe(302);
  const back = new URL(allow.headers.get('location')!);
  const code = back.searchParams.get('code')!;
  const state = back.searchParams.get('state')!;
  return env.t.app.inject({
    method: 'POST',
    url: '/api/v0/auth-redirect',
    payload: { id: user.userid, code, state },
  });
}

export function ownerOf(env: SlackTestEnv, teamId: string): string {
  for (const m of env.emu.truth(teamId).members())
    if ((m as { is_primary_owner?: boolean }).is_primary_owner) return m.id;
  throw new Error('no owner');
}

/** Waits until the history import of a team is done (or fails). */
export async function waitForBackfill(env: SlackTestEnv, token: string, teamId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await env.t.app.inject({
      method: 'GET',
      url: `/api/v0/workspaces/status/${teamId}`,
      headers: bearer(token),
    });
    const b = res.json().backfill;
    if (b?.status === 'done') return b;
    if (b?.status === 'failed') throw new Error(`backfill failed: ${b.error}`);
    if (Date.now() > deadline) throw new Error(`backfill not done: ${JSON.stringify(b)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits for the emulator's deliveries, then applies everything stored. */
export async function settleEvents(env: SlackTestEnv) {
  await env.emu.eventsIdle();
  await env.t.ctx.services.events.drain();
}

/**
 * Sends every open recipient of the workspace's receipts (this call works the delivery engine; the process's own
 * workers may too), until none is pending or sending.
 */
export async function drainDeliveries(env: SlackTestEnv, teamId: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await env.t.ctx.services.deliveryEngine.run(teamId, 2000);
    const [row] = await typedRows<{ n: number }>(
      env.t.ctx.database.db,
      sql`select count(*)::int as n from delivery_recipients where team_id = ${teamId} and state in ('pending', 'sending')`,
    );
    if (row!.n === 0) return;
    if (Date.now() > deadline) throw new Error(`${row!.n} recipients still open`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Delivers `event` to the server's /slack/events as Slack would (signed), as event `eventId` of `teamId`. */
export async function deliverEvent(env: SlackTestEnv, teamId: string, event: object, eventId: string) {
  const body = JSON.stringify({
    token: 'x',
    team_id: teamId,
    api_app_id: env.emu.app.appId,
    event,
    type: 'event_callback',
    event_id: eventId,
    event_time: Math.floor(Date.now() / 1000),
  });
  const ts = Math.floor(Date.now() / 1000).toString();
  const sig = `v0=${crypto.createHmac('sha256', env.emu.app.signingSecret).update(`v0:${ts}:${body}`).digest('hex')}`;
  const res = await fetch(`${env.url}/slack/events`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-slack-request-timestamp': ts,
      'x-slack-signature': sig,
    },
    body,
  });
  expect(res.status).toBe(200);
}

/**
 * POSTs an interactivity payload to the server's /slack/interactivity as Slack would (form-encoded, signed),
 * whoever it claims to come from: what a forged or unusual payload with a valid signature gets.
 */
export async function deliverInteractivity(env: SlackTestEnv, payload: object) {
  const body = new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
  const ts = Math.floor(Date.now() / 1000).toString();
  const sig = `v0=${crypto.createHmac('sha256', env.emu.app.signingSecret).update(`v0:${ts}:${body}`).digest('hex')}`;
  const res = await fetch(`${env.url}/slack/interactivity`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-slack-request-timestamp': ts,
      'x-slack-signature': sig,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}
