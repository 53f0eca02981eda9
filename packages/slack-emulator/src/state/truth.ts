import type { Auth } from '../auth.ts';
import { tsSeconds } from '../ids.ts';
import type { Json, TruthMessage } from '../types.ts';
import type { Team } from './team.ts';

export type TruthMember = Json & {
  id: string;
  joined_at: number;
  deleted_at: number | null;
  is_bot: boolean;
};
export type MembershipEvent = {
  channel: string;
  user: string;
  kind: 'join' | 'leave';
  at: number;
  origin: 'generated' | 'live';
};
export type MessageFilter = { channel?: string; oldest?: number; latest?: number };

/** Ground truth of one team, read straight from what the emulator holds (streams for big workspaces). */
export function createTruth(team: Team, auth: Auth) {
  function* members(): Generator<TruthMember> {
    for (const id of team.users.ids()) {
      const u = team.users.get(id);
      if (!u) continue;
      yield {
        ...team.users.toJson(u),
        id,
        joined_at: u.joinedAt,
        deleted_at: u.deletedAt || null,
        is_bot: u.isBot,
      };
    }
  }

  const channels = (): Json[] =>
    team.channels
      .all()
      .map((ch) => ({ ...team.channels.toJson(ch), members: team.channels.members(ch.id), is_im: ch.isIm }));

  function* membershipEvents(channel?: string): Generator<MembershipEvent> {
    for (const g of team.ws.channels) {
      if (channel && g.id !== channel) continue;
      for (let k = 0; k < g.members.length; k++) {
        const user = team.ws.members[g.members[k] as number]?.id as string;
        yield { channel: g.id, user, kind: 'join', at: g.joinAt[k] as number, origin: 'generated' };
        const leave = g.leaveAt[k] as number;
        if (leave) yield { channel: g.id, user, kind: 'leave', at: leave, origin: 'generated' };
      }
    }
    for (const c of team.channels.changes()) {
      if (!channel || c.channel === channel)
        yield { channel: c.channel, user: c.user, kind: c.kind, at: c.at, origin: 'live' };
    }
  }

  /** Every message (top-level, replies, joins/leaves, deleted ones flagged), channel by channel, oldest first. */
  function* messages(filter: MessageFilter = {}): Generator<TruthMessage> {
    for (const ch of team.channels.all()) {
      if (filter.channel && ch.id !== filter.channel) continue;
      for (const m of team.messages.all(ch.id, filter.oldest ?? 0, filter.latest ?? Infinity)) {
        if (filter.latest !== undefined && tsSeconds(m.ts) > filter.latest) continue;
        yield { ...m, channel: ch.id };
      }
    }
  }

  return {
    team: { id: team.id, name: team.name, domain: team.domain },
    window: { start: team.ws.startTime, end: team.ws.endTime, days: team.ws.spec.days },
    spec: team.ws.spec,
    members,
    channels,
    membershipEvents,
    messages,
    install: () => auth.installs.get(team.id),
  };
}

export type Truth = ReturnType<typeof createTruth>;
