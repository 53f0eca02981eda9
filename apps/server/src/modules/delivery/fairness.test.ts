import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { typedRows } from '../../db/sql.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from './engine.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Fair sending (issue #30): a small send made while a bulk send is under way goes within a few of the bulk's
 * messages, in the same workspace (the sends take turns) and in another one (a worker's loops are not all held by
 * one workspace). Positions are counted in the messages Slack holds, not timed: the bulk is paced (at most 100 a
 * second), and without fairness the small send waits for the whole bulk (same workspace) or for the bulk's 20-second slice
 * (another workspace).
 */

let env: SlackTestEnv;
let admin: { token: string; userid: string };
let otherAdmin: { token: string; userid: string };
let teamId: string;
let otherTeam: string;
let members: string[];
let otherMember: string;

const reachable = (team: string) =>
  [...env.emu.truth(team).members()]
    .filter((m: any) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
    .map((m: any) => m.id as string);

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspaces: [
        { seed: 31, members: 700, channels: 2, days: 1 },
        { seed: 32, members: 10, channels: 2, days: 1 },
      ],
    },
    {
      // 0.6 x SLACK_RATE_SCALE (10,000) = 6,000 posts a minute at most (the machine may be slower): a bulk of
      // ~680 takes 7-15 s, less than a job's 20-second slice, so without fairness the other workspace's send
      // waits for all of it.
      DELIVERY_POSTS_PER_MINUTE: '0.6',
      SEND_DAILY_BUDGET: '100000',
    },
  );
  [teamId, otherTeam] = env.emu.teamIds as [string, string];
  admin = await signedInUser(env.t);
  otherAdmin = await signedInUser(env.t);
  expect((await installThroughOAuth(env, admin, { teamId })).statusCode).toBe(200);
  expect((await installThroughOAuth(env, otherAdmin, { teamId: otherTeam })).statusCode).toBe(200);
  await waitForBackfill(env, admin.token, teamId);
  await waitForBackfill(env, otherAdmin.token, otherTeam);
  members = reachable(teamId);
  otherMember = reachable(otherTeam)[0]!;
}, 120_000);
afterAll(() => env.close());

const post = (url: string, payload: object, token = admin.token) =>
  env.t.app.inject({ method: 'POST', url: `/api/v0${url}`, headers: bearer(token), payload });

/** Our messages of a receipt in Slack (the emulator): per recipient, and each message's time in ms. */
function delivered(team: string, receiptId: number) {
  const ims = new Map<string, string[]>();
  for (const c of env.emu.truth(team).channels() as any[]) if (c.is_im) ims.set(c.id, c.members);
  const per = new Map<string, number>();
  const times: number[] = [];
  for (const m of env.emu.truth(team).messages() as Iterable<any>) {
    if (m.metadata?.event_type !== DELIVERY_EVENT_TYPE || m.metadata.event_payload.receipt !== receiptId)
      continue;
    const pair = ims.get(m.channel)!;
    const who = pair.find((u) => u !== m.user) ?? m.user;
    per.set(who, (per.get(who) ?? 0) + 1);
    times.push(Number(m.ts) * 1000);
  }
  return { per, times: times.sort((a, b) => a - b) };
}

/** How many of a receipt's recipients are done (the receipt's counts: a cheap look while the bulk runs). */
async function doneOf(id: number): Promise<number> {
  const [row] = await typedRows<{ n: number }>(
    env.t.ctx.database.db,
    sql`select sent + failed as n from delivery_receipts where id = ${id}`,
  );
  return row!.n;
}

async function until(what: string, done: () => Promise<boolean>, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A DM to every reachable member of the first workspace (confirmed: it is more than SEND_CONFIRM_OVER). */
async function startBulk(text: string): Promise<number> {
  const res = await post('/quickaction/dmtomultipleusers', {
    team_id: teamId,
    sender: 'bot',
    users: members,
    text,
    confirm_recipients: members.length,
  });
  expect(res.statusCode, res.body).toBe(202);
  const id = res.json().data.receipt_id as number;
  // Under way: a first hundred sent.
  await until('the bulk to start', async () => (await doneOf(id)) >= 100);
  return id;
}

/**
 * Sends one DM while the bulk runs; answers how many bulk messages Slack got between the send's answer (its
 * receipt queued) and the DM, and how many after the DM.
 */
async function oneDuringBulk(bulkId: number, team: string, to: string, token: string) {
  const res = await post(
    '/member/directmessage',
    { team_id: team, sender: 'bot', id: to, text: 'just you' },
    token,
  );
  expect(res.statusCode, res.body).toBe(202);
  const queued = Date.now();
  const id = res.json().data.receipt_id as number;
  await until('the one-recipient DM', async () => (await doneOf(id)) === 1);
  await until('the bulk to end', async () => (await doneOf(bulkId)) === members.length);
  const at = delivered(team, id).times[0]!;
  const { per, times } = delivered(teamId, bulkId);
  // The bulk itself: exactly one message per member; the DM: one.
  expect(per.size).toBe(members.length);
  expect([...per.values()].every((n) => n === 1)).toBe(true);
  expect(delivered(team, id).per.get(to)).toBe(1);
  return {
    between: times.filter((t) => t > queued && t <= at).length,
    after: times.filter((t) => t > at).length,
  };
}

describe('fair sending', () => {
  it('a one-recipient send made during a bulk send in its workspace goes next, not after the bulk', async () => {
    expect(members.length).toBeGreaterThan(600);
    const bulk = await startBulk('bulk, same workspace');
    const { between, after } = await oneDuringBulk(bulk, teamId, members[0]!, admin.token);
    // It took its turn: a few bulk messages in flight went before it, and most of the bulk after it.
    const seen = `bulk messages between its answer and it: ${between}, after it: ${after}`;
    expect(between, seen).toBeLessThan(members.length / 10);
    expect(after, seen).toBeGreaterThan(members.length / 2);
  }, 120_000);

  it("another workspace's one-recipient send is not held behind a workspace's bulk send", async () => {
    const bulk = await startBulk('bulk, other workspace waits?');
    const { between, after } = await oneDuringBulk(bulk, otherTeam, otherMember, otherAdmin.token);
    const seen = `bulk messages between its answer and it: ${between}, after it: ${after}`;
    expect(between, seen).toBeLessThan(members.length / 10);
    expect(after, seen).toBeGreaterThan(members.length / 2);
  }, 120_000);
});
