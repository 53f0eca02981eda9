import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { typedRows } from '../../db/sql.ts';
import { localDay, tsToDate } from '../../lib/days.ts';
import { buildTestApp, createScratchDatabase, testDbKind } from '../../testing/build-test-app.ts';
import { signedInUser } from '../../testing/factories.ts';
import { freePort, runScript, stopStarted, waitFor } from '../../testing/processes.ts';
import { installThroughOAuth, slackTestEnv, waitForBackfill } from '../../testing/slack.ts';
import { startEmulator } from '@flywheel/slack-emulator';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * The process holding the Socket Mode connection is killed (kill -9) in the middle of a burst of 2,000 events.
 * Slack (the emulator) sends the envelopes that were never acknowledged again on the connection the restarted
 * process opens; every event is then counted once: an event is acknowledged only once it is stored, and the
 * inbox keeps one row per event_id, so one stored before the kill and sent again is not counted twice.
 */
// 1,000 events in the suite on both databases (the kill lands in the middle of the burst either way); the issue's
// 2,000 with SOCKET_KILL_BURST=2000 (measured so in session 18, every event counted once).
const BURST = Number(process.env.SOCKET_KILL_BURST ?? 1000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-socket-kill-'));
const cleanup: (() => Promise<unknown>)[] = [];
afterAll(async () => {
  await stopStarted();
  while (cleanup.length) await cleanup.pop()!().catch(() => undefined);
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('Socket Mode: kill -9 of the process holding the socket during a burst', () => {
  it(`every one of ${BURST} events is counted once after the process comes back`, async () => {
    const scratch = testDbKind() === 'postgres' ? await createScratchDatabase() : undefined;
    if (scratch) cleanup.push(() => scratch.drop());
    const database = scratch ? { databaseUrl: scratch.url } : { pgliteDir: path.join(dataDir, 'pglite') };
    const secretsKey = crypto.randomBytes(32).toString('base64');

    // The install and the history import, in this process; then it lets go of the database.
    const env = await slackTestEnv(
      {
        workspace: { seed: 23, members: 30, channels: 3, days: 3 },
        // Slack's ack window, and retries a second, 10 s and 30 s after it (Slack: about 1 min and 5 min).
        socketMode: { enabled: true, ackTimeoutMs: 3000, retryDelaysMs: [1000, 10_000, 30_000] },
      },
      { SECRETS_KEY: secretsKey, DATA_DIR: dataDir, BACKFILL_DAYS: '30' },
      { socketMode: true, database },
    );
    const emu = env.emu;
    cleanup.push(() => emu.close());
    const teamId = emu.teamIds[0]!;
    const user = await signedInUser(env.t);
    expect((await installThroughOAuth(env, user)).statusCode).toBe(200);
    await waitForBackfill(env, user.token, teamId);
    await env.t.close();

    const port = await freePort();
    const serverEnv: Record<string, string> = {
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      WEB_DIST: '/nonexistent',
      DATA_DIR: dataDir,
      SECRETS_KEY: secretsKey,
      ...(scratch ? { DATABASE_URL: scratch.url } : {}),
      SLACK_CLIENT_ID: emu.app.clientId,
      SLACK_CLIENT_SECRET: emu.app.clientSecret,
      SLACK_SIGNING_SECRET: emu.app.signingSecret,
      SLACK_API_URL: emu.apiUrl,
      SLACK_AUTHORIZE_URL: emu.authorizeUrl,
      SLACK_APP_TOKEN: emu.app.appToken,
      SLACK_RATE_SCALE: '10000',
    };
    const connected = () =>
      Promise.resolve(emu.socketMode.connections().some((c) => !c.draining) ? true : undefined);
    const first = runScript('main.ts', serverEnv);
    await waitFor(connected, 90_000);

    const truth = emu.truth(teamId);
    const bot = truth.install()!.botUserId;
    const channel = (truth.channels() as any[]).find(
      (c) => !c.is_im && !c.is_archived && (c.members as string[]).includes(bot),
    ).id as string;
    const people = [...truth.members()].filter((m) => !m.is_bot && !m.deleted_at).map((m) => m.id);
    const bots = new Set([...truth.members()].filter((m) => m.is_bot).map((m) => m.id));
    const before = emu.deliveries().length;
    const acksBefore = emu.socketMode.stats().acks;
    let emitted = 0;
    const team = emu.team(teamId);
    // 2,000 messages, 10 every 20 ms: about four seconds of events, so the kill lands while they come in.
    const firing = (async () => {
      while (emitted < BURST) {
        for (let i = 0; i < 10 && emitted < BURST; i++, emitted++)
          team.postMessage(channel, { user: people[emitted % people.length], text: `burst ${emitted}` });
        await new Promise((r) => setTimeout(r, 20));
      }
    })();
    await waitFor(
      () => Promise.resolve(emu.socketMode.stats().acks - acksBefore >= 200 ? true : undefined),
      60_000,
    );
    first.child.kill('SIGKILL');
    const killedAt = { emitted, acked: emu.socketMode.stats().acks - acksBefore };
    await first.exited;
    await firing;
    // Mid-burst: some events were acknowledged before the kill, and some were still to come.
    expect(killedAt.acked).toBeGreaterThan(0);
    expect(killedAt.acked).toBeLessThan(BURST);

    const second = runScript('main.ts', serverEnv);
    await waitFor(connected, 90_000);
    await emu.eventsIdle();
    const burst = emu.deliveries().slice(before);
    expect(burst.length).toBeGreaterThanOrEqual(BURST);
    expect(burst.filter((d) => d.state !== 'delivered')).toEqual([]);
    // The emulator sent envelopes again that the killed process never acknowledged.
    const resent = burst.filter((d) => d.attempts.some((a) => a.reason === 'connection_closed'));
    expect(resent.length).toBeGreaterThan(0);
    expect(emu.transports().http.eventPosts).toBe(0);

    // Stopped, the database is read here: whatever the process had not applied yet is applied now.
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const t = await buildTestApp(
      { SECRETS_KEY: secretsKey, DATA_DIR: dataDir },
      { database, workers: false },
    );
    cleanup.push(() => t.close());
    await t.ctx.services.events.drain();
    const rows = <T>(q: ReturnType<typeof sql>) => typedRows<T>(t.ctx.database.db, q);
    const ids = burst.map((d) => d.eventId);
    const [inbox] = await rows<{ n: number; pending: number }>(
      sql`select count(*)::int as n, count(*) filter (where processed_at is null)::int as pending
        from slack_inbox where event_id = any(${sql.param(ids)}::text[])`,
    );
    expect(inbox).toEqual({ n: ids.length, pending: 0 });
    const [tz] = await rows<{ timezone: string }>(
      sql`select timezone from workspaces where team_id = ${teamId}`,
    );
    // Messages per member and day in the channel: the database against the emulator's own record.
    const want = new Map<string, number>();
    for (const m of truth.messages({ channel })) {
      if (m.deleted || m.bot_id || !m.user || bots.has(m.user)) continue;
      if (m.subtype && !['thread_broadcast', 'file_share', 'me_message'].includes(m.subtype)) continue;
      if (m.thread_ts && m.thread_ts !== m.ts) continue; // a reply: counted as a reply, not a message
      const key = `${localDay(tsToDate(m.ts), tz!.timezone)}|${m.user}`;
      want.set(key, (want.get(key) ?? 0) + 1);
    }
    const got = new Map<string, number>();
    for (const r of await rows<{ day: string; member_id: string; messages: number }>(
      sql`select day::text as day, member_id, messages from activity_daily
        where team_id = ${teamId} and channel_id = ${channel} and messages > 0`,
    ))
      got.set(`${r.day}|${r.member_id}`, r.messages);
    expect(got).toEqual(want);
    const [burstRows] = await rows<{ n: number }>(
      sql`select count(*)::int as n from slack_messages
        where team_id = ${teamId} and channel_id = ${channel} and text like 'burst %'`,
    );
    expect(burstRows!.n).toBe(BURST);
    console.log(
      `socket kill -9: killed after ${killedAt.acked} acks with ${killedAt.emitted} of ${BURST} emitted; ` +
        `${resent.length} envelopes sent again on the new connection; counted once each`,
    );
  }, 400_000);
});

describe('Socket Mode and process roles', () => {
  it('a worker process connects, an API-only process does not', async () => {
    const emu = await startEmulator({
      rateLimits: { profile: 'off' },
      workspace: { seed: 5, members: 12, channels: 2, days: 1 },
      socketMode: { enabled: true },
    });
    cleanup.push(() => emu.close());
    const scratch = testDbKind() === 'postgres' ? await createScratchDatabase() : undefined;
    if (scratch) cleanup.push(() => scratch.drop());
    const start = async (role: 'api' | 'worker') => {
      const port = await freePort();
      const dir = path.join(dataDir, `role-${role}`);
      return runScript('main.ts', {
        NODE_ENV: 'test',
        ROLE: role,
        PORT: String(port),
        HOST: '127.0.0.1',
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        WEB_DIST: '/nonexistent',
        DATA_DIR: dir,
        ...(scratch
          ? { DATABASE_URL: scratch.url, SECRETS_KEY: crypto.randomBytes(32).toString('base64') }
          : {}),
        SLACK_CLIENT_ID: emu.app.clientId,
        SLACK_CLIENT_SECRET: emu.app.clientSecret,
        SLACK_SIGNING_SECRET: emu.app.signingSecret,
        SLACK_API_URL: emu.apiUrl,
        SLACK_APP_TOKEN: emu.app.appToken,
      });
    };
    const api = await start('api');
    await waitFor(async () => (api.output().includes('Flywheel is running') ? true : undefined), 90_000);
    const worker = await start('worker');
    await waitFor(
      async () => (worker.output().includes('Flywheel worker is running') ? true : undefined),
      90_000,
    );
    expect(worker.output()).toContain('Socket Mode connected');
    expect(api.output()).not.toContain('Socket Mode connected');
    expect(emu.socketMode.connections()).toHaveLength(1);
    expect(emu.socketMode.stats().connectionsOpened).toBe(1);
  }, 240_000);
});
