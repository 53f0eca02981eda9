import { createAutomationBody, createScheduledBody } from '@flywheel/shared/actions';
import { createFormBody, executeFormBody, FORM_OPEN_ACTION } from '@flywheel/shared/forms';
import { createPollBody } from '@flywheel/shared/polls';
import { createWorkflowBody } from '@flywheel/shared/workflows';
import type { AppContext } from '../context.ts';
import { DELIVERY_EVENT_TYPE } from '../modules/delivery/engine.ts';

/*
 * The demo's acting half: a newcomer's first look at Polls, Forms, Automate, Schedule, Workflows and Receipts
 * finds a few of each, made once per database by the product's own services and sent for real to the demo's
 * emulator. The members' part comes the way Slack sends it: the emulator's member API (the one behind its
 * member page) makes them react to the poll, press the form's button and submit its modal, and join a channel,
 * so the product hears signed events and interactivity as it would from Slack.
 */

/** The marker (in the database, with the data it describes): present once the seed has begun. */
export const DEMO_SEED_MARKER = 'demo_seed';

export type DemoSeedTarget = {
  teamId: string;
  /** The demo administrator's Flywheel account: the seeded things are theirs. */
  userId: string;
  /** The demo's Slack emulator (its admin and member APIs). */
  emulatorUrl: string;
};

export type DemoSeedResult = {
  receiptId: number;
  pollId: number;
  votes: number;
  formId: number;
  formInstanceId: number;
  responses: number;
  automationId: number;
  scheduleId: number;
  workflowId: number;
  triggered: number;
};

type EmuMember = {
  id: string;
  real_name?: string;
  is_bot?: boolean;
  deleted?: boolean;
  is_primary_owner?: boolean;
};
type EmuChannel = {
  id: string;
  name: string;
  is_im?: boolean;
  is_private?: boolean;
  is_archived?: boolean;
  is_general?: boolean;
  members?: string[];
};
type EmuMessage = {
  ts: string;
  text: string;
  blocks?: { elements?: { action_id?: string; value?: string }[] }[];
  metadata?: { event_type?: string; event_payload?: { receipt?: number } };
};
type Interaction = { status: number; error?: string; local?: boolean; body?: { response_action?: string } };

class Stopped extends Error {}

/** The demo emulator as a member and its administrator use it (HTTP: it is its own process). */
function emulatorOf(url: string, teamId: string, signal: AbortSignal | undefined) {
  const call = async <T>(method: 'GET' | 'POST', path: string, body?: object): Promise<T> => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body ? { 'content-type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      signal,
    });
    if (!res.ok) throw new Error(`The demo emulator answered ${res.status} to ${method} ${path}`);
    return (await res.json()) as T;
  };
  const team = `/_admin/teams/${teamId}`;
  /** A member acting in Slack (the member page's API). */
  const as = <T>(route: string, user: string, body: object = {}) =>
    call<T>('POST', `/_ui/api/${route}`, { team: teamId, user, ...body });
  return {
    members: () => call<EmuMember[]>('GET', `${team}/members?format=json`),
    channels: () => call<EmuChannel[]>('GET', `${team}/channels`),
    botUserId: async () => (await call<{ botUserId: string } | null>('GET', `${team}/install`))?.botUserId,
    messages: (channel: string) =>
      call<EmuMessage[]>('GET', `${team}/messages?format=json&channel=${encodeURIComponent(channel)}`),
    deactivate: (user: string) => call<unknown>('POST', `${team}/members/${user}`, { deleted: true }),
    join: (channel: string, user: string) =>
      call<unknown>('POST', `${team}/channels/${channel}/join`, { user }),
    react: (user: string, channel: string, ts: string, name: string) =>
      as<{ added: boolean }>('react', user, { channel, ts, name }),
    /** The member's DM with `other` (opened if need be). */
    dm: async (user: string, other: string) => (await as<{ channel: string }>('dm', user, { other })).channel,
    press: (user: string, channel: string, ts: string, actionId: string) =>
      as<Interaction>('action', user, { channel, ts, action_id: actionId }),
    topView: async (user: string) =>
      (await as<{ view: { id: string; callback_id?: string } | null }>('surfaces', user)).view,
    submit: (user: string, viewId: string, values: object) =>
      as<Interaction>('view-submit', user, { view_id: viewId, values }),
  };
}
type Emulator = ReturnType<typeof emulatorOf>;

/** Polls `probe` until it answers something truthy. */
async function until<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  opts: { timeoutMs: number; everyMs?: number; signal?: AbortSignal },
): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    if (opts.signal?.aborted) throw new Stopped('stopped');
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`The demo seed timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, opts.everyMs ?? 250));
  }
}

const short = { timeoutMs: 120_000 };

/**
 * Seeds the demo workspace once per database: waits for the history import (the product must know the members
 * and channels it sends to) and for the bot in the public channels (Slack sends a channel's events only to a bot
 * in it), then claims the marker and makes, in order: a DM to four members one of whom has left (a receipt with
 * one failure), an active poll with votes, a weekly form with responses, the welcome automation, a weekly
 * schedule, and a Channel Join workflow fired for three members. Answers what it made, or null when it did
 * nothing (not the demo, or seeded before).
 */
export async function seedDemo(
  ctx: AppContext,
  target: DemoSeedTarget,
  opts: { signal?: AbortSignal; importTimeoutMs?: number } = {},
): Promise<DemoSeedResult | null> {
  const log = ctx.logger.child({ module: 'demo-seed' });
  if (!ctx.publicConfig().demoMode) return null;
  const { teamId, userId } = target;
  const { signal } = opts;
  const s = ctx.services;
  const emu = emulatorOf(target.emulatorUrl, teamId, signal);
  const wait = { ...short, signal };

  if (await s.auth.marker(DEMO_SEED_MARKER)) return null;
  await until(
    'the history import',
    async () => {
      const p = await s.historyImport.progress(teamId);
      if (p?.status === 'failed') throw new Error(`the history import failed: ${p.error}`);
      return p?.status === 'done';
    },
    { timeoutMs: opts.importTimeoutMs ?? 3 * 3_600_000, everyMs: 1000, signal },
  );

  const bot = await until('the bot', () => emu.botUserId(), wait);
  const everyone = await emu.members();
  const isPerson = (m: EmuMember) => !m.is_bot && m.id !== 'USLACKBOT';
  const people = everyone.filter((m) => isPerson(m) && !m.deleted && !m.is_primary_owner).map((m) => m.id);
  if (people.length < 8) throw new Error(`The demo workspace has too few members to seed (${people.length})`);
  // A member who has left Slack (one leaves below when no one has yet): the reminder's failed recipient.
  const left = everyone.find((m) => isPerson(m) && m.deleted)?.id;
  const gone = left ?? people.pop()!;
  const active = new Set(people);
  // Public channels the bot is in, with the people in each.
  const channels = await until(
    'the bot in a public channel with people',
    async () => {
      const open = (await emu.channels()).filter(
        (c) => !c.is_im && !c.is_private && !c.is_archived && c.members?.includes(bot),
      );
      return open.some((c) => (c.members ?? []).some((m) => active.has(m))) && open;
    },
    wait,
  );
  const inChannel = (c: EmuChannel) => (c.members ?? []).filter((m) => active.has(m));
  const main =
    channels.find((c) => c.is_general) ??
    [...channels].sort((a, b) => inChannel(b).length - inChannel(a).length)[0]!;
  // The workflow watches another channel, one with people still outside it (they join it below).
  const watched =
    [...channels]
      .filter((c) => c.id !== main.id)
      .sort((a, b) => inChannel(a).length - inChannel(b).length)
      .find((c) => people.some((p) => !c.members?.includes(p))) ?? null;

  if (!(await s.auth.claimMarker(DEMO_SEED_MARKER, `started ${new Date().toISOString()}`))) return null;
  log.info({ teamId }, 'seeding the demo: a receipt, a poll, a form, an automation, a schedule, a workflow');

  // 1. A DM to four members, one of whom has left Slack: the receipt shows three sent and one failure.
  const receiptId = await seedReceipt(ctx, target, emu, people.slice(-3), gone, !left, signal);
  // 2. An active poll in the main channel, voted on with reactions.
  const poll = await seedPoll(ctx, target, emu, main, inChannel(main), signal);
  // 3. A weekly form, sent now to five members; three fill it out in Slack's modal.
  const form = await seedForm(ctx, target, emu, bot, people, signal);
  // 4. The welcome automation and 5. a weekly schedule.
  const automation = await s.actions.createAutomation(
    userId,
    createAutomationBody.parse({
      team_id: teamId,
      trigger_name: 'Member Join',
      message_sender: 'bot',
      message: 'Welcome aboard! :wave: Introduce yourself in a thread and tell us what brought you here.',
      htmlmessage:
        '<p>Welcome aboard! 👋 Introduce yourself in a thread and tell us what brought you here.</p>',
      send_dm: true,
    }),
  );
  const schedule = await s.actions.createScheduled(
    userId,
    createScheduledBody.parse({
      team_id: teamId,
      trigger_name: 'Weekly kickoff',
      message_sender: 'bot',
      message: 'Happy Monday! :sunny: What are you working on this week? Share it in a thread.',
      htmlmessage: '<p>Happy Monday! ☀️ What are you working on this week? Share it in a thread.</p>',
      channel_ids: [main.id],
      frequency: 'Weekly',
      days: ['mon'],
      time: '09:00',
    }),
  );
  // 6. A Channel Join workflow, and three members joining its channel.
  const workflow = await seedWorkflow(ctx, target, emu, watched ?? main, people, signal);

  // What the seed sent is delivered before it is done (the workflow's first steps, the acknowledgements).
  await until(
    'the seed’s receipts',
    async () =>
      (await s.delivery.receipts(teamId)).every(
        (r) =>
          r.id < receiptId ||
          r.successful_recipient_count + r.failed_recipient_count >= r.total_recipient_count,
      ),
    wait,
  );

  const result: DemoSeedResult = {
    receiptId,
    ...poll,
    ...form,
    automationId: automation.id,
    scheduleId: schedule.id,
    ...workflow,
  };
  await s.auth.setMarker(DEMO_SEED_MARKER, JSON.stringify({ done: new Date().toISOString(), ...result }));
  log.info(result, 'demo seeded');
  return result;
}

/** Waits until every recipient of the receipt has an outcome. */
async function finished(ctx: AppContext, teamId: string, receiptId: number, signal?: AbortSignal) {
  return until(
    `receipt ${receiptId}`,
    async () => {
      const r = (await ctx.services.delivery.receipts(teamId)).find((x) => x.id === receiptId);
      return r && r.successful_recipient_count + r.failed_recipient_count >= r.total_recipient_count && r;
    },
    { ...short, signal },
  );
}

/**
 * A reminder DM'd to three members and one who has left Slack. The send names its recipients (the audience
 * would leave a deactivated member out): the state a send reaches when the member leaves after it was queued,
 * and the delivery engine then records that recipient as failed (user_deactivated), as it does for real.
 */
async function seedReceipt(
  ctx: AppContext,
  { teamId, userId }: DemoSeedTarget,
  emu: Emulator,
  to: string[],
  gone: string,
  leavesNow: boolean,
  signal?: AbortSignal,
): Promise<number> {
  // No one had left this workspace: this member leaves now (Slack tells the product with user_change).
  if (leavesNow) await emu.deactivate(gone);
  // The product has heard of it: its audience leaves the member out.
  await until(
    'the product to see the member who left',
    async () =>
      (
        await ctx.services.audience.resolve(teamId, {
          channel_ids: [],
          dms: { members: [gone], tags: [], channels: [] },
          sendtoworkspace: false,
        })
      ).members.length === 0,
    { ...short, signal },
  );
  const text =
    'Reminder: our community call is this Thursday at 17:00 UTC. Bring your questions, we will keep the last ten minutes for them.';
  const { receipt_id } = await ctx.services.delivery.send({
    teamId,
    userId,
    actionType: 'Bulk DM',
    sender: 'bot',
    adminUser: null,
    text,
    images: [],
    audience: {
      channel_ids: [],
      dms: { members: [...to, gone], tags: [], channels: [] },
      sendtoworkspace: false,
    },
    recipients: { members: [...to, gone], channels: [] },
    idempotencyKey: 'demo-seed:reminder',
  });
  await finished(ctx, teamId, receipt_id, signal);
  return receipt_id;
}

const POLL_OPTIONS = [
  { emoji: '🚀', emoji_code: 'rocket', value: 'Shipping faster' },
  { emoji: '📊', emoji_code: 'bar_chart', value: 'Community analytics' },
  { emoji: '🎨', emoji_code: 'art', value: 'Design systems' },
];
/** The voters' picks, in turn (option indexes). */
const VOTES = [0, 1, 0, 2, 0, 1, 0];

async function seedPoll(
  ctx: AppContext,
  { teamId, userId }: DemoSeedTarget,
  emu: Emulator,
  channel: EmuChannel,
  members: string[],
  signal?: AbortSignal,
): Promise<{ pollId: number; votes: number }> {
  const question = 'What should our next community meetup be about?';
  const { poll } = await ctx.services.polls.create(
    userId,
    createPollBody.parse({
      team_id: teamId,
      channel_ids: [channel.id],
      poll_question: question,
      htmlquestion: `<p>${question}</p>`,
      options: POLL_OPTIONS,
      sender: 'bot',
      type: 'instant',
      // Open for a month: a newcomer finds it active.
      expiry_ts: new Date(Date.now() + 30 * 86_400_000).toISOString(),
    }),
  );
  const message = await until(
    'the poll in Slack',
    async () =>
      (await emu.messages(channel.id)).find(
        (m) =>
          m.metadata?.event_type === DELIVERY_EVENT_TYPE &&
          m.metadata.event_payload?.receipt === poll.receipt_id,
      ),
    { ...short, signal },
  );
  const voters = members.slice(0, VOTES.length);
  for (const [i, member] of voters.entries())
    await emu.react(member, channel.id, message.ts, POLL_OPTIONS[VOTES[i]!]!.emoji_code);
  await until(
    'the votes',
    async () => (await ctx.services.polls.info(teamId, poll.id)).total_votes >= voters.length,
    { ...short, signal },
  );
  return { pollId: poll.id, votes: voters.length };
}

/** Three answers to the weekly check-in: the option picked, the short answer, the optional long one. */
const ANSWERS: [string, string, string | null][] = [
  ['0', 'Migrating our docs site to the new theme', null],
  ['1', 'Planning the spring meetup', 'A template for the meetup announcement would help'],
  ['2', 'Onboarding two new maintainers', null],
];

async function seedForm(
  ctx: AppContext,
  { teamId, userId }: DemoSeedTarget,
  emu: Emulator,
  bot: string,
  people: string[],
  signal?: AbortSignal,
): Promise<{ formId: number; formInstanceId: number; responses: number }> {
  const s = ctx.services;
  const to = people.slice(0, 5);
  const form = await s.forms.create(
    userId,
    createFormBody.parse({
      team_id: teamId,
      form_title: 'Weekly check-in',
      form_description: 'Two minutes to tell us how your week in the community went.',
      sender: 'bot',
      dms: { members: to },
      recurring: true,
      frequency: 'Weekly',
      days: ['fri'],
      time: '16:00',
      questions: [
        { question: 'How was your week?', type: 'mcq', options: ['Great', 'Good', 'Okay', 'Rough'] },
        { question: 'What are you working on?', type: 'shortDesc' },
        { question: 'Anything we can help with?', type: 'descriptive', optional: true },
      ],
      ackMessage: 'Thanks! Your check-in has been recorded.',
    }),
  );
  // This week's check-in goes out now (the Send-form popup), without waiting for Friday.
  const instance = await s.forms.execute(
    executeFormBody.parse({
      team_id: teamId,
      master_form_id: form.master_form_id,
      send_ids: { members: to },
    }),
  );
  await finished(ctx, teamId, instance.receipt_id!, signal);
  const responders = to.slice(0, ANSWERS.length);
  for (const [i, member] of responders.entries()) {
    const channel = await emu.dm(member, bot);
    const button = (m: EmuMessage) =>
      m.blocks?.some((b) =>
        b.elements?.some((e) => e.action_id === FORM_OPEN_ACTION && e.value === String(instance.form_id)),
      );
    const message = await until('the form message', async () => (await emu.messages(channel)).find(button), {
      ...short,
      signal,
    });
    // The member presses 'Fill out the form' (block_actions); the product opens the modal (views.open).
    const pressed = await emu.press(member, channel, message.ts, FORM_OPEN_ACTION);
    if (pressed.status !== 200)
      throw new Error(`The form button was not answered: ${JSON.stringify(pressed)}`);
    const view = await until('the form modal', () => emu.topView(member), { ...short, signal });
    const [pick, short_, long] = ANSWERS[i]!;
    const submitted = await emu.submit(member, view.id, {
      q0: { answer: { selected_option: { value: pick } } },
      q1: { answer: { value: short_ } },
      ...(long ? { q2: { answer: { value: long } } } : {}),
    });
    if (submitted.status !== 200 || submitted.body?.response_action === 'errors')
      throw new Error(`The form was not accepted: ${JSON.stringify(submitted)}`);
  }
  await until(
    'the responses',
    async () =>
      (await s.forms.instances(teamId, form.master_form_id)).find((x) => x.form_id === instance.form_id)!
        .responses >= responders.length,
    { ...short, signal },
  );
  return { formId: form.master_form_id, formInstanceId: instance.form_id, responses: responders.length };
}

async function seedWorkflow(
  ctx: AppContext,
  { teamId, userId }: DemoSeedTarget,
  emu: Emulator,
  channel: EmuChannel,
  people: string[],
  signal?: AbortSignal,
): Promise<{ workflowId: number; triggered: number }> {
  const s = ctx.services;
  const workflow = await s.workflows.create(
    userId,
    createWorkflowBody.parse({
      team_id: teamId,
      workflow_name: `Welcome to #${channel.name}`,
      sender: 'bot',
      trigger_type: 'channel_join',
      channel: channel.id,
      tasks: [
        {
          type: 'message',
          msgTitle: 'Say hello',
          text: `Welcome to #${channel.name}! The pinned messages hold the channel's guidelines; say hello in a thread.`,
          sendToSelectedUsers: true,
        },
        {
          type: 'form',
          formTitle: 'How is it going?',
          formDescription: `A quick question after your first days in #${channel.name}.`,
          questions: [
            {
              question: 'How useful is the channel so far?',
              type: 'mcq',
              options: ['Very', 'Somewhat', 'Not yet'],
            },
          ],
          delay: { delay_unit: 'days', delay_in_secs: 2 * 86_400 },
          sendToSelectedUsers: true,
        },
      ],
    }),
  );
  // Three members join the channel (Slack sends member_joined_channel): the workflow fires for each.
  const joiners = people.filter((p) => !channel.members?.includes(p)).slice(0, 3);
  for (const member of joiners) await emu.join(channel.id, member);
  await until(
    'the workflow’s first step',
    async () => {
      const row = (await s.workflows.list(teamId)).find((w) => w.workflow_id === workflow.workflow_id);
      return row && row.triggered >= joiners.length && row.tasks[0]!.sent >= joiners.length;
    },
    { ...short, signal },
  );
  return { workflowId: workflow.workflow_id, triggered: joiners.length };
}

/**
 * Runs the seed in the background (the demo's start does not wait for it): its errors are logged, never thrown.
 * Answers a function that stops it (the server's shutdown).
 */
export function startDemoSeed(ctx: AppContext, target: DemoSeedTarget): () => void {
  const abort = new AbortController();
  seedDemo(ctx, target, { signal: abort.signal }).catch((err: unknown) => {
    if (abort.signal.aborted || err instanceof Stopped) return;
    ctx.logger.error({ err }, 'The demo seed failed: the demo runs without some of its examples');
  });
  return () => abort.abort();
}
