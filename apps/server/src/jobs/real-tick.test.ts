import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstRow, textArray, typedRows } from '../db/sql.ts';
import { DELIVERY_EVENT_TYPE } from '../modules/delivery/engine.ts';
import { bearer, signedInUser } from '../testing/factories.ts';
import {
  installThroughOAuth,
  ownerOf,
  settleEvents,
  slackTestEnv,
  waitForBackfill,
  type SlackTestEnv,
} from '../testing/slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

/*
 * The minute ticks for real: pg-boss's cron ('* * * * *') starts actions.tick, forms.tick, polls.tick, digest.weekly and
 * workflows.tick in the process's own workers, on the real clock, and each finds due work of every kind it has.
 * The other tests of these modules call the services on an injected clock, so none of them let a real tick find
 * due work, and none saw the default install (embedded PGlite, one connection) hang for good the first time a
 * schedule came due: planning read the workspace's timezone through the pool while holding its transaction, and
 * waited for itself. Here every kind of due work waits for the same ticks (they fire once a minute, so everything
 * is set up first and waited for once), and meanwhile the API must keep answering.
 *
 * The work is created through the API as an admin would. Most of it cannot be made due within a minute that way
 * (a one-time schedule, a scheduled poll and a time trigger must lie at least 15 minutes ahead, a daily schedule
 * runs at its time of day, a workflow's delay is minutes to days, an inactivity threshold is days), so the test
 * then moves its time to now with one direct UPDATE (next run, post time, end, trigger time, a step's due time, a
 * member's last activity): what the tick then does is the product's own, on the real clock.
 */

/** The cron jobs whose work this file waits for. */
const TICKS = ['actions.tick', 'forms.tick', 'polls.tick', 'workflows.tick', 'digest.weekly'];
/** How long the ticks get to send everything (the cron fires each minute; three chances on a loaded machine). */
const ARRIVAL_MS = 200_000;
/** Then how long for each tick to run once more (a second send of anything would come from it). */
const SETTLE_MS = 120_000;
/** Every API call must answer within this while the ticks run (generous: a loaded CI machine; never a hang). */
const ANSWER_MS = 15_000;

const KINDS = [
  'a daily schedule',
  'a weekly schedule',
  'a one-time schedule',
  'a recurring form',
  'a weekly recurring form',
  'a scheduled form',
  'a scheduled poll',
  'a recurring poll',
  'the end of a poll (its final results, through chat.update)',
  'a time trigger for a tag',
  'an activity trigger (a member active again)',
  'an inactivity trigger',
  'a workspace join (its first step, at the join)',
  'a workspace join (its delayed second step)',
  'a channel join (its delayed step)',
  'a workflow form step (at the join)',
  'a workflow form step (delayed)',
  'a Member Join automation',
  'the weekly digest (its e-mail)',
  'the weekly digest (its Slack DM)',
] as const;
type Kind = (typeof KINDS)[number];

const logLines: string[] = [];
const logStream = new Writable({
  write(chunk, _enc, done) {
    logLines.push(String(chunk));
    done();
  },
});

let env: SlackTestEnv;
let user: { token: string; userid: string };
let teamId: string;
/** How many times each kind's message reached Slack, once everything had settled. */
const arrived = new Map<Kind, number>();
/** Every API call that did not answer 200 in time while the ticks ran. */
const unanswered: string[] = [];
let probes = 0;
/** Tick jobs that failed or wait for a retry, with pg-boss's record of why. */
let failedTicks: { name: string; state: string; output: unknown }[] = [];
/** The poll that ended, as the database has it afterwards. */
let endedPoll: { closed: boolean; final: boolean } | undefined;
/** The delayed steps sent with no minute tick (see the wake-ups' part of beforeAll). */
const woken = {
  /** How many times each step's message reached Slack. */
  arrived: [] as number[],
  /** What was not seen in time (a step never sent). */
  error: undefined as string | undefined,
  /** workflows.tick jobs created or started meanwhile (it was unscheduled). */
  ticks: -1,
  /** The steps, each with whether a sender was queued to start at its due time and ran, and whether it was sent early. */
  steps: [] as { position: number; status: string; woken: boolean; early: boolean }[],
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const db = () => env.t.ctx.database.db;
const now = () => new Date().toISOString();

const call = (method: 'POST' | 'GET' | 'DELETE', url: string, payload?: object) =>
  env.t.app.inject({ method, url: `/api/v0${url}`, headers: bearer(user.token), payload });

/** A 2xx answer's data (the body in the failure message otherwise). */
async function created(res: Promise<{ statusCode: number; body: string; json(): any }>) {
  const r = await res;
  expect(r.statusCode, r.body).toBeLessThan(300);
  return r.json().data;
}

/** What `p` answers within ANSWER_MS, else `otherwise`. */
const answered = <T, U>(p: Promise<T>, otherwise: U): Promise<T | U> =>
  Promise.race([p, sleep(ANSWER_MS).then(() => otherwise)]);

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 60_000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

/** The messages our deliveries put in Slack (the emulator's ground truth). */
const ours = () =>
  ([...env.emu.truth(teamId).messages()] as any[]).filter(
    (m) => m.metadata?.event_type === DELIVERY_EVENT_TYPE,
  );

/** How many of our messages containing `text` are in `member`'s DM with the bot. */
function dmsWith(member: string, text: string): number {
  const ims = new Set(
    (env.emu.truth(teamId).channels() as any[])
      .filter((c) => c.is_im && c.members?.includes(member))
      .map((c) => c.id as string),
  );
  return ours().filter((m) => ims.has(m.channel) && String(m.text).includes(text)).length;
}

/** The message_changed events Slack sent for a message: one per chat.update that reached it. */
const editsOf = (ts: string) =>
  env.emu
    .deliveries()
    .filter((d) => {
      const e = (d.envelope as any).event;
      return d.teamId === teamId && e?.subtype === 'message_changed' && e.message?.ts === ts;
    })
    .map((d) => String((d.envelope as any).event.message.text));

/** Asks the API, over HTTP, for its health and for a workspace's schedules (signed in) until stopped. */
function probeTheApi() {
  let running = true;
  const ask = async (what: string, url: string, headers: Record<string, string>) => {
    try {
      const res = await fetch(`${env.url}${url}`, { headers, signal: AbortSignal.timeout(ANSWER_MS) });
      await res.text();
      if (res.status !== 200) unanswered.push(`${what}: ${res.status}`);
    } catch (err) {
      unanswered.push(`${what}: no answer within ${ANSWER_MS / 1000} s (${(err as Error).name})`);
    }
  };
  const loop = (async () => {
    while (running) {
      await Promise.all([
        ask('GET /api/health', '/api/health', {}),
        ask('GET /api/v0/actions/getscheduled', `/api/v0/actions/getscheduled/${teamId}`, bearer(user.token)),
      ]);
      probes++;
      await sleep(500);
    }
  })();
  return async () => {
    running = false;
    await loop;
  };
}

/**
 * A workflow's delays end at their time, not at the next minute tick: Trigger -> Delay -> Message -> Delay ->
 * Message, with the minute tick (workflows.tick) unscheduled, so only the senders queued for each step's due time
 * can send them. A delay is at least a minute through the API; to keep the suite short the test shortens both to a
 * few seconds with one UPDATE (what the wake-ups then do is the product's own, on the real clock).
 */
async function delayedStepsWithoutTheTick() {
  const boss = env.t.ctx.queue.boss;
  await boss.unschedule('workflows.tick');
  await db().execute(
    sql`delete from pgboss.job where name = 'workflows.tick' and state in ('created', 'retry')`,
  );
  await until('no workflows.tick to be running', async () => {
    const row = await firstRow<{ n: number }>(
      db(),
      sql`select count(*)::int as n from pgboss.job where name = 'workflows.tick' and state = 'active'`,
    );
    return row!.n === 0;
  });
  const from = (await firstRow<{ t: string }>(db(), sql`select now()::text as t`))!.t;
  const minute = { delay_unit: 'minutes', delay_in_secs: 60 };
  const message = (title: string, text: string) => ({
    type: 'message',
    msgTitle: title,
    text,
    delay: minute,
    sendToSelectedUsers: true,
  });
  const texts = ['Tick: wake after the trigger', 'Tick: wake between steps'];
  const wf = await created(
    call('POST', '/workflows/createworkflow', {
      team_id: teamId,
      workflow_name: 'Tick wake-ups',
      sender: 'b',
      trigger_type: 'workspace_join',
      tasks: [message('Wake 1', texts[0]!), message('Wake 2', texts[1]!)],
    }),
  );
  // 5 s after the join (well after the join's event is applied), then 3 s after the first step.
  await db().execute(sql`update workflow_tasks set delay_secs = case when position = 0 then 5 else 3 end
    where workflow_id = ${wf.workflow_id}`);
  const member = (
    (await (
      await fetch(`${env.emu.url}/_admin/teams/${teamId}/members`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ realName: 'Tick Waker' }),
      })
    ).json()) as { id: string }
  ).id;
  try {
    await until(
      'both delayed steps to reach Slack',
      () => texts.every((t) => dmsWith(member, t) > 0),
      60_000,
    );
    // Settled: nothing is left to send (a second send of a step would have come from its own sender by now).
    await until('no step of it to be due or held', async () => {
      const row = await firstRow<{ n: number }>(
        db(),
        sql`select count(*)::int as n from workflow_steps where workflow_id = ${wf.workflow_id} and status = 'due'`,
      );
      return row!.n === 0;
    });
  } catch (err) {
    // Said by the test below; the minute ticks' part of the file goes on.
    woken.error = (err as Error).message;
  } finally {
    woken.arrived = texts.map((t) => dmsWith(member, t));
    woken.ticks = (await firstRow<{ n: number }>(
      db(),
      sql`select count(*)::int as n from pgboss.job where name = 'workflows.tick'
        and (created_on >= ${from}::timestamptz or started_on >= ${from}::timestamptz)`,
    ))!.n;
    // A sender queued for the step's due time (to its whole second, see the service's wake) that ran.
    woken.steps = await typedRows<{ position: number; status: string; woken: boolean; early: boolean }>(
      db(),
      sql`select s.position, s.status, exists (select 1 from pgboss.job j where j.name = 'workflows.send'
            and j.state = 'completed'
            and (j.data->>'at')::float8 >= floor(extract(epoch from s.due_at) * 1000)
            and (j.data->>'at')::float8 < extract(epoch from s.due_at) * 1000 + 1000
            and j.start_after > j.created_on) as woken,
          s.sent_at < s.due_at as early
        from workflow_steps s where s.workflow_id = ${wf.workflow_id} order by s.position`,
    );
    // Gone, so that the later newcomer's join does not fire it.
    expect((await call('DELETE', `/workflows/${teamId}/${wf.workflow_id}`)).statusCode).toBe(200);
    await boss.schedule('workflows.tick', '* * * * *', {});
  }
}

beforeAll(
  async () => {
    env = await slackTestEnv(
      { workspaces: [{ seed: 47, members: 16, channels: 3, days: 2 }] },
      { DELIVERY_RETRY_BASE_MS: '20' },
      { logStream },
    );
    teamId = env.emu.teamIds[0]!;
    user = await signedInUser(env.t);
    expect((await installThroughOAuth(env, user, { teamId })).statusCode).toBe(200);
    await waitForBackfill(env, user.token, teamId);
    await delayedStepsWithoutTheTick();
    const tz = await env.t.ctx.services.workspaces.timezone(teamId);
    /** DD/MM/YYYY and HH:MM in the workspace's timezone (what the forms take). */
    const local = (ms: number) => {
      const p = Object.fromEntries(
        new Intl.DateTimeFormat('en-GB', {
          timeZone: tz,
          hourCycle: 'h23',
          year: 'numeric',
          month: '2-digit',
          day: '2-digit',
          hour: '2-digit',
          minute: '2-digit',
        })
          .formatToParts(new Date(ms))
          .map((x) => [x.type, x.value]),
      );
      return { date: `${p.day}/${p.month}/${p.year}`, time: `${p.hour}:${p.minute}` };
    };
    const ahead = Date.now() + 20 * 60_000;

    const people = ([...env.emu.truth(teamId).members()] as any[])
      .filter((m) => !m.is_bot && !m.deleted && m.id !== 'USLACKBOT' && !m.is_primary_owner)
      .map((m) => m.id as string);
    expect(people.length).toBeGreaterThanOrEqual(9);
    const [dailyTo, weeklyTo, onceTo, formTo, formOnceTo, crew, comesBack, goesQuiet, weeklyFormTo] =
      people as [string, string, string, string, string, string, string, string, string];
    const bot = env.emu.truth(teamId).install()!.botUserId;
    const channels = (env.emu.truth(teamId).channels() as any[]).filter(
      (c) => !c.is_im && !c.is_private && !c.is_archived && c.members.includes(bot),
    );
    expect(channels.length).toBeGreaterThanOrEqual(1);
    const pollChannel = channels[0].id as string;
    // A channel the bot is in, and a member who is not (yet).
    const joinable = channels.find((c) => people.some((p) => !c.members.includes(p)));
    expect(joinable).toBeTruthy();
    const watched = joinable.id as string;
    const joiner = people.find((p) => !joinable.members.includes(p))!;

    // Actions: schedules every day, weekly and once.
    const schedule = (name: string, to: string, over: object) =>
      created(
        call('POST', '/actions/createscheduled', {
          team_id: teamId,
          trigger_name: name,
          message_sender: 'b',
          message: `Tick: ${name}`,
          dms: { members: [to] },
          ...over,
        }),
      );
    const daily = await schedule('the daily schedule', dailyTo, { frequency: 'Everyday', time: '09:00' });
    const weekly = await schedule('the weekly schedule', weeklyTo, {
      frequency: 'Weekly',
      days: ['mon', 'thurs'],
      time: '09:00',
    });
    const once = await schedule('the one-time schedule', onceTo, {
      frequency: 'onetime',
      post_at: local(ahead),
    });
    // A Member Join automation (sent at the join, not by a tick: the join's events transaction runs it).
    await created(
      call('POST', '/actions/createautomation', {
        team_id: teamId,
        trigger_name: 'Tick welcome',
        message_sender: 'b',
        message: 'Tick: the join automation',
        send_dm: true,
      }),
    );

    // Forms: one every day, one scheduled once.
    const form = (title: string, to: string, over: object) =>
      created(
        call('POST', '/actions/createform', {
          team_id: teamId,
          form_title: title,
          form_description: 'Tell us how it goes',
          sender: 'b',
          dms: { members: [to] },
          questions: [{ question: 'How is it going?', type: 'descriptive' }],
          ...over,
        }),
      );
    const dailyForm = await form('Tick daily form', formTo, {
      recurring: true,
      frequency: 'Everyday',
      time: '09:00',
    });
    const weeklyForm = await form('Tick weekly form', weeklyFormTo, {
      recurring: true,
      frequency: 'Weekly',
      days: ['tue', 'sat'],
      time: '09:00',
    });
    const onceForm = await form('Tick one-time form', formOnceTo, { instant: false, post_at: local(ahead) });

    // Polls: one scheduled, one posted now that ends.
    const poll = (question: string, over: object) =>
      created(
        call('POST', '/poll/createpoll', {
          team_id: teamId,
          channel_ids: [pollChannel],
          poll_question: question,
          options: [
            { emoji: '👍', emoji_code: 'thumbsup', value: 'Yes' },
            { emoji: '🎉', emoji_code: 'tada', value: 'Very much' },
          ],
          sender: 'b',
          images: [],
          ...over,
        }),
      );
    const scheduledPoll = await poll('Tick: the scheduled poll?', {
      type: 'scheduled',
      post_at: new Date(ahead).toISOString(),
    });
    const recurringPoll = await created(
      call('POST', '/poll/createrecurringpoll', {
        team_id: teamId,
        channel_ids: [pollChannel],
        poll_question: 'Tick: the recurring poll?',
        options: [{ emoji: '👍', emoji_code: 'thumbsup', value: 'Yes' }],
        sender: 'b',
        images: [],
        frequency: 'Everyday',
        time: '03:00',
      }),
    );
    const endingPoll = await poll('Tick: the poll that ends?', { type: 'instant' });
    const endingTs = (
      await until('the poll that ends to be posted', () =>
        ours().find((m) => String(m.text).includes('Tick: the poll that ends?')),
      )
    ).ts as string;

    // Workflows: every trigger.
    const message = (title: string, text: string, delay: object | null = null, over: object = {}) => ({
      type: 'message',
      msgTitle: title,
      text,
      delay,
      sendToSelectedUsers: true,
      ...over,
    });
    const workflow = (name: string, over: object) =>
      created(
        call('POST', '/workflows/createworkflow', {
          team_id: teamId,
          workflow_name: name,
          sender: 'b',
          ...over,
        }),
      );
    const tag = await created(call('POST', '/tags/createtag', { team_id: teamId, name: 'Tick crew' }));
    expect(
      (
        await call('POST', '/tags/addtagtousers', {
          team_id: teamId,
          tags: [{ id: tag.id, name: 'Tick crew' }],
          users: [{ id: crew }],
        })
      ).statusCode,
    ).toBe(200);
    const at = local(ahead);
    const timed = await workflow('Tick launch', {
      trigger_type: 'time',
      trigger_at: { date: at.date.replace(/\//g, '-'), time: at.time },
      tags: [tag.id],
      tasks: [
        message('Launch', 'Tick: the time trigger', null, {
          sendToSelectedUsers: false,
          triggerTags: [tag.id],
        }),
      ],
    });
    const activity = await workflow('Tick active', {
      trigger_type: 'activity',
      days: 0,
      tasks: [message('Hello again', 'Tick: the activity trigger')],
    });
    await workflow('Tick quiet', {
      trigger_type: 'inactivity',
      days: 30,
      tasks: [message('Miss you', 'Tick: the inactivity trigger')],
    });
    const joined = await workflow('Tick onboarding', {
      trigger_type: 'workspace_join',
      tasks: [
        message('Welcome', 'Tick: the welcome'),
        message('Follow-up', 'Tick: the delayed step', { delay_unit: 'days', delay_in_secs: 86_400 }),
      ],
    });
    const formTask = (title: string, delay: object | null = null) => ({
      type: 'form',
      formTitle: title,
      formDescription: 'Tell us how your first days went',
      questions: [{ question: 'How is it going?', type: 'descriptive' }],
      delay,
      sendToSelectedUsers: true,
    });
    const joinedForms = await workflow('Tick onboarding forms', {
      trigger_type: 'workspace_join',
      tasks: [
        formTask('Tick join form'),
        formTask('Tick delayed form', { delay_unit: 'hours', delay_in_secs: 7200 }),
      ],
    });
    const channelJoined = await workflow('Tick channel', {
      trigger_type: 'channel_join',
      channel: watched,
      tasks: [
        message('Channel hello', 'Tick: the channel join', { delay_unit: 'hours', delay_in_secs: 3600 }),
      ],
    });

    // What members do in Slack: a newcomer joins, a member joins the watched channel, another speaks up.
    const newcomer = (
      (await (
        await fetch(`${env.emu.url}/_admin/teams/${teamId}/members`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ realName: 'Tick Newcomer' }),
        })
      ).json()) as { id: string }
    ).id;
    await fetch(`${env.emu.url}/_admin/teams/${teamId}/channels/${watched}/join`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user: joiner }),
    });
    const spokeIn = channels.find((c) => c.members.includes(comesBack))?.id ?? pollChannel;
    // A member's last activity is kept to the second: the message must come in a later second than the activity
    // workflow started watching, or it is not a crossing after its start.
    await new Promise((r) => setTimeout(r, 1_100));
    await fetch(`${env.emu.url}/_admin/teams/${teamId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ channel: spokeIn, user: comesBack, text: 'Hello everyone, I am back' }),
    });
    await settleEvents(env);
    await until('the returning member to be active in workspace data', async () => {
      const row = await firstRow<{ ok: boolean }>(
        db(),
        sql`select m.last_active_at > w.since as ok from slack_members m, workflows w
        where m.team_id = ${teamId} and m.member_id = ${comesBack} and w.id = ${activity.workflow_id}`,
      );
      return row?.ok;
    });
    // The join's first step goes at once (the listener wakes a sender); its second waits a day.
    const followUp = await until('the join workflow to wait with its second step', () =>
      firstRow<{ id: number }>(
        db(),
        sql`select id::int as id from workflow_steps
        where workflow_id = ${joined.workflow_id} and position = 1 and status = 'due'`,
      ),
    );
    const formStep = await until('the join form workflow to wait with its second step', () =>
      firstRow<{ id: number }>(
        db(),
        sql`select id::int as id from workflow_steps
        where workflow_id = ${joinedForms.workflow_id} and position = 1 and status = 'due'`,
      ),
    );
    const channelStep = await until('the channel join to wait with its step', () =>
      firstRow<{ id: number }>(
        db(),
        sql`select id::int as id from workflow_steps
        where workflow_id = ${channelJoined.workflow_id} and position = 0 and status = 'due'`,
      ),
    );

    // Now their time comes (see the file's comment: the one thing the test does that a user would not).
    await db().execute(sql`update actions set next_run_at = ${now()}::timestamptz,
      run_at = case when frequency = 'onetime' then ${now()}::timestamptz else run_at end
    where id in (${daily.id}, ${weekly.id}, ${once.id})`);
    await db().execute(sql`update forms set next_run_at = ${now()}::timestamptz,
      run_at = case when frequency = 'onetime' then ${now()}::timestamptz else run_at end
    where id in (${dailyForm.master_form_id}, ${weeklyForm.master_form_id}, ${onceForm.master_form_id})`);
    await db().execute(sql`update polls set post_at = ${now()}::timestamptz where id = ${scheduledPoll.id}`);
    await db().execute(
      sql`update poll_recurrences set next_run_at = ${now()}::timestamptz where id = ${recurringPoll.id}`,
    );
    await db().execute(sql`update polls set expires_at = ${now()}::timestamptz where id = ${endingPoll.id}`);
    await db().execute(
      sql`update workflows set trigger_at = ${now()}::timestamptz where id = ${timed.workflow_id}`,
    );
    await db().execute(
      sql`update workflow_steps set due_at = ${now()}::timestamptz where id in (${followUp.id}, ${formStep.id}, ${channelStep.id})`,
    );
    // Last active 30 days ago as of now: crosses the inactivity threshold after the workflow began watching.
    await db().execute(sql`update slack_members
    set last_active_at = ${new Date(Date.now() - 30 * 86_400_000).toISOString()}::timestamptz
    where team_id = ${teamId} and member_id = ${goesQuiet}`);

    // The weekly digest, by e-mail and Slack DM, chosen for today at this hour (local): the last whole week's is
    // then due. Turned on through the API, then dated a day back (as if turned on before its time came).
    const wall = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', { timeZone: tz, weekday: 'short', hour: '2-digit', hourCycle: 'h23' })
        .formatToParts(new Date())
        .map((x) => [x.type, x.value]),
    );
    const day = { Mon: 'mon', Tue: 'tue', Wed: 'wed', Thu: 'thurs', Fri: 'fri', Sat: 'sat', Sun: 'sun' }[
      wall.weekday as string
    ];
    await created(
      call('POST', '/digest/settings', {
        team_id: teamId,
        email: true,
        slack_dm: true,
        day,
        hour: Number(wall.hour),
      }),
    );
    await db().execute(sql`update digest_subscriptions set enabled_at = now() - interval '1 day'
      where team_id = ${teamId} and user_id = ${user.userid}`);
    const admin = ownerOf(env, teamId);
    const me = await firstRow<{ email: string }>(
      db(),
      sql`select email from users where id = ${user.userid}`,
    );
    let digestMails = 0;
    const countDigestMails = async () => {
      const r = await firstRow<{ n: number }>(
        db(),
        sql`select count(*)::int as n from mail_outbox where "to" = ${me!.email} and subject like 'Weekly digest:%'`,
      );
      digestMails = r?.n ?? 0;
    };

    const counts: Record<Kind, () => number> = {
      'a daily schedule': () => dmsWith(dailyTo, 'Tick: the daily schedule'),
      'a weekly schedule': () => dmsWith(weeklyTo, 'Tick: the weekly schedule'),
      'a one-time schedule': () => dmsWith(onceTo, 'Tick: the one-time schedule'),
      'a recurring form': () => dmsWith(formTo, '*Tick daily form*'),
      'a weekly recurring form': () => dmsWith(weeklyFormTo, '*Tick weekly form*'),
      'a scheduled form': () => dmsWith(formOnceTo, '*Tick one-time form*'),
      'a scheduled poll': () =>
        ours().filter(
          (m) => m.channel === pollChannel && String(m.text).includes('Tick: the scheduled poll?'),
        ).length,
      'a recurring poll': () =>
        ours().filter(
          (m) => m.channel === pollChannel && String(m.text).includes('Tick: the recurring poll?'),
        ).length,
      'the end of a poll (its final results, through chat.update)': () =>
        editsOf(endingTs).filter((t) => t.includes('This poll is closed')).length,
      'a time trigger for a tag': () => dmsWith(crew, 'Tick: the time trigger'),
      'an activity trigger (a member active again)': () => dmsWith(comesBack, 'Tick: the activity trigger'),
      'an inactivity trigger': () => dmsWith(goesQuiet, 'Tick: the inactivity trigger'),
      'a workspace join (its first step, at the join)': () => dmsWith(newcomer, 'Tick: the welcome'),
      'a workspace join (its delayed second step)': () => dmsWith(newcomer, 'Tick: the delayed step'),
      'a channel join (its delayed step)': () => dmsWith(joiner, 'Tick: the channel join'),
      'a workflow form step (at the join)': () => dmsWith(newcomer, '*Tick join form*'),
      'a workflow form step (delayed)': () => dmsWith(newcomer, '*Tick delayed form*'),
      'a Member Join automation': () => dmsWith(newcomer, 'Tick: the join automation'),
      'the weekly digest (its e-mail)': () => digestMails,
      'the weekly digest (its Slack DM)': () => dmsWith(admin, '*Weekly digest:'),
    };

    // Wait once for all of it, asking the API all along.
    const stopProbing = probeTheApi();
    try {
      const deadline = Date.now() + ARRIVAL_MS;
      // A call left unanswered means the process is stuck (a tick waiting for itself on PGlite): no use waiting on.
      while (KINDS.some((k) => counts[k]() === 0) && Date.now() < deadline && unanswered.length === 0) {
        await sleep(1000);
        await countDigestMails();
      }
      if (KINDS.every((k) => counts[k]() > 0)) {
        // Each tick runs once more, and nothing is left to deliver: a second send would have arrived by then.
        const since = now();
        const settled = Date.now() + SETTLE_MS;
        while (Date.now() < settled) {
          const ran = await typedRows<{ name: string }>(
            db(),
            sql`select distinct name from pgboss.job where name = any(${textArray(TICKS)}::text[])
            and state = 'completed' and started_on > ${since}::timestamptz`,
          );
          const open = await firstRow<{ n: number }>(
            db(),
            sql`select count(*)::int as n from delivery_recipients
            where team_id = ${teamId} and state in ('pending', 'sending')`,
          );
          if (ran.length === TICKS.length && open!.n === 0) break;
          await sleep(1000);
          await countDigestMails();
        }
      }
    } finally {
      await stopProbing();
    }
    await countDigestMails();
    for (const k of KINDS) arrived.set(k, counts[k]());
    // Bounded: on a stuck database these would wait for good, and the tests would say nothing of why.
    failedTicks = await answered(
      typedRows<{ name: string; state: string; output: unknown }>(
        db(),
        sql`select name, state::text as state, output from pgboss.job
        where name = any(${textArray(TICKS)}::text[]) and state in ('failed', 'retry')`,
      ),
      [{ name: 'the database', state: 'stuck', output: { message: 'no answer within 15 s' } }],
    );
    endedPoll = await answered(
      firstRow<{ closed: boolean; final: boolean }>(
        db(),
        sql`select closed_at is not null as closed, final_at is not null as final from polls where id = ${endingPoll.id}`,
      ),
      undefined,
    );
  },
  ARRIVAL_MS + SETTLE_MS + 180_000,
);
afterAll(() => env?.close());

describe('a delayed workflow step is sent by the sender queued for its time, with no minute tick', () => {
  it('Trigger -> Delay -> Message -> Delay -> Message: both sent once, each by its wake-up, none early', () => {
    expect(woken.error).toBeUndefined();
    expect(woken.ticks).toBe(0);
    expect(woken.arrived).toEqual([1, 1]);
    expect(woken.steps).toEqual([
      { position: 0, status: 'sent', woken: true, early: false },
      { position: 1, status: 'sent', woken: true, early: false },
    ]);
  });
});

describe('the real minute ticks (pg-boss cron, real clock) find due work of every kind', () => {
  it.each(KINDS)('%s: its message reached Slack exactly once', (kind) => {
    expect(arrived.get(kind)).toBe(1);
  });

  it('the poll that ended is closed, its final results recorded as shown', () => {
    expect(endedPoll).toEqual({ closed: true, final: true });
  });

  it('the API kept answering while the ticks ran: /api/health and a workspace call, each within 15 s', () => {
    expect(unanswered).toEqual([]);
    expect(probes).toBeGreaterThan(10);
  });

  it('no statement went through the database inside one of its transactions, and no tick failed', () => {
    const offending = logLines
      .filter((l) => l.includes('OpenTransactionError'))
      .map((l) => JSON.parse(l) as { job?: string; module?: string; msg: string; err?: { message?: string } })
      .map((l) => `${l.job ?? l.module ?? '?'}: ${l.msg}: ${String(l.err?.message).slice(0, 300)}`);
    expect(offending).toEqual([]);
    expect(
      failedTicks.map((j) => `${j.name} (${j.state}): ${String((j.output as any)?.message).slice(0, 300)}`),
    ).toEqual([]);
  });
});
