import { sql } from 'drizzle-orm';
import { typedRows, type Tx } from '../../db/sql.ts';

export type MemberRow = {
  memberId: string;
  realName: string;
  displayName: string;
  email: string | null;
  avatarUrl: string | null;
  isAdmin: boolean;
  isOwner: boolean;
  isBot: boolean;
  deleted: boolean;
  tz: string | null;
  /** Slack's `updated` (epoch seconds) of the user object. */
  updated: number | null;
};

export type NewMessage = {
  teamId: string;
  channelId: string;
  ts: string;
  userId: string | null;
  threadTs: string | null;
  subtype: string | null;
  text: string;
  isReply: boolean;
  day: string;
  postedAt: Date;
  /** When it was last edited, if it was (a message first recorded from an edited copy). */
  editedAt: Date | null;
};

export type NewReaction = {
  teamId: string;
  channelId: string;
  ts: string;
  userId: string;
  name: string;
  day: string;
  at: Date;
};

/** The key columns of a slack_reactions row, as statements return them. */
export type ReactionKeyRow = {
  team_id: string;
  channel_id: string;
  ts: string;
  user_id: string;
  name: string;
};

/** For each key, true at its first occurrence only. */
function firstOfEachKey(keys: string[]): boolean[] {
  const seen = new Set<string>();
  return keys.map((k) => !seen.has(k) && Boolean(seen.add(k)));
}

/** Raw facts as Slack gives them. Only this file (and the rollups repo) writes them. */
export const factsRepo = {
  /**
   * Inserts or refreshes a member from a Slack user object. An object older than the one applied last (by
   * Slack's `updated`) changes nothing: events may arrive out of order. Returns whether the row was new,
   * whether the member was deleted before, and whether this object was applied.
   */
  async upsertMember(tx: Tx, teamId: string, m: MemberRow, joinedAt: Date | null) {
    const [r] = await typedRows<{ inserted: boolean; was_deleted: boolean | null }>(
      tx,
      sql`
        with prev as (select deleted from slack_members where team_id = ${teamId} and member_id = ${m.memberId})
        insert into slack_members as s (team_id, member_id, real_name, display_name, email, avatar_url, is_admin, is_owner,
          is_bot, deleted, tz, joined_at, left_at, slack_updated, updated_at)
        values (${teamId}, ${m.memberId}, ${m.realName}, ${m.displayName}, ${m.email}, ${m.avatarUrl}, ${m.isAdmin},
          ${m.isOwner}, ${m.isBot}, ${m.deleted}, ${m.tz}, ${joinedAt}, null, ${m.updated}, now())
        on conflict (team_id, member_id) do update set real_name = excluded.real_name, display_name = excluded.display_name,
          email = excluded.email, avatar_url = excluded.avatar_url, is_admin = excluded.is_admin, is_owner = excluded.is_owner,
          is_bot = excluded.is_bot, deleted = excluded.deleted, tz = excluded.tz,
          joined_at = coalesce(s.joined_at, excluded.joined_at), slack_updated = excluded.slack_updated, updated_at = now()
          where coalesce(excluded.slack_updated, 0) >= coalesce(s.slack_updated, 0)
        returning (xmax = 0) as inserted, (select deleted from prev) as was_deleted`,
    );
    return { inserted: r?.inserted ?? false, wasDeleted: r?.was_deleted ?? null, applied: Boolean(r) };
  },
  async setMemberLeft(tx: Tx, teamId: string, memberId: string, at: Date | null) {
    await tx.execute(
      sql`update slack_members set left_at = ${at}, updated_at = now() where team_id = ${teamId} and member_id = ${memberId}`,
    );
  },
  /**
   * Records a join or leave unless one of the same kind is already known within a day of it (the same
   * change seen live and again during the history import).
   */
  async addMemberEventOnce(
    tx: Tx,
    teamId: string,
    memberId: string,
    kind: 'join' | 'leave',
    at: Date,
    day: string,
  ) {
    await tx.execute(sql`insert into slack_member_events (team_id, member_id, kind, at, day)
      select ${teamId}, ${memberId}, ${kind}, ${at}, ${day}
      where not exists (select 1 from slack_member_events where team_id = ${teamId} and member_id = ${memberId}
        and kind = ${kind} and at between ${at}::timestamptz - interval '1 day' and ${at}::timestamptz + interval '1 day')`);
  },
  async setJoinedAt(tx: Tx, teamId: string, memberId: string, at: Date) {
    await tx.execute(sql`update slack_members set joined_at = least(coalesce(joined_at, ${at}), ${at})
      where team_id = ${teamId} and member_id = ${memberId}`);
  },
  async upsertChannel(
    tx: Tx,
    teamId: string,
    c: { id: string; name: string; isPrivate: boolean; isArchived: boolean; created: Date | null },
  ) {
    await tx.execute(sql`insert into slack_channels (team_id, channel_id, name, is_private, is_archived, created_at)
      values (${teamId}, ${c.id}, ${c.name}, ${c.isPrivate}, ${c.isArchived}, ${c.created})
      on conflict (team_id, channel_id) do update set name = excluded.name, is_private = excluded.is_private,
        is_archived = excluded.is_archived, created_at = coalesce(slack_channels.created_at, excluded.created_at), updated_at = now()`);
  },
  /** channel_created: adds the channel, but never overwrites a name a (later) rename already set. */
  async createChannel(
    tx: Tx,
    teamId: string,
    c: { id: string; name: string; isPrivate: boolean; created: Date | null },
  ) {
    await tx.execute(sql`insert into slack_channels (team_id, channel_id, name, is_private, is_archived, created_at)
      values (${teamId}, ${c.id}, ${c.name}, ${c.isPrivate}, false, ${c.created})
      on conflict (team_id, channel_id) do update set created_at = coalesce(slack_channels.created_at, excluded.created_at)`);
  },
  /** channel_rename: sets the name, adding the channel when its channel_created has not arrived yet. */
  async renameChannel(tx: Tx, teamId: string, channelId: string, name: string) {
    await tx.execute(sql`insert into slack_channels (team_id, channel_id, name) values (${teamId}, ${channelId}, ${name})
      on conflict (team_id, channel_id) do update set name = excluded.name, updated_at = now()`);
  },
  async archiveChannel(tx: Tx, teamId: string, channelId: string, archived: boolean) {
    await tx.execute(
      sql`update slack_channels set is_archived = ${archived}, updated_at = now() where team_id = ${teamId} and channel_id = ${channelId}`,
    );
  },
  async channelExists(tx: Tx, teamId: string, channelId: string): Promise<boolean> {
    const r = await typedRows(
      tx,
      sql`select 1 from slack_channels where team_id = ${teamId} and channel_id = ${channelId}`,
    );
    return r.length > 0;
  },
  /** Whether a known channel is private (null when it is not known). */
  async channelIsPrivate(tx: Tx, teamId: string, channelId: string): Promise<boolean | null> {
    const r = await typedRows<{ is_private: boolean }>(
      tx,
      sql`select is_private from slack_channels where team_id = ${teamId} and channel_id = ${channelId}`,
    );
    return r[0] ? r[0].is_private : null;
  },
  /** The member directory's bots (and apps) of a workspace. */
  async botIds(tx: Tx, teamId: string): Promise<string[]> {
    const r = await typedRows<{ member_id: string }>(
      tx,
      sql`select member_id from slack_members where team_id = ${teamId} and is_bot`,
    );
    return r.map((m) => m.member_id);
  },
  async joinChannel(tx: Tx, teamId: string, channelId: string, memberId: string, at: Date | null) {
    await tx.execute(sql`insert into slack_channel_members (team_id, channel_id, member_id, joined_at)
      values (${teamId}, ${channelId}, ${memberId}, ${at}) on conflict do nothing`);
  },
  /**
   * A history channel_join message dates a membership the members list already holds (the newest join is read
   * first); it never adds one: the member may have left the channel since.
   */
  async setChannelJoinedAt(tx: Tx, teamId: string, channelId: string, memberId: string, at: Date) {
    await tx.execute(sql`update slack_channel_members set joined_at = ${at}
      where team_id = ${teamId} and channel_id = ${channelId} and member_id = ${memberId} and joined_at is null`);
  },
  async setChannelMembers(tx: Tx, teamId: string, channelId: string, memberIds: string[]) {
    if (memberIds.length === 0) return;
    await tx.execute(sql`insert into slack_channel_members (team_id, channel_id, member_id)
      select ${teamId}, ${channelId}, m from unnest(${sql.param(memberIds)}::text[]) as m on conflict do nothing`);
  },
  async leaveChannel(tx: Tx, teamId: string, channelId: string, memberId: string) {
    await tx.execute(
      sql`delete from slack_channel_members where team_id = ${teamId} and channel_id = ${channelId} and member_id = ${memberId}`,
    );
  },

  /** Inserts a message unless its (team, channel, ts) is known; returns true when it is new. */
  async insertMessage(tx: Tx, m: NewMessage): Promise<boolean> {
    const r = await typedRows(
      tx,
      sql`insert into slack_messages (team_id, channel_id, ts, user_id, thread_ts, subtype, text,
          is_reply, day, posted_at, edited_at)
        values (${m.teamId}, ${m.channelId}, ${m.ts}, ${m.userId}, ${m.threadTs}, ${m.subtype}, ${m.text},
          ${m.isReply}, ${m.day}, ${m.postedAt}, ${m.editedAt})
        on conflict do nothing returning 1`,
    );
    return r.length === 1;
  },
  /**
   * Inserts many messages in one statement, each unless its (team, channel, ts) is known; returns, in input
   * order, whether each was new (of rows with the same key only the first can be).
   */
  async insertMessages(tx: Tx, ms: NewMessage[]): Promise<boolean[]> {
    const first = firstOfEachKey(ms.map((m) => `${m.teamId}|${m.channelId}|${m.ts}`));
    const rowsIn = ms.filter((_, i) => first[i]);
    const col = <T>(f: (m: NewMessage) => T) => sql.param(rowsIn.map(f));
    const out = await typedRows<{ team_id: string; channel_id: string; ts: string }>(
      tx,
      sql`insert into slack_messages (team_id, channel_id, ts, user_id, thread_ts, subtype, text,
          is_reply, day, posted_at, edited_at)
        select * from unnest(${col((m) => m.teamId)}::text[], ${col((m) => m.channelId)}::text[],
          ${col((m) => m.ts)}::text[], ${col((m) => m.userId)}::text[], ${col((m) => m.threadTs)}::text[],
          ${col((m) => m.subtype)}::text[], ${col((m) => m.text)}::text[], ${col((m) => m.isReply)}::boolean[],
          ${col((m) => m.day)}::date[], ${col((m) => m.postedAt.toISOString())}::timestamptz[],
          ${col((m) => m.editedAt?.toISOString() ?? null)}::timestamptz[])
        on conflict do nothing returning team_id, channel_id, ts`,
    );
    const fresh = new Set(out.map((r) => `${r.team_id}|${r.channel_id}|${r.ts}`));
    return ms.map((m, i) => first[i]! && fresh.has(`${m.teamId}|${m.channelId}|${m.ts}`));
  },
  /**
   * Sets a message's new text; returns what the rollups need (the old text and how the message counted), or
   * undefined when the message is not known (or deleted).
   */
  async editMessage(tx: Tx, teamId: string, channelId: string, ts: string, text: string, at: Date) {
    const [r] = await typedRows<{
      old_text: string;
      user_id: string | null;
      subtype: string | null;
      day: string;
    }>(
      tx,
      sql`update slack_messages m set text = ${text}, edited_at = ${at}
        from (select text as old_text from slack_messages
          where team_id = ${teamId} and channel_id = ${channelId} and ts = ${ts} and deleted_at is null for update) o
        where m.team_id = ${teamId} and m.channel_id = ${channelId} and m.ts = ${ts} and m.deleted_at is null
        returning o.old_text, m.user_id, m.subtype, m.day::text as day`,
    );
    return r;
  },
  /**
   * Flags a message deleted and returns what it had counted. When the message is not known yet (its
   * history page is still to be imported) a tombstone keeps the later import from counting it.
   */
  async deleteMessage(
    tx: Tx,
    m: { teamId: string; channelId: string; ts: string; day: string; postedAt: Date; at: Date },
  ) {
    const [r] = await typedRows<{
      user_id: string | null;
      is_reply: boolean;
      thread_ts: string | null;
      day: string;
      subtype: string | null;
      posted_at: string;
      text: string;
    }>(
      tx,
      sql`update slack_messages set deleted_at = ${m.at}
        where team_id = ${m.teamId} and channel_id = ${m.channelId} and ts = ${m.ts} and deleted_at is null
        returning user_id, is_reply, thread_ts, day::text as day, subtype, posted_at::text as posted_at, text`,
    );
    if (r) return r;
    await tx.execute(sql`insert into slack_messages (team_id, channel_id, ts, day, posted_at, deleted_at, subtype)
      values (${m.teamId}, ${m.channelId}, ${m.ts}, ${m.day}, ${m.postedAt}, ${m.at}, 'tombstone') on conflict do nothing`);
    return undefined;
  },

  async insertReaction(tx: Tx, r: NewReaction) {
    return (await factsRepo.insertReactions(tx, [r]))[0] === true;
  },
  /**
   * Inserts many reactions in one statement; returns, in input order, whether each now counts. A reaction
   * counts when it is new, or when it was removed before it was (re)made; not when a later removal is known
   * (events arrive out of order), nor on a deleted message.
   */
  async insertReactions(tx: Tx, rs: NewReaction[]): Promise<boolean[]> {
    const key = (r: Pick<NewReaction, 'teamId' | 'channelId' | 'ts' | 'userId' | 'name'>) =>
      `${r.teamId}|${r.channelId}|${r.ts}|${r.userId}|${r.name}`;
    const first = firstOfEachKey(rs.map(key));
    const rowsIn = rs.filter((_, i) => first[i]);
    const col = <T>(f: (r: NewReaction) => T) => sql.param(rowsIn.map(f));
    const out = await typedRows<ReactionKeyRow>(
      tx,
      sql`insert into slack_reactions as x (team_id, channel_id, ts, user_id, name, day, reacted_at)
        select v.* from unnest(${col((r) => r.teamId)}::text[], ${col((r) => r.channelId)}::text[],
          ${col((r) => r.ts)}::text[], ${col((r) => r.userId)}::text[], ${col((r) => r.name)}::text[],
          ${col((r) => r.day)}::date[], ${col((r) => r.at.toISOString())}::timestamptz[])
          as v(team_id, channel_id, ts, user_id, name, day, reacted_at)
        where not exists (select 1 from slack_messages m where m.team_id = v.team_id and m.channel_id = v.channel_id
          and m.ts = v.ts and m.deleted_at is not null)
        on conflict (team_id, channel_id, ts, user_id, name) do update
          set removed_at = null, reacted_at = excluded.reacted_at, day = excluded.day
          where x.removed_at is not null and x.removed_at < excluded.reacted_at
        returning team_id, channel_id, ts, user_id, name`,
    );
    const fresh = new Set(
      out.map((r) =>
        key({ teamId: r.team_id, channelId: r.channel_id, ts: r.ts, userId: r.user_id, name: r.name }),
      ),
    );
    return rs.map((r, i) => first[i]! && fresh.has(key(r)));
  },
  /** Removes every live reaction of a message (a deleted message takes its reactions with it). */
  async deleteReactionsOf(tx: Tx, teamId: string, channelId: string, ts: string, at: Date) {
    return typedRows<{ user_id: string; day: string; reacted_at: string }>(
      tx,
      sql`update slack_reactions set removed_at = ${at}
        where team_id = ${teamId} and channel_id = ${channelId} and ts = ${ts} and removed_at is null
        returning user_id, day::text as day, reacted_at::text as reacted_at`,
    );
  },
  /**
   * Removes a reaction made before `at`; returns when it was made (what it had counted), or undefined.
   * When the reaction is not known yet, a tombstone keeps its late-arriving addition from counting.
   */
  async deleteReaction(
    tx: Tx,
    r: { teamId: string; channelId: string; ts: string; userId: string; name: string; day: string; at: Date },
  ) {
    const [out] = await typedRows<{ day: string; reacted_at: string }>(
      tx,
      sql`update slack_reactions set removed_at = ${r.at}
        where team_id = ${r.teamId} and channel_id = ${r.channelId} and ts = ${r.ts} and user_id = ${r.userId}
          and name = ${r.name} and removed_at is null and reacted_at <= ${r.at}
        returning day::text as day, reacted_at::text as reacted_at`,
    );
    if (out) return out;
    await tx.execute(sql`insert into slack_reactions (team_id, channel_id, ts, user_id, name, day, reacted_at, removed_at)
      values (${r.teamId}, ${r.channelId}, ${r.ts}, ${r.userId}, ${r.name}, ${r.day}, ${r.at}, ${r.at})
      on conflict (team_id, channel_id, ts, user_id, name) do update set removed_at = excluded.removed_at
        where slack_reactions.removed_at is not null and slack_reactions.removed_at < excluded.removed_at`);
    return undefined;
  },
};
