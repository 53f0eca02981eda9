import { sql } from 'drizzle-orm';
import type { UsersListResponse } from '@slack/web-api';
import type { z } from 'zod';
import { typedRows, type Tx } from '../../db/sql.ts';
import { localDay, localDayHour, tsToDate } from '../../lib/days.ts';
import { keywordsOf } from '../activity/keywords.ts';
import type { RollupBuffer } from '../activity/rollups.ts';
import { questionAnswerHooks } from '../conversations/question-answers.ts';
import { DELIVERY_EVENT_TYPE } from '../delivery/engine.ts';
import {
  factsRepo,
  type MemberRow,
  type NewMessage,
  type NewReaction,
  type ReactionKeyRow,
} from './facts-repo.ts';
import {
  channelIdEventSchema,
  channelMemberEventSchema,
  channelObjectEventSchema,
  messageEventSchema,
  reactionEventSchema,
  tokensRevokedEventSchema,
  userEventSchema,
  type SlackEnvelope,
  type SlackMessage,
  type SlackUser,
} from '../../slack/events.ts';

/**
 * Where a batch applies its changes: one team, its timezone, the open transaction, the rollup buffer and,
 * when given, the pending inserts of messages and reactions (written together at the next flush).
 */
export type IngestScope = {
  tx: Tx;
  teamId: string;
  tz: string;
  buf: RollupBuffer;
  facts?: FactsWriter;
  /** The member directory's bots; without it, each message's author is looked up on its own. */
  bots?: BotDirectory;
};

/**
 * The member directory's bots per workspace, read once per batch (a bot's messages, file uploads included,
 * are not a member's activity even when they carry a `user` and no `bot_id`), and kept current by the
 * batch's own team_join / user_change events.
 */
export function botDirectory() {
  const byTeam = new Map<string, Set<string>>();
  return {
    async has(tx: Tx, teamId: string, userId: string): Promise<boolean> {
      let bots = byTeam.get(teamId);
      if (!bots) {
        bots = new Set(await factsRepo.botIds(tx, teamId));
        byTeam.set(teamId, bots);
      }
      return bots.has(userId);
    },
    note(teamId: string, userId: string, isBot: boolean) {
      const bots = byTeam.get(teamId);
      if (isBot) bots?.add(userId);
      else bots?.delete(userId);
    },
  };
}
export type BotDirectory = ReturnType<typeof botDirectory>;

const isDirectoryBot = async (s: IngestScope, userId: string) =>
  s.bots ? s.bots.has(s.tx, s.teamId, userId) : (await factsRepo.botIds(s.tx, s.teamId)).includes(userId);

/**
 * Message and reaction inserts of a batch, held back and written with one statement per table: a batch of
 * 500 events costs a handful of round trips instead of one per event. What happens when a row turns out to
 * be new (its rollup count) runs at the flush, in order. Anything that reads or changes these rows (an edit
 * or delete of a message held here or with reactions held here, the removal of a reaction held here)
 * flushes first, so events still apply exactly as if one by one; one that touches other rows does not wait
 * (the held inserts cannot change what it reads or writes). Rollup counts add up, so their order is free.
 *
 * `writeHeld` writes what is held (before an event that reads it, and before other modules' listeners see an
 * event); `flush`, at the end of a batch, writes what is held and then keeps the questions' first answers
 * (conversations/question-answers.ts) for every message and reaction the batch wrote, in a few statements. Those
 * recompute from the stored facts, so they may wait for the batch's end: the live drain writes about one event
 * at a time (listeners see each event's facts), and a question check per reply and reaction was a third of
 * PostgreSQL's time per event (bench/ingest).
 */
export function factsWriter() {
  let messages: { row: NewMessage; onNew: () => void }[] = [];
  /** Written in this batch, for the questions' hooks at the flush: new messages, reactions added or removed. */
  let written: NewMessage[] = [];
  let reacted: NewReaction[] = [];
  let reactions: { row: NewReaction; onNew: () => void }[] = [];
  let removals: { row: RemovedReaction; onGone: (reactedAt: string) => void }[] = [];
  /** Messages held here, or with reactions held here (team|channel|ts); reactions held here (+|user|name). */
  const heldMessages = new Set<string>();
  const heldReactions = new Set<string>();
  return {
    message(row: NewMessage, onNew: () => void) {
      messages.push({ row, onNew });
      heldMessages.add(`${row.teamId}|${row.channelId}|${row.ts}`);
    },
    reaction(row: NewReaction, onNew: () => void) {
      reactions.push({ row, onNew });
      heldMessages.add(`${row.teamId}|${row.channelId}|${row.ts}`);
      heldReactions.add(`${row.teamId}|${row.channelId}|${row.ts}|${row.userId}|${row.name}`);
    },
    /** A reaction removed; `onGone` gets when it was made if it was live (what it had counted). */
    removal(row: RemovedReaction, onGone: (reactedAt: string) => void) {
      removals.push({ row, onGone });
      heldMessages.add(`${row.teamId}|${row.channelId}|${row.ts}`);
      heldReactions.add(`${row.teamId}|${row.channelId}|${row.ts}|${row.userId}|${row.name}`);
    },
    /** Whether an insert held here is of this message or of a reaction on it. */
    holdsMessage(teamId: string, channelId: string, ts: string): boolean {
      return heldMessages.has(`${teamId}|${channelId}|${ts}`);
    },
    /** Whether an insert held here is of this reaction. */
    holdsReaction(teamId: string, channelId: string, ts: string, userId: string, name: string): boolean {
      return heldReactions.has(`${teamId}|${channelId}|${ts}|${userId}|${name}`);
    },
    async writeHeld(tx: Tx): Promise<void> {
      heldMessages.clear();
      heldReactions.clear();
      if (messages.length) {
        const batch = messages;
        messages = [];
        const fresh = await factsRepo.insertMessages(
          tx,
          batch.map((m) => m.row),
        );
        batch.forEach((m, i) => fresh[i] && m.onNew());
        written.push(...batch.filter((_, i) => fresh[i]).map((m) => m.row));
      }
      if (reactions.length) {
        const batch = reactions;
        reactions = [];
        const fresh = await factsRepo.insertReactions(
          tx,
          batch.map((r) => r.row),
        );
        batch.forEach((r, i) => fresh[i] && r.onNew());
        reacted.push(...batch.filter((_, i) => fresh[i]).map((r) => r.row));
      }
      // Held additions and removals never share a reaction (either flushes the other first): any order.
      if (removals.length) {
        const batch = removals;
        removals = [];
        const gone = await removeReactions(
          tx,
          batch.map((r) => r.row),
        );
        batch.forEach((r, i) => gone[i] !== undefined && r.onGone(gone[i]!));
        reacted.push(...batch.filter((_, i) => gone[i] !== undefined).map((r) => r.row));
      }
    },
    async flush(tx: Tx): Promise<void> {
      await this.writeHeld(tx);
      const [messagesWritten, reactionsChanged] = [written, reacted];
      written = [];
      reacted = [];
      await questionAnswerHooks.messagesAdded(tx, messagesWritten);
      await questionAnswerHooks.reactionsChanged(tx, reactionsChanged);
    },
  };
}
export type FactsWriter = ReturnType<typeof factsWriter>;

/** A reaction to take away: the same fields as one to add. */
type RemovedReaction = NewReaction;

/**
 * `factsRepo.deleteReaction` for many reactions (each once) in two statements: removes each that is live and
 * made before its removal, and returns when it was made (in input order; undefined when it was not live);
 * for the others a tombstone (or a later removal time) keeps a late-arriving addition from counting.
 */
async function removeReactions(tx: Tx, rs: RemovedReaction[]): Promise<(string | undefined)[]> {
  const col = <T>(f: (r: RemovedReaction) => T) => sql.param(rs.map(f));
  const key = (r: ReactionKeyRow) => `${r.team_id}|${r.channel_id}|${r.ts}|${r.user_id}|${r.name}`;
  const values = sql`unnest(${col((r) => r.teamId)}::text[], ${col((r) => r.channelId)}::text[],
    ${col((r) => r.ts)}::text[], ${col((r) => r.userId)}::text[], ${col((r) => r.name)}::text[],
    ${col((r) => r.day)}::date[], ${col((r) => r.at.toISOString())}::timestamptz[])
    as v(team_id, channel_id, ts, user_id, name, day, at)`;
  const out = await typedRows<ReactionKeyRow & { reacted_at: string }>(
    tx,
    sql`update slack_reactions x set removed_at = v.at from ${values}
    where x.team_id = v.team_id and x.channel_id = v.channel_id and x.ts = v.ts and x.user_id = v.user_id
      and x.name = v.name and x.removed_at is null and x.reacted_at <= v.at
    returning x.team_id, x.channel_id, x.ts, x.user_id, x.name, x.reacted_at::text as reacted_at`,
  );
  const made = new Map(out.map((r) => [key(r), r.reacted_at]));
  const gone = rs.map((r) =>
    made.get(key({ team_id: r.teamId, channel_id: r.channelId, ts: r.ts, user_id: r.userId, name: r.name })),
  );
  if (gone.some((g) => g === undefined)) {
    const rest = rs.filter((_, i) => gone[i] === undefined);
    const c = <T>(f: (r: RemovedReaction) => T) => sql.param(rest.map(f));
    await tx.execute(sql`insert into slack_reactions (team_id, channel_id, ts, user_id, name, day, reacted_at, removed_at)
      select v.team_id, v.channel_id, v.ts, v.user_id, v.name, v.day, v.at, v.at
      from unnest(${c((r) => r.teamId)}::text[], ${c((r) => r.channelId)}::text[], ${c((r) => r.ts)}::text[],
        ${c((r) => r.userId)}::text[], ${c((r) => r.name)}::text[], ${c((r) => r.day)}::date[],
        ${c((r) => r.at.toISOString())}::timestamptz[]) as v(team_id, channel_id, ts, user_id, name, day, at)
      on conflict (team_id, channel_id, ts, user_id, name) do update set removed_at = excluded.removed_at
        where slack_reactions.removed_at is not null and slack_reactions.removed_at < excluded.removed_at`);
  }
  return gone;
}

/** Writes the held inserts before a statement on a message they hold (or hold reactions of). */
const settleMessage = async (s: IngestScope, channelId: string, ts: string) => {
  if (s.facts?.holdsMessage(s.teamId, channelId, ts)) await s.facts.writeHeld(s.tx);
};

/** What an event asks of the workspace itself (applied by the caller after commit). */
export type WorkspaceEffect =
  | { kind: 'disconnected'; teamId: string; reason: 'app_uninstalled' | 'tokens_revoked' }
  | { kind: 'user_tokens_revoked'; teamId: string; slackUserIds: string[] };

/** Message subtypes that are someone's content (count as activity); everything else is a system line. */
const CONTENT_SUBTYPES = new Set<string | null | undefined>([
  undefined,
  'thread_broadcast',
  'file_share',
  'me_message',
]);
const SKIPPED_CHANNEL_TYPES = new Set<string | null | undefined>(['im', 'mpim']);

/** A member as users.list lists it (the SDK's type). */
type ListedMember = NonNullable<UsersListResponse['members']>[number];

/** A Slack user object (an event's, or users.list's) as a member row. */
export function memberRow(u: SlackUser | ListedMember): MemberRow {
  const p = u.profile ?? {};
  return {
    memberId: String(u.id),
    realName: String(u.real_name ?? p.real_name ?? u.name ?? ''),
    displayName: String(p.display_name ?? ''),
    email: p.email ? String(p.email).toLowerCase() : null,
    avatarUrl: p.image_192 ?? p.image_72 ?? null,
    isAdmin: Boolean(u.is_admin),
    isOwner: Boolean(u.is_owner),
    isBot: Boolean(u.is_bot) || u.id === 'USLACKBOT',
    deleted: Boolean(u.deleted),
    tz: u.tz ?? null,
    updated: typeof u.updated === 'number' ? u.updated : null,
  };
}

/**
 * Records one message (from a live event or from history). Counting happens only when the row is new, so a
 * message seen both live and during backfill counts once. Reactions listed on a history message count on the
 * message's day (history does not say when a reaction was made).
 */
/** When a message was last edited, from Slack's `edited.ts` (none, or one that is not a time: not edited). */
function editedAt(m: SlackMessage): Date | null {
  const at = m.edited?.ts ? tsToDate(m.edited.ts) : null;
  return at && Number.isFinite(at.getTime()) ? at : null;
}

export async function recordMessage(s: IngestScope, channelId: string, m: SlackMessage): Promise<void> {
  if (!m.ts) return;
  if (m.subtype === 'channel_join' && m.user) {
    await factsRepo.joinChannel(s.tx, s.teamId, channelId, m.user, tsToDate(m.ts));
    return;
  }
  if (!CONTENT_SUBTYPES.has(m.subtype) && m.subtype !== 'bot_message') return;
  const postedAt = tsToDate(m.ts);
  const slot = localDayHour(postedAt, s.tz);
  const day = slot.day;
  const userId: string | null = m.user ?? null;
  const isBot =
    m.subtype === 'bot_message' ||
    Boolean(m.bot_id) ||
    (userId !== null && (await isDirectoryBot(s, userId)));
  const isReply = Boolean(m.thread_ts) && m.thread_ts !== m.ts;
  const row: NewMessage = {
    teamId: s.teamId,
    channelId,
    ts: m.ts,
    userId,
    threadTs: m.thread_ts ?? null,
    subtype: isBot ? 'bot_message' : (m.subtype ?? null),
    text: String(m.text ?? ''),
    isReply,
    day,
    postedAt,
    editedAt: editedAt(m),
  };
  // Flywheel's own sends (a workflow's or a schedule's post, even as an admin) are nobody's activity: they
  // never make a member active, so they can never fire a workflow again.
  const ours = m.metadata?.event_type === DELIVERY_EVENT_TYPE;
  const counted = () => {
    if (userId && !isBot && !ours) {
      s.buf.add(s.teamId, slot, userId, channelId, isReply ? { replies: 1 } : { messages: 1 });
      s.buf.keywords(s.teamId, day, keywordsOf(row.text), 1);
      s.buf.active(s.teamId, userId, postedAt);
    }
  };
  if (s.facts) s.facts.message(row, counted);
  else if (await factsRepo.insertMessage(s.tx, row)) {
    counted();
    await questionAnswerHooks.messagesAdded(s.tx, [row]);
  }
  for (const r of Array.isArray(m.reactions) ? m.reactions : []) {
    for (const user of Array.isArray(r.users) ? r.users : []) {
      await addReaction(s, channelId, m.ts, String(user), String(r.name), postedAt);
    }
  }
}

async function addReaction(
  s: IngestScope,
  channelId: string,
  ts: string,
  userId: string,
  name: string,
  at: Date,
) {
  const slot = localDayHour(at, s.tz);
  const row: NewReaction = { teamId: s.teamId, channelId, ts, userId, name, day: slot.day, at };
  const counted = () => {
    s.buf.add(s.teamId, slot, userId, channelId, { reactions: 1 });
    s.buf.active(s.teamId, userId, at);
  };
  if (s.facts) {
    // A removal of the same reaction held here goes first.
    if (s.facts.holdsReaction(s.teamId, channelId, ts, userId, name)) await s.facts.writeHeld(s.tx);
    s.facts.reaction(row, counted);
  } else if (await factsRepo.insertReaction(s.tx, row)) {
    counted();
    await questionAnswerHooks.reactionsChanged(s.tx, [row]);
  }
}

async function deleteMessage(s: IngestScope, channelId: string, ts: string, at: Date) {
  await settleMessage(s, channelId, ts);
  const postedAt = tsToDate(ts);
  const gone = await factsRepo.deleteMessage(s.tx, {
    teamId: s.teamId,
    channelId,
    ts,
    day: localDay(postedAt, s.tz),
    postedAt,
    at,
  });
  if (gone) await questionAnswerHooks.messageDeleted(s.tx, { teamId: s.teamId, channelId, ts }, gone);
  if (gone?.user_id && gone.subtype !== 'bot_message' && gone.subtype !== 'tombstone') {
    const slot = localDayHour(new Date(gone.posted_at), s.tz);
    s.buf.add(s.teamId, slot, gone.user_id, channelId, gone.is_reply ? { replies: -1 } : { messages: -1 });
    s.buf.keywords(s.teamId, slot.day, keywordsOf(gone.text), -1);
  }
  for (const r of await factsRepo.deleteReactionsOf(s.tx, s.teamId, channelId, ts, at)) {
    s.buf.add(s.teamId, localDayHour(new Date(r.reacted_at), s.tz), r.user_id, channelId, { reactions: -1 });
  }
}

/** An edit: new text (and keywords); a message not known yet is recorded from the edited copy. */
async function editMessage(s: IngestScope, channelId: string, m: SlackMessage & { ts: string }, at: Date) {
  await settleMessage(s, channelId, m.ts);
  const text = String(m.text ?? '');
  const before = await factsRepo.editMessage(s.tx, s.teamId, channelId, m.ts, text, at);
  if (!before) {
    await recordMessage(s, channelId, m);
    return;
  }
  await questionAnswerHooks.messageEdited(s.tx, { teamId: s.teamId, channelId, ts: m.ts });
  if (before.user_id && before.subtype !== 'bot_message' && before.subtype !== 'tombstone') {
    s.buf.keywords(s.teamId, before.day, keywordsOf(before.old_text), -1);
    s.buf.keywords(s.teamId, before.day, keywordsOf(text), 1);
  }
}

/** Reads an event with its schema; an event that does not fit it fails (and is set aside with the reason). */
function read<S extends z.ZodType>(schema: S, e: unknown, type: string): z.infer<S> {
  const r = schema.safeParse(e);
  if (!r.success) throw new Error(`unreadable ${type} event: ${r.error.issues[0]?.message ?? 'bad shape'}`);
  return r.data;
}

/**
 * The Events API event types applyEvent handles (its switch's cases; slack/manifest.test.ts keeps the two equal).
 * The Slack app manifest subscribes to these and to every module's listeners' types (slack/manifest.ts).
 */
export const INGESTED_EVENT_TYPES = [
  'message',
  'reaction_added',
  'reaction_removed',
  'team_join',
  'user_change',
  'member_joined_channel',
  'member_left_channel',
  'channel_created',
  'channel_rename',
  'group_rename',
  'channel_archive',
  'channel_deleted',
  'channel_unarchive',
  'group_archive',
  'group_deleted',
  'group_unarchive',
  'app_uninstalled',
  'tokens_revoked',
] as const;

/** Applies one Events API event. Returns workspace-level effects for the caller. */
export async function applyEvent(s: IngestScope, envelope: SlackEnvelope): Promise<WorkspaceEffect[]> {
  const raw = envelope.event ?? {};
  const at = raw.event_ts
    ? tsToDate(String(raw.event_ts))
    : new Date((envelope.event_time ?? Date.now() / 1000) * 1000);
  const type = String(raw.type);
  switch (type) {
    case 'message': {
      const e = read(messageEventSchema, raw, type);
      if (SKIPPED_CHANNEL_TYPES.has(e.channel_type)) return [];
      if (e.subtype === 'message_changed' && e.message?.ts) {
        await editMessage(s, e.channel, e.message, at);
      } else if (e.subtype === 'message_deleted' && e.deleted_ts) {
        await deleteMessage(s, e.channel, e.deleted_ts, at);
      } else if (e.subtype === 'channel_leave' && e.user) {
        await factsRepo.leaveChannel(s.tx, s.teamId, e.channel, e.user);
      } else {
        await recordMessage(s, e.channel, e);
      }
      return [];
    }
    case 'reaction_added': {
      const e = read(reactionEventSchema, raw, type);
      if (e.item?.type === 'message' && e.item.channel && e.item.ts && e.user)
        await addReaction(s, e.item.channel, e.item.ts, e.user, e.reaction, at);
      return [];
    }
    case 'reaction_removed': {
      const e = read(reactionEventSchema, raw, type);
      const { user } = e;
      const channelId = e.item?.channel;
      const ts = e.item?.ts;
      if (e.item?.type !== 'message' || !user || !channelId || !ts) return [];
      const removed: RemovedReaction = {
        teamId: s.teamId,
        channelId,
        ts,
        userId: user,
        name: e.reaction,
        day: localDay(at, s.tz),
        at,
      };
      const uncount = (reactedAt: string) =>
        s.buf.add(s.teamId, localDayHour(new Date(reactedAt), s.tz), user, channelId, {
          reactions: -1,
        });
      if (s.facts) {
        // An addition or removal of the same reaction held here goes first; the removal is held too.
        if (s.facts.holdsReaction(s.teamId, channelId, ts, user, e.reaction)) await s.facts.writeHeld(s.tx);
        s.facts.removal(removed, uncount);
        return [];
      }
      const gone = await factsRepo.deleteReaction(s.tx, removed);
      if (gone) {
        uncount(gone.reacted_at);
        await questionAnswerHooks.reactionsChanged(s.tx, [removed]);
      }
      return [];
    }
    case 'team_join': {
      const row = memberRow(read(userEventSchema, raw, type).user);
      s.bots?.note(s.teamId, row.memberId, row.isBot);
      await factsRepo.upsertMember(s.tx, s.teamId, row, at);
      await factsRepo.addMemberEventOnce(s.tx, s.teamId, row.memberId, 'join', at, localDay(at, s.tz));
      return [];
    }
    case 'user_change': {
      const row = memberRow(read(userEventSchema, raw, type).user);
      const { inserted, wasDeleted, applied } = await factsRepo.upsertMember(s.tx, s.teamId, row, null);
      if (!applied) return [];
      s.bots?.note(s.teamId, row.memberId, row.isBot);
      if (row.deleted && (inserted || wasDeleted === false)) {
        await factsRepo.setMemberLeft(s.tx, s.teamId, row.memberId, at);
        await factsRepo.addMemberEventOnce(s.tx, s.teamId, row.memberId, 'leave', at, localDay(at, s.tz));
      } else if (!row.deleted && wasDeleted === true) {
        await factsRepo.setMemberLeft(s.tx, s.teamId, row.memberId, null);
        await factsRepo.addMemberEventOnce(s.tx, s.teamId, row.memberId, 'join', at, localDay(at, s.tz));
      }
      return [];
    }
    case 'member_joined_channel': {
      const e = read(channelMemberEventSchema, raw, type);
      await factsRepo.joinChannel(s.tx, s.teamId, e.channel, e.user, at);
      return [];
    }
    case 'member_left_channel': {
      const e = read(channelMemberEventSchema, raw, type);
      await factsRepo.leaveChannel(s.tx, s.teamId, e.channel, e.user);
      return [];
    }
    case 'channel_created': {
      const { channel } = read(channelObjectEventSchema, raw, type);
      await factsRepo.createChannel(s.tx, s.teamId, {
        id: channel.id,
        name: channel.name,
        isPrivate: Boolean(channel.is_private),
        created: channel.created ? new Date(channel.created * 1000) : at,
      });
      return [];
    }
    // Private channels: Slack sends group_* (and, for some, channel_*); both are applied alike.
    case 'channel_rename':
    case 'group_rename': {
      const { channel } = read(channelObjectEventSchema, raw, type);
      await factsRepo.renameChannel(s.tx, s.teamId, channel.id, channel.name);
      return [];
    }
    case 'channel_archive':
    case 'channel_deleted':
    case 'channel_unarchive':
    case 'group_archive':
    case 'group_deleted':
    case 'group_unarchive': {
      const { channel } = read(channelIdEventSchema, raw, type);
      const id = typeof channel === 'string' ? channel : channel.id;
      const archived = type !== 'channel_unarchive' && type !== 'group_unarchive';
      await factsRepo.archiveChannel(s.tx, s.teamId, id, archived);
      return [];
    }
    case 'app_uninstalled':
      return [{ kind: 'disconnected', teamId: s.teamId, reason: 'app_uninstalled' }];
    case 'tokens_revoked': {
      const { tokens } = read(tokensRevokedEventSchema, raw, type);
      const effects: WorkspaceEffect[] = [];
      if (tokens?.bot?.length)
        effects.push({ kind: 'disconnected', teamId: s.teamId, reason: 'tokens_revoked' });
      if (tokens?.oauth?.length)
        effects.push({ kind: 'user_tokens_revoked', teamId: s.teamId, slackUserIds: tokens.oauth });
      return effects;
    }
    default:
      return [];
  }
}
