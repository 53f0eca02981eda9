import { generateWorkspace, type WorkspaceSpec } from '../generator/workspace.ts';
import { TIMEZONES } from '../generator/words.ts';
import type { Json, SlackMessage } from '../types.ts';
import { createChannels, type ChannelRecord } from './channels.ts';
import { nowSeconds, type TeamContext } from './context.ts';
import { createMessages } from './messages.ts';
import { createUsers, type UserPatch, type UserRecord } from './users.ts';

export const channelType = (ch: ChannelRecord): 'im' | 'group' | 'channel' =>
  ch.isIm ? 'im' : ch.isPrivate ? 'group' : 'channel';

/** One workspace: generated facts, run-time overlay, and the writes that produce Events API events. */
export function createTeam(spec: WorkspaceSpec, teamNo: number, ctx: TeamContext) {
  const ws = generateWorkspace(spec, teamNo);
  const id = ws.teamId;
  const users = createUsers(ws, ctx);
  const channels = createChannels(ws, ctx);
  const messages = createMessages(ws, ctx, channels);
  // Slack's event_ts is a microsecond timestamp that orders a workspace's events: two in the same millisecond
  // get distinct, increasing values (events may arrive out of order; their event_ts says which came first).
  let lastEventUs = 0;
  const eventTs = (): string => {
    lastEventUs = Math.max(Math.floor(ctx.now() * 1000), lastEventUs + 1);
    return `${Math.floor(lastEventUs / 1e6)}.${String(lastEventUs % 1e6).padStart(6, '0')}`;
  };
  const emit = (event: Json, channel?: string): void =>
    ctx.emit(id, { ...event, event_ts: (event.event_ts as string | undefined) ?? eventTs() }, { channel });

  const messageEvent = (channel: ChannelRecord, m: SlackMessage): Json => ({
    ...m,
    channel: channel.id,
    channel_type: channelType(channel),
    event_ts: m.ts,
  });

  const postMessage = (channelId: string, msg: Omit<SlackMessage, 'ts' | 'type'>): SlackMessage => {
    const ch = channels.get(channelId) as ChannelRecord;
    const m = messages.post(channelId, msg);
    emit(messageEvent(ch, m), channelId);
    return m;
  };

  const updateMessage = (channelId: string, ts: string, change: Partial<SlackMessage>, editor: string) => {
    const before = messages.find(channelId, ts);
    if (!before) return undefined;
    const edited = { user: editor, ts: `${nowSeconds(ctx)}.000000` };
    const after = messages.patch(channelId, ts, { ...change, edited }) as SlackMessage;
    const ch = channels.get(channelId) as ChannelRecord;
    emit(
      {
        type: 'message',
        subtype: 'message_changed',
        hidden: true,
        channel: channelId,
        channel_type: channelType(ch),
        ts: eventTs(),
        message: after,
        previous_message: before,
      },
      channelId,
    );
    return after;
  };

  const deleteMessage = (channelId: string, ts: string): boolean => {
    const before = messages.find(channelId, ts);
    if (!before) return false;
    messages.patch(channelId, ts, { deleted: true });
    const ch = channels.get(channelId) as ChannelRecord;
    emit(
      {
        type: 'message',
        subtype: 'message_deleted',
        hidden: true,
        channel: channelId,
        channel_type: channelType(ch),
        ts: eventTs(),
        deleted_ts: ts,
        previous_message: before,
      },
      channelId,
    );
    return true;
  };

  const react = (channelId: string, ts: string, name: string, user: string, add: boolean): void => {
    const target = messages.find(channelId, ts);
    messages.setReaction(channelId, ts, name, user, add);
    emit(
      {
        type: add ? 'reaction_added' : 'reaction_removed',
        user,
        reaction: name,
        item_user: target?.user,
        item: { type: 'message', channel: channelId, ts },
      },
      channelId,
    );
  };

  const joinChannel = (channelId: string, user: string, inviter?: string): void => {
    const ch = channels.get(channelId) as ChannelRecord;
    channels.join(channelId, user, inviter);
    emit(
      {
        type: 'member_joined_channel',
        user,
        channel: channelId,
        channel_type: ch.isPrivate ? 'G' : 'C',
        team: id,
        ...(inviter ? { inviter } : {}),
      },
      channelId,
    );
    postMessage(channelId, {
      subtype: 'channel_join',
      user,
      text: `<@${user}> has joined the channel`,
      ...(inviter ? { inviter } : {}),
    });
  };

  const leaveChannel = (channelId: string, user: string): void => {
    const ch = channels.get(channelId) as ChannelRecord;
    postMessage(channelId, { subtype: 'channel_leave', user, text: `<@${user}> has left the channel` });
    emit(
      {
        type: 'member_left_channel',
        user,
        channel: channelId,
        channel_type: ch.isPrivate ? 'G' : 'C',
        team: id,
      },
      channelId,
    );
    channels.leave(channelId, user);
  };

  const addMember = (input: { realName: string; email?: string; displayName?: string }): UserRecord => {
    const [firstName = input.realName, lastName = ''] = input.realName.split(' ');
    const username = input.realName.toLowerCase().replace(/[^a-z0-9]+/g, '.');
    const user = users.add({
      ...{ username, firstName, lastName, realName: input.realName, displayName: input.displayName ?? '' },
      ...{ email: input.email ?? `${username}.${users.count()}@${ws.spec.domain}.example.com`, title: '' },
      ...{ color: '3c989f', tz: TIMEZONES[0] as UserRecord['tz'], isAdmin: false, isOwner: false },
      ...{
        isPrimaryOwner: false,
        isRestricted: false,
        joinedAt: nowSeconds(ctx),
        deletedAt: 0,
        isBot: false,
      },
      ...{ updated: nowSeconds(ctx), statusText: '', statusEmoji: '' },
    });
    emit({ type: 'team_join', user: users.toJson(user), cache_ts: nowSeconds(ctx) });
    const general = channels.all().find((c) => c.isGeneral);
    if (general) joinChannel(general.id, user.id);
    return user;
  };

  const updateUser = (userId: string, change: UserPatch): UserRecord | undefined => {
    const user = users.patch(userId, change);
    if (user) emit({ type: 'user_change', user: users.toJson(user), cache_ts: nowSeconds(ctx) });
    return user;
  };

  const createChannel = (name: string, creator: string, isPrivate = false): ChannelRecord => {
    const ch = channels.create(name, creator, isPrivate);
    channels.join(ch.id, creator);
    emit({ type: 'channel_created', channel: { ...channels.toJson(ch, creator), is_member: false } });
    return ch;
  };

  const renameChannel = (channelId: string, name: string): ChannelRecord | undefined => {
    const ch = channels.get(channelId);
    if (!ch || ch.isIm) return undefined;
    ch.previousNames = [ch.name, ...ch.previousNames];
    ch.name = name;
    // A private channel's rename is group_rename, sent to apps in it (Slack's group_rename event).
    if (ch.isPrivate) {
      emit({ type: 'group_rename', channel: { id: ch.id, name, created: ch.created } }, ch.id);
      return ch;
    }
    emit({
      type: 'channel_rename',
      channel: {
        id: ch.id,
        name,
        name_normalized: name,
        created: ch.created,
        is_channel: !ch.isPrivate,
        is_mpim: false,
      },
    });
    return ch;
  };

  /**
   * Archives or unarchives a channel: channel_archive / channel_unarchive (`{channel, user}`) for a public
   * one, group_archive / group_unarchive (`{channel}`, sent to apps in it) for a private one, as Slack does.
   */
  const archiveChannel = (channelId: string, archived: boolean, user?: string): ChannelRecord | undefined => {
    const ch = channels.get(channelId);
    if (!ch || ch.isIm || ch.isArchived === archived) return undefined;
    ch.isArchived = archived;
    if (ch.isPrivate) emit({ type: archived ? 'group_archive' : 'group_unarchive', channel: ch.id }, ch.id);
    else
      emit({
        type: archived ? 'channel_archive' : 'channel_unarchive',
        channel: ch.id,
        ...(user ? { user } : {}),
      });
    return ch;
  };

  return {
    id,
    ws,
    users,
    channels,
    messages,
    name: ws.spec.name,
    domain: ws.spec.domain,
    postMessage,
    updateMessage,
    deleteMessage,
    react,
    joinChannel,
    leaveChannel,
    addMember,
    updateUser,
    createChannel,
    renameChannel,
    archiveChannel,
    emit,
  };
}

export type Team = ReturnType<typeof createTeam>;
