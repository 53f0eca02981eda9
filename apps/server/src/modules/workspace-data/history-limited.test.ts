import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { typedRows } from '../../db/sql.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';

// An app outside the Marketplace with SLACK_HISTORY_LIMITED unset: Slack answers history 15 a page.
let env: SlackTestEnv;
let teamId: string;
let token: string;

beforeAll(async () => {
  env = await slackTestEnv(
    {
      workspace: { seed: 11, members: 25, channels: 3, days: 6 },
      rateLimits: { profile: 'off', nonMarketplace: true },
    },
    { BACKFILL_DAYS: '30' },
  );
  teamId = env.emu.teamIds[0]!;
  const user = await signedInUser(env.t);
  token = user.token;
  expect((await installThroughOAuth(env, user)).statusCode).toBe(200);
  await waitForBackfill(env, token, teamId);
}, 120_000);
afterAll(() => env.close());

it('detects the limited history tier from Slack’s answers, paces at it, records it, and still imports everything', async () => {
  const slack = env.t.ctx.slack;
  expect(slack.historyLimited(teamId)).toBe(true);
  expect(slack.historyLimit(teamId)).toBe(15);
  expect(slack.perMinute('conversations.history', teamId)).toBe(
    slack.perMinute('conversations.history') / 50,
  );
  const status = await env.t.app.inject({
    method: 'GET',
    url: `/api/v0/workspaces/status/${teamId}`,
    headers: bearer(token),
  });
  expect(status.json().backfill).toMatchObject({
    status: 'done',
    pacing: 'limited',
    remaining_seconds: null,
  });
  const [saved] = await typedRows<{ limited: boolean }>(
    env.t.ctx.database.db,
    sql`select (state->>'limited')::boolean as limited from slack_backfills where team_id = ${teamId}`,
  );
  expect(saved?.limited).toBe(true);

  // Every stored kind of message of the channels the bot is in arrived, page by page of 15.
  const truth = env.emu.truth(teamId);
  const bot = truth.install()!.botUserId;
  const visible = new Set(
    truth
      .channels()
      .filter((c) => !c.is_im && (c.members as string[]).includes(bot))
      .map((c) => c.id as string),
  );
  const stored = (m: { subtype?: string }) =>
    !m.subtype || ['thread_broadcast', 'file_share', 'me_message', 'bot_message'].includes(m.subtype);
  const want = [...truth.messages()].filter((m) => visible.has(m.channel) && !m.deleted && stored(m)).length;
  const [got] = await typedRows<{ n: number }>(
    env.t.ctx.database.db,
    sql`select count(*)::int as n from slack_messages where team_id = ${teamId}`,
  );
  expect(want).toBeGreaterThan(15);
  expect(got!.n).toBe(want);
});

it('a run told to stop (the process is stopping) leaves the import for the next run, which finishes it', async () => {
  const imports = env.t.ctx.services.historyImport;
  await imports.start(teamId);
  const stopped = new AbortController();
  stopped.abort();
  expect(await imports.run(teamId, 60_000, stopped.signal)).toBe('more');
  const [left] = await typedRows<{ status: string }>(
    env.t.ctx.database.db,
    sql`select status from slack_backfills where team_id = ${teamId}`,
  );
  expect(left?.status).toBe('running');
  let outcome = await imports.run(teamId, 60_000);
  while (outcome === 'more') outcome = await imports.run(teamId, 60_000);
  expect(outcome).toBe('finished');
});
