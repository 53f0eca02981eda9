import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../testing/factories.ts';
import { installThroughOAuth, slackTestEnv, waitForBackfill, type SlackTestEnv } from '../testing/slack.ts';
import { DELIVERY_EVENT_TYPE } from '../modules/delivery/engine.ts';
import { DEMO_SEED_MARKER, seedDemo, type DemoSeedResult } from './seed.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/**
 * Stands between the emulator and the server's Interactivity URL, passing each request on as it came (the
 * signature covers the raw body) and noting its payload's type: what reached the product the way Slack sends it.
 */
async function interactivityTap(target: string) {
  const seen: { type: string; user: string }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const payload = JSON.parse(new URLSearchParams(body).get('payload') ?? '{}');
      seen.push({ type: payload.type, user: payload.user?.id });
      const headers: Record<string, string> = {};
      for (const h of ['content-type', 'x-slack-signature', 'x-slack-request-timestamp'])
        headers[h] = String(req.headers[h] ?? '');
      fetch(target, { method: 'POST', headers, body }).then(
        async (r) => {
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'text/plain' });
          res.end(await r.text());
        },
        () => {
          res.writeHead(502);
          res.end();
        },
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** What the seed is about: every list a newcomer opens, counted. */
async function counts(env: SlackTestEnv, teamId: string) {
  const s = env.t.ctx.services;
  return {
    polls: (await s.polls.list(teamId)).length,
    forms: (await s.forms.list(teamId)).length,
    automations: (await s.actions.list(teamId, 'automation')).length,
    schedules: (await s.actions.list(teamId, 'schedule')).length,
    workflows: (await s.workflows.list(teamId)).length,
    receipts: (await s.delivery.receipts(teamId)).length,
  };
}

async function csvLines(env: SlackTestEnv, teamId: string, receiptId: number, kind: 'failed' | 'total') {
  let out = '';
  for await (const chunk of env.t.ctx.services.delivery.recipientsCsv(teamId, receiptId, kind)) out += chunk;
  return out
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r\n/)
    .slice(1);
}

async function seededEnv(workspace: { seed: number; members: number; channels: number }) {
  const env = await slackTestEnv({ workspaces: [{ ...workspace, days: 2 }] });
  const teamId = env.emu.teamIds[0]!;
  const user = await signedInUser(env.t);
  expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
  await waitForBackfill(env, user.token, teamId);
  const tap = await interactivityTap(`${env.url}/slack/interactivity`);
  env.emu.setInteractivityUrl(tap.url);
  const target = { teamId, userId: user.userid, emulatorUrl: env.emu.url };
  return { env, teamId, user, tap, target };
}

describe('the demo seed', () => {
  let env: SlackTestEnv;
  let teamId: string;
  let tap: Awaited<ReturnType<typeof interactivityTap>>;
  let target: { teamId: string; userId: string; emulatorUrl: string };
  let result: DemoSeedResult;

  beforeAll(async () => {
    ({ env, teamId, tap, target } = await seededEnv({ seed: 41, members: 30, channels: 4 }));
  }, 120_000);
  afterAll(async () => {
    await tap?.close();
    await env?.close();
  });

  it('does nothing outside demo mode', async () => {
    expect(env.t.ctx.publicConfig().demoMode).toBe(false);
    expect(await seedDemo(env.t.ctx, target)).toBeNull();
    expect(await counts(env, teamId)).toEqual({
      polls: 0,
      forms: 0,
      automations: 0,
      schedules: 0,
      workflows: 0,
      receipts: 0,
    });
    expect(await env.t.ctx.services.auth.marker(DEMO_SEED_MARKER)).toBeNull();
  });

  it('makes one of each, for real: a receipt with one failure, a poll voted on with reactions, a weekly form answered in its modal, an automation, a schedule, a workflow fired by channel joins', async () => {
    env.t.ctx.setPublicConfig({ demoMode: true, demoEmail: 'demo@flywheel.local', demoPassword: 'x' });
    result = (await seedDemo(env.t.ctx, target))!;
    expect(result).not.toBeNull();
    const s = env.t.ctx.services;
    const c = await counts(env, teamId);
    expect(c).toMatchObject({ polls: 1, forms: 1, automations: 1, schedules: 1, workflows: 1 });

    // The reminder: three DMs sent, one failed for the member who has left Slack.
    const receipts = await s.delivery.receipts(teamId);
    const reminder = receipts.find((r) => r.id === result.receiptId)!;
    expect(reminder).toMatchObject({
      action_type: 'Bulk DM',
      total_recipient_count: 4,
      successful_recipient_count: 3,
      failed_recipient_count: 1,
    });
    const failed = await csvLines(env, teamId, reminder.id, 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain('"user_deactivated"');
    // Every other receipt is finished and whole (poll, form, acknowledgements, the workflow's first steps).
    for (const r of receipts.filter((x) => x.id !== reminder.id))
      expect(r, r.description).toMatchObject({
        failed_recipient_count: 0,
        successful_recipient_count: r.total_recipient_count,
      });
    expect(new Set(receipts.map((r) => r.action_type))).toEqual(
      new Set(['Bulk DM', 'Poll', 'Form', 'Workflow']),
    );

    // The poll: active, its votes the reactions Slack sent as reaction_added events on its message.
    const [poll] = await s.polls.list(teamId);
    expect(poll).toMatchObject({ id: result.pollId, state: 'active', total_votes: result.votes });
    expect(result.votes).toBeGreaterThanOrEqual(5);
    const message = ([...env.emu.truth(teamId).messages({ channel: poll!.channel_ids[0] })] as any[]).find(
      (m) =>
        m.metadata?.event_type === DELIVERY_EVENT_TYPE &&
        m.metadata.event_payload.receipt === poll!.receipt_id,
    );
    expect(message).toBeTruthy();
    const reacted = env.emu
      .deliveries()
      .filter((d) => d.type === 'reaction_added' && (d.envelope as any).event.item.ts === message.ts)
      .map((d) => (d.envelope as any).event.user as string);
    const voters = await s.polls.voters(teamId, poll!.id);
    expect(voters.map((v) => v.user_id).sort()).toEqual([...reacted].sort());
    expect(poll!.poll_options.map((o) => o.count)).toEqual([4, 2, 1]);

    // The form: weekly; this week's instance answered by three members through Slack's modal.
    const [form] = await s.forms.list(teamId);
    expect(form).toMatchObject({ master_form_id: result.formId, recurring: true, frequency: 'Weekly' });
    expect(form!.next_run).not.toBeNull();
    const responses = await s.forms.responses(teamId, result.formId, result.formInstanceId);
    expect(responses.rows).toHaveLength(3);
    const responders = responses.rows.map((r) => r.member_id).sort();
    const byType = (type: string) =>
      tap.seen
        .filter((x) => x.type === type)
        .map((x) => x.user)
        .sort();
    expect(byType('block_actions')).toEqual(responders);
    expect(byType('view_submission')).toEqual(responders);
    expect(responses.rows.map((r) => r.answers[0]!.answer).sort()).toEqual(['Good', 'Great', 'Okay']);

    // The automation and the schedule.
    const [automation] = await s.actions.list(teamId, 'automation');
    expect(automation).toMatchObject({ id: result.automationId, send_dm: true, active: true });
    const [schedule] = await s.actions.list(teamId, 'schedule');
    expect(schedule).toMatchObject({
      id: result.scheduleId,
      frequency: 'Weekly',
      days: ['mon'],
      time: '09:00',
    });
    expect(schedule!.next_run).not.toBeNull();

    // The workflow: fired by three channel joins (member_joined_channel), first step sent, the next waiting.
    const [workflow] = await s.workflows.list(teamId);
    expect(workflow).toMatchObject({
      workflow_id: result.workflowId,
      trigger_type: 'channel_join',
      triggered: 3,
      status: true,
    });
    expect(workflow!.tasks.map((t) => [t.sent, t.pending])).toEqual([
      [3, 0],
      [0, 3],
    ]);
    const joins = env.emu
      .deliveries()
      .filter(
        (d) => d.type === 'member_joined_channel' && (d.envelope as any).event.channel === workflow!.channel,
      )
      .map((d) => (d.envelope as any).event.user as string)
      .filter((u) => u !== env.emu.install(teamId).botUserId);
    expect(joins).toHaveLength(3);
    const history = await s.workflows.triggerHistory(teamId, result.workflowId);
    expect(history.rows.map((r) => r.member_id).sort()).toEqual([...joins].sort());

    expect(JSON.parse((await s.auth.marker(DEMO_SEED_MARKER))!)).toMatchObject({ pollId: result.pollId });
  }, 180_000);

  it('a restart adds nothing', async () => {
    const before = await counts(env, teamId);
    const posts = [...env.emu.truth(teamId).messages()].length;
    expect(await seedDemo(env.t.ctx, target)).toBeNull();
    expect(await counts(env, teamId)).toEqual(before);
    expect([...env.emu.truth(teamId).messages()].length).toBe(posts);
  });
});

describe('the demo seed in a workspace no one has left yet', () => {
  let env: SlackTestEnv;
  let tap: Awaited<ReturnType<typeof interactivityTap>>;
  afterAll(async () => {
    await tap?.close();
    await env?.close();
  });

  it('one member leaves Slack (user_change) before the reminder, which fails for them alone; they take no other part', async () => {
    let teamId: string;
    let target: { teamId: string; userId: string; emulatorUrl: string };
    ({ env, teamId, tap, target } = await seededEnv({ seed: 51, members: 14, channels: 3 }));
    const left = () => ([...env.emu.truth(teamId).members()] as any[]).filter((m) => m.deleted && !m.is_bot);
    expect(left()).toHaveLength(0);
    env.t.ctx.setPublicConfig({ demoMode: true, demoEmail: 'demo@flywheel.local', demoPassword: 'x' });
    const result = (await seedDemo(env.t.ctx, target))!;
    const s = env.t.ctx.services;

    const [gone] = left();
    expect(left()).toHaveLength(1);
    expect(
      env.emu
        .deliveries()
        .some((d) => d.type === 'user_change' && (d.envelope as any).event.user.id === gone!.id),
    ).toBe(true);
    const reminder = (await s.delivery.receipts(teamId)).find((r) => r.id === result.receiptId)!;
    expect(reminder).toMatchObject({
      total_recipient_count: 4,
      successful_recipient_count: 3,
      failed_recipient_count: 1,
    });
    const failed = await csvLines(env, teamId, reminder.id, 'failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toContain(gone!.profile.email);
    expect(failed[0]).toContain('"user_deactivated"');

    const voters = (await s.polls.voters(teamId, result.pollId)).map((v) => v.user_id);
    const responders = (await s.forms.responses(teamId, result.formId, result.formInstanceId)).rows.map(
      (r) => r.member_id,
    );
    const joined = (await s.workflows.triggerHistory(teamId, result.workflowId)).rows.map((r) => r.member_id);
    expect(voters.length).toBeGreaterThan(0);
    expect(responders).toHaveLength(3);
    expect(joined).toHaveLength(3);
    expect([...voters, ...responders, ...joined]).not.toContain(gone!.id);
  }, 240_000);
});
