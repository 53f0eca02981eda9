import { boolArg, strArg } from '../http/body.ts';
import { isTs } from '../ids.ts';
import { withoutMetadata } from './chat.ts';
import type { ChannelRecord } from '../state/channels.ts';
import {
  authed,
  channelOf,
  decodeCursor,
  encodeCursor,
  historyScope,
  limitArg,
  paginate,
  readScope,
  required,
  SlackError,
  visibleChannel,
  type AuthedContext,
  type MethodDef,
} from './registry.ts';

const TYPES = ['public_channel', 'private_channel', 'mpim', 'im'];
const chOf = (c: AuthedContext): ChannelRecord | undefined =>
  c.team.channels.get(String(c.params.channel ?? ''));
const isLimitedHistory = (c: AuthedContext): boolean => c.core.rateLimiter.options().nonMarketplace;

/** Bots read history only where they are members; users where the channel is public or they are in it. */
function readable(c: AuthedContext): ChannelRecord {
  const ch = visibleChannel(c);
  if (c.token.kind === 'bot' && !c.team.channels.isMember(ch.id, c.token.userId))
    throw new SlackError('not_in_channel');
  return ch;
}

const tsArg = (c: AuthedContext, name: string): string | undefined => {
  const v = strArg(c.params[name]);
  if (v === undefined || v === '') return undefined;
  if (isTs(v)) return v;
  if (/^\d+(\.\d+)?$/.test(v))
    return `${v.split('.')[0]?.padStart(10, '0')}.${(v.split('.')[1] ?? '').padEnd(6, '0').slice(0, 6)}`;
  throw new SlackError('invalid_ts_latest');
};

export const conversationMethods: Record<string, MethodDef> = {
  'conversations.list': {
    tier: 2,
    scope: (c) => {
      const types = String(c.params.types ?? 'public_channel').split(',');
      return types.includes('im')
        ? 'im:read'
        : types.includes('private_channel')
          ? 'groups:read'
          : 'channels:read';
    },
    handle: (call) => {
      const c = authed(call);
      const types = String(c.params.types ?? 'public_channel')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      if (types.some((t) => !TYPES.includes(t))) throw new SlackError('invalid_types');
      const excludeArchived = boolArg(c.params.exclude_archived);
      const me = c.token.userId;
      const list = c.team.channels.all().filter((ch) => {
        if (excludeArchived && ch.isArchived) return false;
        if (ch.isIm) return types.includes('im') && c.team.channels.isMember(ch.id, me);
        if (ch.isPrivate) return types.includes('private_channel') && c.team.channels.isMember(ch.id, me);
        return types.includes('public_channel');
      });
      const { page, next } = paginate(c, list, 100, 1000);
      return {
        ok: true,
        channels: page.map((ch) => c.team.channels.toJson(ch, me)),
        response_metadata: { next_cursor: next },
      };
    },
  },
  /**
   * The conversations a user is in (the calling user by default). Slack: public channels by the user's own
   * membership; private channels and IMs only where the calling token's user is in them too; the objects carry
   * neither `is_member` nor `num_members`. Tier 3, 100 a page by default, at most 1000.
   */
  'users.conversations': {
    tier: 3,
    scope: (c) => {
      const types = String(c.params.types ?? 'public_channel').split(',');
      return types.includes('im')
        ? 'im:read'
        : types.includes('private_channel')
          ? 'groups:read'
          : 'channels:read';
    },
    handle: (call) => {
      const c = authed(call);
      const types = String(c.params.types ?? 'public_channel')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      if (types.some((t) => !TYPES.includes(t))) throw new SlackError('invalid_types');
      const me = c.token.userId;
      const who = strArg(c.params.user) || me;
      const user = c.team.users.get(who);
      if (!user) throw new SlackError('user_not_found');
      const excludeArchived = boolArg(c.params.exclude_archived);
      const isMember = c.team.channels.isMember;
      const list = c.team.channels.all().filter((ch) => {
        if (excludeArchived && ch.isArchived) return false;
        if (!isMember(ch.id, who)) return false;
        if (ch.isIm) return types.includes('im') && isMember(ch.id, me);
        if (ch.isPrivate) return types.includes('private_channel') && isMember(ch.id, me);
        return types.includes('public_channel');
      });
      const { page, next } = paginate(c, list, 100, 1000);
      return {
        ok: true,
        channels: page.map((ch) => {
          const { is_member: _member, num_members: _count, ...json } = c.team.channels.toJson(ch, me);
          return json;
        }),
        response_metadata: { next_cursor: next },
      };
    },
  },
  'conversations.info': {
    tier: 3,
    scope: (c) => readScope(chOf(c)),
    handle: (call) => {
      const c = authed(call);
      return { ok: true, channel: c.team.channels.toJson(visibleChannel(c), c.token.userId) };
    },
  },
  'conversations.members': {
    tier: 4,
    scope: (c) => readScope(chOf(c)),
    handle: (call) => {
      const c = authed(call);
      const ch = visibleChannel(c);
      const { page, next } = paginate(c, c.team.channels.members(ch.id), 100, 1000);
      return { ok: true, members: page, response_metadata: { next_cursor: next } };
    },
  },
  'conversations.history': {
    tier: 3,
    scope: (c) => historyScope(chOf(c)),
    handle: (call) => {
      const c = authed(call);
      const ch = readable(c);
      const limited = isLimitedHistory(c);
      const limit = limitArg(c, limited ? 15 : 100, limited ? 15 : 999);
      const before = decodeCursor(c, 'next_ts');
      const page = c.team.messages.history(ch.id, {
        latest: tsArg(c, 'latest'),
        oldest: tsArg(c, 'oldest'),
        inclusive: boolArg(c.params.inclusive),
        limit,
        before,
      });
      return {
        ok: true,
        messages: page.messages.map((m) => withoutMetadata(m, boolArg(c.params.include_all_metadata))),
        has_more: page.hasMore,
        pin_count: c.team.messages.pins(ch.id).size,
        channel_actions_ts: null,
        channel_actions_count: 0,
        ...(page.nextTs
          ? { response_metadata: { next_cursor: encodeCursor(`next_ts:${page.nextTs}`) } }
          : {}),
      };
    },
  },
  'conversations.replies': {
    tier: 3,
    scope: (c) => historyScope(chOf(c)),
    handle: (call) => {
      const c = authed(call);
      const ch = readable(c);
      const ts = required(c, 'ts');
      const parent = c.team.messages.find(ch.id, ts);
      if (!parent) throw new SlackError('thread_not_found');
      const replies =
        parent.thread_ts && parent.thread_ts !== parent.ts ? [] : c.team.messages.threadReplies(ch.id, ts);
      const all = replies.length > 0 ? [{ ...parent, subscribed: false }, ...replies] : [];
      const thread = all.length > 0 ? all : [parent];
      const limited = isLimitedHistory(c);
      const { page, next } = paginate(c, thread, limited ? 15 : 1000, limited ? 15 : 1000);
      return {
        ok: true,
        messages: page.map((m) => withoutMetadata(m, boolArg(c.params.include_all_metadata))),
        has_more: next !== '',
        ...(next ? { response_metadata: { next_cursor: next } } : {}),
      };
    },
  },
  'conversations.join': {
    tier: 3,
    scope: (c) => (c.token.kind === 'bot' ? 'channels:join' : 'channels:write'),
    handle: (call) => {
      const c = authed(call);
      const ch = channelOf(c);
      if (ch.isIm) throw new SlackError('method_not_supported_for_channel_type');
      if (ch.isPrivate && !c.team.channels.isMember(ch.id, c.token.userId))
        throw new SlackError('channel_not_found');
      if (ch.isArchived) throw new SlackError('is_archived');
      if (c.team.channels.isMember(ch.id, c.token.userId)) {
        return {
          ok: true,
          channel: c.team.channels.toJson(ch, c.token.userId),
          warning: 'already_in_channel',
          response_metadata: { warnings: ['already_in_channel'] },
        };
      }
      c.team.joinChannel(ch.id, c.token.userId);
      return { ok: true, channel: c.team.channels.toJson(ch, c.token.userId) };
    },
  },
  'conversations.open': {
    tier: 3,
    scope: (c) => (c.token.kind === 'bot' ? 'im:write' : 'im:write'),
    handle: (call) => {
      const c = authed(call);
      if (c.params.channel) {
        const ch = visibleChannel(c);
        return {
          ok: true,
          no_op: true,
          already_open: true,
          channel: c.team.channels.toJson(ch, c.token.userId),
        };
      }
      const users = String(c.params.users ?? '')
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
      if (users.length === 0) throw new SlackError('users_list_not_supplied');
      if (users.length > 8) throw new SlackError('too_many_users');
      for (const u of users)
        if (!c.team.users.get(u) || c.team.users.isDeleted(c.team.users.get(u)!))
          throw new SlackError('user_not_found');
      if (users.length > 1)
        throw new SlackError('method_not_supported_for_channel_type', { detail: 'mpims are not emulated' });
      const { ch, created } = c.team.channels.openIm(c.token.userId, users[0] as string);
      const full = boolArg(c.params.return_im);
      return {
        ok: true,
        ...(created ? {} : { no_op: true, already_open: true }),
        channel: full ? c.team.channels.toJson(ch, c.token.userId) : { id: ch.id },
      };
    },
  },
};
