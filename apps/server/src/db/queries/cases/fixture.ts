import { eq } from 'drizzle-orm';
import { workflowTaskSchema } from '@flywheel/shared/workflows';
import { rebuildStandingWindows } from '../../../modules/activity/standing-windows.ts';
import type { Db } from '../../client.ts';
import * as schema from '../../schema.ts';
import { AT, DAY, LATER, T, TW } from './common.ts';

/*
 * Rows some cases need before they run (their `seed`, not recorded): each method sends every statement it has
 * only when the rows it reads are there. Fixed ids and times, written once (a seed run again changes nothing).
 * Ids of generated columns are given (from 901 on), so the cases' parameters do not depend on the order of the
 * inserts before them.
 */

export const USER = 'u-snapshot';
export const USER2 = 'u-snapshot-2';
/**
 * The tag, bucket, action, task, webhook subscription and delivery the cases read; also the send's receipt (with
 * its member recipient and a reply), the workflow (its first task, firing and step), the poll, the form and its
 * instance.
 */
export const ID = 901;

/** Two accounts (Ada, Bob) and workspace T, administered by Ada (Owner, as Slack user U1). */
export async function seedWorkspace(db: Db) {
  await db
    .insert(schema.users)
    .values([
      { id: USER, email: 'ada@example.com', username: 'ada', country: 'DE', passwordHash: 'hash' },
      { id: USER2, email: 'bob@example.com', username: 'bob', country: 'DE', passwordHash: 'hash' },
    ])
    .onConflictDoNothing();
  await db
    .insert(schema.workspaces)
    .values({
      teamId: T,
      name: 'Snapshot',
      domain: 'snapshot',
      timezone: 'Europe/Berlin',
      botTokenSealed: 'sealed-bot',
      botRefreshTokenSealed: 'sealed-refresh',
    })
    .onConflictDoNothing();
  await db
    .insert(schema.workspaceAdmins)
    .values({ teamId: T, userId: USER, slackUserId: 'U1', role: 'owner' })
    .onConflictDoNothing();
}

/** Members U1 (Ada) and U2 (Bob) of a workspace, both in its channel C1. */
export async function seedMembers(db: Db, teamId = T) {
  await db
    .insert(schema.slackMembers)
    .values([
      { teamId, memberId: 'U1', realName: 'Ada', displayName: 'ada', email: 'ada@example.com', joinedAt: AT },
      { teamId, memberId: 'U2', realName: 'Bob', displayName: 'bob', email: 'bob@example.com' },
    ])
    .onConflictDoNothing();
  await db
    .insert(schema.slackChannels)
    .values({ teamId, channelId: 'C1', name: 'general' })
    .onConflictDoNothing();
  await db
    .insert(schema.channelMembers)
    .values([
      { teamId, channelId: 'C1', memberId: 'U1' },
      { teamId, channelId: 'C1', memberId: 'U2' },
    ])
    .onConflictDoNothing();
}

/** Workspace TW with members and standing windows that end on DAY: its reads of such a window read them. */
export async function seedStandingWindows(db: Db) {
  await seedMembers(db, TW);
  await db.transaction((tx) => rebuildStandingWindows(tx, TW, DAY));
}

/** Tag 901 of T, on member U1. */
export async function seedTag(db: Db) {
  await seedMembers(db);
  await db
    .insert(schema.tags)
    .overridingSystemValue()
    .values({ id: ID, teamId: T, name: 'Snapshot' })
    .onConflictDoNothing();
  await db.insert(schema.memberTags).values({ teamId: T, memberId: 'U1', tagId: ID }).onConflictDoNothing();
}

/** Automation 901 of T. */
export async function seedAction(db: Db) {
  await db
    .insert(schema.actions)
    .overridingSystemValue()
    .values({ id: ID, teamId: T, kind: 'automation', name: 'Welcome', sender: 'bot', message: 'Welcome!' })
    .onConflictDoNothing();
}

/** Task 901 (To do, first) and task `id` on T's board. */
export async function seedTasks(db: Db, id = ID) {
  await db
    .insert(schema.homeTasks)
    .overridingSystemValue()
    .values(
      [...new Set([ID, id])].map((i, position) => ({
        id: i,
        teamId: T,
        title: `Task ${i}`,
        status: 'todo' as const,
        position,
      })),
    )
    .onConflictDoNothing();
}

/** Webhook subscription 901 of T and its pending delivery 901 of event evt-1. */
export async function seedWebhook(db: Db) {
  await db
    .insert(schema.webhookSubscriptions)
    .overridingSystemValue()
    .values({
      id: ID,
      teamId: T,
      url: 'https://example.com/hook',
      events: ['member.joined'],
      secretSealed: 'sealed',
    })
    .onConflictDoNothing();
  await db
    .insert(schema.webhookEvents)
    .values({ id: 'evt-1', teamId: T, type: 'member.joined', data: { member_id: 'U1' } })
    .onConflictDoNothing();
  await db
    .insert(schema.webhookDeliveries)
    .overridingSystemValue()
    .values({ id: ID, subscriptionId: ID, eventId: 'evt-1', nextAttemptAt: LATER })
    .onConflictDoNothing();
}

/** What a send's receipt keeps of its message. */
export const MESSAGE = { text: 'Hello from Flywheel', images: [] as string[] };

/**
 * Receipt 901 of T, a bot's send of two: member U1 (recipient 901) and channel C1 (recipient 902), both due at
 * AT. The recipients stay as they are when seeded again (seedRecipient sets one's state).
 */
export async function seedReceipt(db: Db) {
  await db
    .insert(schema.deliveryReceipts)
    .values({
      id: ID,
      teamId: T,
      actionType: 'Direct Message',
      description: 'Snapshot',
      sender: 'bot',
      message: MESSAGE,
      total: 2,
    })
    .onConflictDoNothing();
  await db
    .insert(schema.deliveryRecipients)
    .values([
      { id: ID, receiptId: ID, teamId: T, kind: 'member' as const, targetId: 'U1', dueAt: AT },
      { id: 902, receiptId: ID, teamId: T, kind: 'channel' as const, targetId: 'C1', dueAt: AT },
    ])
    .onConflictDoNothing();
}

/** Receipt 901 with its recipient `id` in `state` after one attempt (the state the case moves it from). */
export async function seedRecipient(
  db: Db,
  id: number,
  state: 'sending' | 'failed',
  extra: { retryable?: number; error?: string } = {},
) {
  await seedReceipt(db);
  await db
    .update(schema.deliveryRecipients)
    .set({ state, attempts: 1, ...extra })
    .where(eq(schema.deliveryRecipients.id, id));
}

/** A workflow task's content, as the create payload's task is stored once validated. */
export const TASK = workflowTaskSchema.parse({
  type: 'message',
  msgTitle: 'Welcome',
  text: 'Welcome to the workspace!',
  sendToSelectedUsers: true,
});

/**
 * Workflow 901 of T (fires when a member joins the workspace) with tasks 901 (position 0, at once) and 902
 * (position 1, a day later); fired for U1 (trigger 901), its first step due at AT (step 901).
 */
export async function seedWorkflow(db: Db) {
  await db
    .insert(schema.workflows)
    .overridingSystemValue()
    .values({ id: ID, teamId: T, name: 'Onboarding', sender: 'bot', triggerType: 'workspace_join' })
    .onConflictDoNothing();
  await db
    .insert(schema.workflowTasks)
    .overridingSystemValue()
    .values([
      { id: ID, workflowId: ID, position: 0, type: 'message' as const, title: 'Welcome', content: TASK },
      {
        id: 902,
        workflowId: ID,
        position: 1,
        type: 'message' as const,
        title: 'A day later',
        delayUnit: 'days' as const,
        delaySecs: 86_400,
        content: TASK,
      },
    ])
    .onConflictDoNothing();
  await db
    .insert(schema.workflowTriggers)
    .values({ id: ID, workflowId: ID, teamId: T, triggerKey: 'join:U1', memberId: 'U1', triggeredAt: AT })
    .onConflictDoNothing();
  await db
    .insert(schema.workflowSteps)
    .values({ id: ID, workflowId: ID, triggerId: ID, teamId: T, position: 0, dueAt: AT })
    .onConflictDoNothing();
}

/** The options of poll 901. */
export const OPTIONS = [
  { emoji: '🍕', emoji_code: 'pizza', value: 'Pizza' },
  { emoji: '🥗', emoji_code: 'salad', value: 'Salad' },
];
/** Where poll 901 was posted in C1. */
export const POLL_TS = '1768478400.000500';

/** Poll 901 of T (emoji voting), posted in C1 at AT (receipt 901, message POLL_TS), open until LATER. */
export async function seedPoll(db: Db) {
  await seedReceipt(db);
  await db
    .insert(schema.polls)
    .overridingSystemValue()
    .values({
      id: ID,
      teamId: T,
      question: 'Lunch?',
      options: OPTIONS,
      channelIds: ['C1'],
      sender: 'bot',
      type: 'instant',
      createdBy: 'Ada',
      createdByUser: USER,
      postAt: AT,
      expiresAt: LATER,
      receiptId: ID,
    })
    .onConflictDoNothing();
  await db
    .insert(schema.pollMessages)
    .values({ pollId: ID, teamId: T, channelId: 'C1', ts: POLL_TS })
    .onConflictDoNothing();
}

/** Who a form instance is sent to. */
export const AUDIENCE = {
  channel_ids: ['C1'],
  dms: { members: ['U2'], tags: [], channels: [] },
  sendtoworkspace: false,
};

/** Form `id` of T (one-time, sent by the bot, one question). */
export async function seedForm(db: Db, id = ID) {
  await db
    .insert(schema.forms)
    .overridingSystemValue()
    .values({
      id,
      teamId: T,
      name: `Form ${id}`,
      description: 'How did it go?',
      sender: 'bot',
      questions: [{ question: 'Rating', description: '', type: 'rating', options: [], optional: false }],
      ackMessage: 'Thanks!',
      frequency: 'onetime',
    })
    .onConflictDoNothing();
}

/** Form 901 and its instance 901, due at AT and sent through receipt 901. */
export async function seedInstance(db: Db) {
  await seedForm(db);
  await seedReceipt(db);
  await db
    .insert(schema.formInstances)
    .values({
      id: ID,
      formId: ID,
      teamId: T,
      runKey: 'snapshot',
      executionTime: AT,
      audience: AUDIENCE,
      status: 'due',
      receiptId: ID,
    })
    .onConflictDoNothing();
}

/** Slack timestamps of the messages seedMessages writes (C1 of T): a question, a reply, and two older ones. */
export const MSG = {
  question: '1768478300.000100',
  reply: '1768478350.000100',
  hourAgo: '1768474800.000100',
  daysAgo: '1768305600.000100',
};

/**
 * Messages of T in C1, each saying hello: Bob's question mentioning Ada (unanswered: a question of the Questions
 * list) with his own follow-up in its thread, and an hour older and two days older ones (a search past its newest
 * messages finds them in its time slices).
 */
export async function seedMessages(db: Db) {
  await seedMembers(db);
  const message = (ts: string, userId: string, text: string, thread: string | null = null) => {
    const postedAt = new Date(Math.floor(Number(ts)) * 1000);
    return {
      teamId: T,
      channelId: 'C1',
      ts,
      userId,
      threadTs: thread,
      isReply: thread !== null,
      text,
      day: postedAt.toISOString().slice(0, 10),
      postedAt,
    };
  };
  await db
    .insert(schema.slackMessages)
    .values([
      message(MSG.question, 'U2', 'Hello <@U1>, does the deploy need a review?'),
      message(MSG.reply, 'U2', 'Hello? Anyone?', MSG.question),
      message(MSG.hourAgo, 'U2', 'Hello again'),
      message(MSG.daysAgo, 'U1', 'Hello everyone'),
    ])
    .onConflictDoNothing();
  await db
    .insert(schema.questionAnswers)
    .values({
      teamId: T,
      channelId: 'C1',
      ts: MSG.question,
      userId: 'U2',
      postedAt: new Date(1768478300_000),
    })
    .onConflictDoNothing();
}
