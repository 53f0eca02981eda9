import { boolArg } from '../http/body.ts';
import { REACTION_NAMES } from '../generator/words.ts';
import {
  authed,
  channelOf,
  historyScope,
  required,
  SlackError,
  type AuthedContext,
  type MethodDef,
} from './registry.ts';

const VALID_NAME = /^[a-z0-9_+\-']+(::skin-tone-[2-6])?$/;

function target(c: AuthedContext, tsArg = 'timestamp') {
  if (!c.params.channel && !c.params.file) throw new SlackError('no_item_specified');
  const ch = channelOf(c);
  const ts = required(c, tsArg);
  const m = c.team.messages.find(ch.id, ts);
  if (!m) throw new SlackError('message_not_found');
  if ((ch.isPrivate || ch.isIm) && !c.team.channels.isMember(ch.id, c.token.userId))
    throw new SlackError('channel_not_found');
  return { ch, m, ts };
}

export const reactionPinMethods: Record<string, MethodDef> = {
  'reactions.add': {
    tier: 3,
    scope: 'reactions:write',
    handle: (call) => {
      const c = authed(call);
      const name = required(c, 'name').replace(/^:|:$/g, '');
      const { ch, m, ts } = target(c);
      if (!VALID_NAME.test(name) || (!REACTION_NAMES.has(name) && name.length > 40))
        throw new SlackError('invalid_name');
      const mine = m.reactions?.find((r) => r.name === name)?.users.includes(c.token.userId);
      if (mine) throw new SlackError('already_reacted');
      if ((m.reactions?.length ?? 0) >= 50) throw new SlackError('too_many_reactions');
      c.team.react(ch.id, ts, name, c.token.userId, true);
      return { ok: true };
    },
  },
  'reactions.remove': {
    tier: 3,
    scope: 'reactions:write',
    handle: (call) => {
      const c = authed(call);
      const name = required(c, 'name').replace(/^:|:$/g, '');
      const { ch, m, ts } = target(c);
      if (!m.reactions?.find((r) => r.name === name)?.users.includes(c.token.userId))
        throw new SlackError('no_reaction');
      c.team.react(ch.id, ts, name, c.token.userId, false);
      return { ok: true };
    },
  },
  'reactions.get': {
    tier: 3,
    scope: 'reactions:read',
    handle: (call) => {
      const c = authed(call);
      const { ch, m } = target(c);
      const message = boolArg(c.params.full) ? m : m;
      return {
        ok: true,
        type: 'message',
        channel: ch.id,
        message: { ...message, permalink: `${c.core.baseUrl()}/archives/${ch.id}/p${m.ts.replace('.', '')}` },
      };
    },
  },
  'pins.add': {
    tier: 2,
    scope: 'pins:write',
    handle: (call) => {
      const c = authed(call);
      const { ch, ts } = target(c);
      if (!c.team.channels.isMember(ch.id, c.token.userId)) throw new SlackError('not_in_channel');
      const pins = c.team.messages.pins(ch.id);
      if (pins.has(ts)) throw new SlackError('already_pinned');
      if (pins.size >= 100) throw new SlackError('too_many_pins');
      pins.add(ts);
      c.team.emit(
        {
          type: 'pin_added',
          user: c.token.userId,
          channel_id: ch.id,
          item: { type: 'message', channel: ch.id, message: c.team.messages.find(ch.id, ts) },
        },
        ch.id,
      );
      return { ok: true };
    },
  },
  'pins.remove': {
    tier: 2,
    scope: 'pins:write',
    handle: (call) => {
      const c = authed(call);
      const { ch, ts } = target(c);
      const pins = c.team.messages.pins(ch.id);
      if (!pins.has(ts)) throw new SlackError('no_pin');
      pins.delete(ts);
      c.team.emit(
        {
          type: 'pin_removed',
          user: c.token.userId,
          channel_id: ch.id,
          item: { type: 'message', channel: ch.id, message: c.team.messages.find(ch.id, ts) },
        },
        ch.id,
      );
      return { ok: true };
    },
  },
};

export const pinScope = historyScope;
