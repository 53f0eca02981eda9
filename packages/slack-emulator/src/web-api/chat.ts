import type { TokenInfo } from '../auth.ts';
import type { Core } from '../core.ts';
import { boolArg, jsonArg, strArg } from '../http/body.ts';
import { newId } from '../ids.ts';
import type { ChannelRecord } from '../state/channels.ts';
import type { Team } from '../state/team.ts';
import type { SlackMessage } from '../types.ts';
import { authed, channelOf, required, SlackError, type AuthedContext, type MethodDef } from './registry.ts';

type Scheduled = {
  id: string;
  teamId: string;
  channel: string;
  postAt: number;
  created: number;
  params: Record<string, unknown>;
  token: TokenInfo;
};

/** Resolves a channel argument given as id, #name or a user id (the app's DM with that user). */
export function targetChannel(c: AuthedContext, value = required(c, 'channel')): ChannelRecord {
  if (/^[UW]/.test(value)) {
    if (!c.team.users.get(value)) throw new SlackError('channel_not_found');
    return c.team.channels.openIm(c.token.userId, value).ch;
  }
  const byName = value.startsWith('#') ? c.team.channels.byName(value.slice(1)) : undefined;
  return byName ?? channelOf(c, 'channel', value);
}

/** Validates the content arguments and builds the message as the token's author would post it. */
export function composeMessage(
  c: AuthedContext,
  ch: ChannelRecord,
  params: Record<string, unknown>,
): Omit<SlackMessage, 'ts' | 'type'> {
  const text = strArg(params.text) ?? '';
  const blocks = jsonArg<unknown[]>(params.blocks);
  const attachments = jsonArg<unknown[]>(params.attachments);
  if (
    params.blocks !== undefined &&
    (!Array.isArray(blocks) || blocks.some((b) => !b || typeof b !== 'object' || !('type' in b)))
  ) {
    throw new SlackError('invalid_blocks');
  }
  if (!text && !blocks?.length && !attachments?.length && !params.markdown_text)
    throw new SlackError('no_text');
  if (text.length > 40000) throw new SlackError('msg_too_long');
  if (ch.isArchived) throw new SlackError('is_archived');
  const member = c.team.channels.isMember(ch.id, c.token.userId);
  const publicOk = c.token.kind === 'bot' && !ch.isPrivate && c.token.scopes.includes('chat:write.public');
  if (!member && !publicOk)
    throw new SlackError(ch.isPrivate || ch.isIm ? 'channel_not_found' : 'not_in_channel');
  const msg: Omit<SlackMessage, 'ts' | 'type'> = {
    user: c.token.userId,
    text: text || String(params.markdown_text ?? ''),
    team: c.team.id,
  };
  if (blocks?.length) msg.blocks = blocks;
  if (attachments?.length) msg.attachments = attachments;
  const install = c.core.auth.installs.get(c.team.id);
  if (c.token.kind === 'bot' && install) {
    msg.bot_id = install.botId;
    msg.bot_profile = c.core.auth.botProfile(install, c.core.baseUrl());
    const custom = params.username || params.icon_url || params.icon_emoji;
    if (custom) {
      if (!c.token.scopes.includes('chat:write.customize'))
        throw new SlackError('missing_scope', {
          needed: 'chat:write.customize',
          provided: c.token.scopes.join(','),
        });
      if (params.username) msg.username = String(params.username);
      if (params.icon_emoji) msg.icons = { emoji: String(params.icon_emoji) };
      else if (params.icon_url) msg.icons = { image_64: String(params.icon_url) };
    }
  }
  const metadata = metadataArg(params.metadata);
  if (metadata) msg.metadata = metadata;
  const threadTs = strArg(params.thread_ts);
  const parent = threadTs ? c.team.messages.find(ch.id, threadTs) : undefined;
  if (parent) {
    const root = parent.thread_ts ?? parent.ts;
    msg.thread_ts = root;
    msg.parent_user_id = c.team.messages.find(ch.id, root)?.user ?? parent.user;
    if (boolArg(params.reply_broadcast)) msg.subtype = 'thread_broadcast';
  }
  return msg;
}

/**
 * Slack's message metadata: `{event_type, event_payload}` as a JSON string (form bodies) or an object (JSON
 * bodies). A malformed value is `invalid_metadata_format`; a wrong shape `invalid_metadata_schema`.
 */
export function metadataArg(value: unknown): SlackMessage['metadata'] | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new SlackError('invalid_metadata_format');
    }
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new SlackError('invalid_metadata_format');
  const { event_type, event_payload } = parsed as Record<string, unknown>;
  if (typeof event_type !== 'string' || !/^[A-Za-z0-9_.-]{1,255}$/.test(event_type))
    throw new SlackError('invalid_metadata_schema');
  if (!event_payload || typeof event_payload !== 'object' || Array.isArray(event_payload))
    throw new SlackError('invalid_metadata_schema');
  return { event_type, event_payload: event_payload as Record<string, unknown> };
}

/** What a reader sees of a message: metadata only when it asked for it (include_all_metadata). */
export function withoutMetadata<T extends SlackMessage>(m: T, include: boolean): T {
  if (include || !m.metadata) return m;
  const { metadata: _m, ...rest } = m;
  return rest as T;
}

const ownMessage = (c: AuthedContext, m: SlackMessage): boolean =>
  m.user === c.token.userId || (!!c.token.botId && m.bot_id === c.token.botId);

/** Posts due scheduled messages; called on a timer by the emulator. */
export function runScheduled(core: Core, scheduled: Map<string, Scheduled>): void {
  const now = core.now() / 1000;
  for (const s of [...scheduled.values()]) {
    if (s.postAt > now) continue;
    scheduled.delete(s.id);
    const team = core.teams.get(s.teamId) as Team;
    if (!core.auth.tokens.has(s.token.token)) continue;
    const c = {
      method: 'chat.postMessage',
      params: s.params,
      parts: [],
      headers: {},
      core,
      token: s.token,
      team,
    } as AuthedContext;
    try {
      const ch = channelOf(c, 'channel', s.channel);
      team.postMessage(ch.id, composeMessage(c, ch, s.params));
    } catch {
      // Slack drops scheduled messages that can no longer be posted.
    }
  }
}

export function chatMethods(scheduled: Map<string, Scheduled>): Record<string, MethodDef> {
  return {
    'chat.postMessage': {
      tier: 'post',
      scope: 'chat:write',
      channelArg: 'channel',
      handle: (call) => {
        const c = authed(call);
        const ch = targetChannel(c);
        const m = c.team.postMessage(ch.id, composeMessage(c, ch, c.params));
        return { ok: true, channel: ch.id, ts: m.ts, message: m };
      },
    },
    'chat.postEphemeral': {
      tier: 4,
      scope: 'chat:write',
      channelArg: 'channel',
      handle: (call) => {
        const c = authed(call);
        const ch = targetChannel(c);
        const userId = required(c, 'user');
        const user = c.team.users.get(userId);
        if (!user) throw new SlackError('user_not_found');
        // Slack shows it to one member of the conversation: someone outside it gets nothing.
        if (!c.team.channels.isMember(ch.id, userId)) throw new SlackError('user_not_in_channel');
        const m = composeMessage(c, ch, c.params);
        const ts = c.core.interactivity.postEphemeral(c.team.id, ch.id, userId, m);
        return { ok: true, message_ts: ts };
      },
    },
    'chat.update': {
      tier: 3,
      scope: 'chat:write',
      handle: (call) => {
        const c = authed(call);
        const ch = channelOf(c);
        const ts = required(c, 'ts');
        const m = c.team.messages.find(ch.id, ts);
        if (!m) throw new SlackError('message_not_found');
        if (!ownMessage(c, m)) throw new SlackError('cant_update_message');
        const change: Partial<SlackMessage> = {};
        if (c.params.text !== undefined) change.text = String(c.params.text);
        if (c.params.blocks !== undefined) change.blocks = jsonArg<unknown[]>(c.params.blocks) ?? [];
        if (c.params.attachments !== undefined)
          change.attachments = jsonArg<unknown[]>(c.params.attachments) ?? [];
        if (c.params.metadata !== undefined) change.metadata = metadataArg(c.params.metadata);
        const after = c.team.updateMessage(ch.id, ts, change, c.token.userId) as SlackMessage;
        return { ok: true, channel: ch.id, ts, text: after.text, message: after };
      },
    },
    'chat.delete': {
      tier: 3,
      scope: 'chat:write',
      handle: (call) => {
        const c = authed(call);
        const ch = channelOf(c);
        const ts = required(c, 'ts');
        const m = c.team.messages.find(ch.id, ts);
        if (!m) throw new SlackError('message_not_found');
        if (!ownMessage(c, m)) throw new SlackError('cant_delete_message');
        c.team.deleteMessage(ch.id, ts);
        return { ok: true, channel: ch.id, ts };
      },
    },
    'chat.scheduleMessage': {
      tier: 3,
      scope: 'chat:write',
      handle: (call) => {
        const c = authed(call);
        const ch = targetChannel(c);
        const postAt = Number(required(c, 'post_at'));
        if (!Number.isFinite(postAt)) throw new SlackError('invalid_time');
        const now = c.core.now() / 1000;
        if (postAt <= now) throw new SlackError('time_in_past');
        if (postAt > now + 120 * 86400) throw new SlackError('time_too_far');
        const msg = composeMessage(c, ch, c.params);
        const id = newId('Q', 10);
        scheduled.set(id, {
          id,
          teamId: c.team.id,
          channel: ch.id,
          postAt,
          created: Math.floor(now),
          params: { ...c.params },
          token: c.token,
        });
        const {
          bot_profile: _p,
          blocks: _b,
          attachments: _a,
          thread_ts: _t,
          parent_user_id: _u,
          icons: _i,
          ...rest
        } = msg;
        return {
          ok: true,
          channel: ch.id,
          scheduled_message_id: id,
          post_at: Math.floor(postAt),
          message: { type: 'delayed_message', ...rest },
        };
      },
    },
    'chat.scheduledMessages.list': {
      tier: 3,
      handle: (call) => {
        const c = authed(call);
        const list = [...scheduled.values()].filter(
          (s) => s.teamId === c.team.id && (!c.params.channel || s.channel === c.params.channel),
        );
        const scheduled_messages = list.map((s) => ({
          id: s.id,
          channel_id: s.channel,
          post_at: Math.floor(s.postAt),
          date_created: s.created,
          text: String(s.params.text ?? ''),
        }));
        return { ok: true, scheduled_messages, response_metadata: { next_cursor: '' } };
      },
    },
    'chat.deleteScheduledMessage': {
      tier: 3,
      scope: 'chat:write',
      handle: (call) => {
        const c = authed(call);
        const id = required(c, 'scheduled_message_id');
        if (!scheduled.get(id) || scheduled.get(id)?.teamId !== c.team.id)
          throw new SlackError('invalid_scheduled_message_id');
        scheduled.delete(id);
        return { ok: true };
      },
    },
    'chat.getPermalink': {
      tier: 'special',
      handle: (call) => {
        const c = authed(call);
        const ch = channelOf(c);
        const ts = required(c, 'message_ts');
        const m = c.team.messages.find(ch.id, ts);
        if (!m) throw new SlackError('message_not_found');
        const thread = m.thread_ts && m.thread_ts !== m.ts ? `?thread_ts=${m.thread_ts}&cid=${ch.id}` : '';
        return {
          ok: true,
          channel: ch.id,
          permalink: `${c.core.baseUrl()}/archives/${ch.id}/p${ts.replace('.', '')}${thread}`,
        };
      },
    },
  };
}

export type { Scheduled };
