import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../testing/build-test-app.ts';
import { bearer, signedInUser } from '../../testing/factories.ts';
import {
  installThroughOAuth,
  ownerOf,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../../testing/slack.ts';

const TOKEN = 'metrics-token-0123456789';
let env: SlackTestEnv;
let user: { token: string; userid: string };
let teamId: string;
let members: string[];

beforeAll(async () => {
  env = await slackTestEnv(
    { workspaces: [{ seed: 31, members: 12, channels: 2, days: 2 }] },
    { METRICS_TOKEN: TOKEN, DELIVERY_RETRY_BASE_MS: '20', SEND_DAILY_BUDGET: '50' },
  );
  [teamId] = env.emu.teamIds as [string];
  user = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  const owner = ownerOf(env, teamId);
  members = [...env.emu.truth(teamId).members()]
    .filter(
      (m: { is_bot?: boolean; deleted?: boolean; id: string }) =>
        !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && m.id !== owner,
    )
    .map((m: { id: string }) => m.id);
}, 120_000);
afterAll(() => env.close());

const scrape = async () => {
  const res = await env.t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body;
};
/** A sample's value: `name{labels} value`, labels in any order given as a fragment. */
const sample = (body: string, name: string, ...labels: string[]) => {
  const line = body
    .split('\n')
    .find((l) =>
      l.startsWith(`${name}{`) || l.startsWith(`${name} `) ? labels.every((x) => l.includes(x)) : false,
    );
  return line === undefined ? undefined : Number(line.split(' ').at(-1));
};

describe('GET /metrics', () => {
  it('is refused without the token, with another token, and does not exist without METRICS_TOKEN', async () => {
    expect((await env.t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
    const wrong = await env.t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    // A user's session token is not a metrics token.
    expect(
      (await env.t.app.inject({ method: 'GET', url: '/metrics', headers: bearer(user.token) })).statusCode,
    ).toBe(401);
    const off = await buildTestApp({}, { workers: false });
    try {
      expect(
        (
          await off.app.inject({
            method: 'GET',
            url: '/metrics',
            headers: { authorization: `Bearer ${TOKEN}` },
          })
        ).statusCode,
      ).toBe(404);
    } finally {
      await off.close();
    }
  });

  it('after a send with one 429 from Slack: attempts by outcome, request latency by route, queues, ingest, import, budget', async () => {
    env.emu.queueFault({ kind: 'ratelimited', method: 'chat.postMessage', retryAfter: 1 });
    const res = await env.t.app.inject({
      method: 'POST',
      url: '/api/v0/quickaction/dmtomultipleusers',
      headers: bearer(user.token),
      payload: { team_id: teamId, sender: 'bot', users: members.slice(0, 3), text: 'Metrics' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const deadline = Date.now() + 60_000;
    let body = await scrape();
    while (
      (sample(body, 'flywheel_delivery_attempts_total', `team_id="${teamId}"`, 'outcome="sent"') ?? 0) < 3
    ) {
      if (Date.now() > deadline) throw new Error(`not sent:\n${body}`);
      await new Promise((r) => setTimeout(r, 200));
      body = await scrape();
    }
    expect(sample(body, 'flywheel_delivery_attempts_total', `team_id="${teamId}"`, 'outcome="sent"')).toBe(3);
    expect(
      sample(body, 'flywheel_delivery_attempts_total', `team_id="${teamId}"`, 'outcome="rate_limited"'),
    ).toBe(1);
    expect(
      sample(body, 'flywheel_delivery_attempts_total', `team_id="${teamId}"`, 'outcome="failed"'),
    ).toBeUndefined();
    // The send's request, by its route's template (never the raw URL).
    expect(
      sample(
        body,
        'flywheel_http_request_duration_seconds_count',
        'route="/api/v0/quickaction/dmtomultipleusers"',
        'method="POST"',
        'status_code="202"',
      ),
    ).toBe(1);
    expect(body).not.toMatch(new RegExp(`route="[^"]*${teamId}`));
    // The import is done; the budget (50) has the three sent out of it.
    expect(
      sample(body, 'flywheel_history_import_progress_ratio', `team_id="${teamId}"`, 'status="done"'),
    ).toBe(1);
    expect(sample(body, 'flywheel_send_budget_remaining', `team_id="${teamId}"`)).toBe(47);
    expect(sample(body, 'flywheel_ingest_pending_events')).toBeGreaterThanOrEqual(0);
    expect(sample(body, 'flywheel_ingest_lag_seconds')).toBeGreaterThanOrEqual(0);
    expect(body).toContain('# TYPE flywheel_queue_jobs gauge');
    expect(body).toContain('# TYPE flywheel_queue_oldest_job_age_seconds gauge');
    expect(body).toContain('flywheel_process_resident_memory_bytes');
  });

  it('reports jobs waiting in a queue and how old the oldest is', async () => {
    // A queue no worker consumes here, with a job due 90 s ago.
    const boss = env.t.ctx.queue.boss;
    await boss.createQueue('metrics.unworked', { name: 'metrics.unworked' });
    await boss.send('metrics.unworked', {}, { startAfter: new Date(Date.now() - 90_000) });
    const body = await scrape();
    expect(sample(body, 'flywheel_queue_jobs', 'queue="metrics.unworked"', 'state="created"')).toBe(1);
    expect(
      sample(body, 'flywheel_queue_oldest_job_age_seconds', 'queue="metrics.unworked"'),
    ).toBeGreaterThanOrEqual(89);
  });
});
