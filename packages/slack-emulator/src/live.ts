import type { Core } from './core.ts';
import { rngFor } from './generator/prng.ts';
import { FIRST_NAMES, LAST_NAMES, REACTIONS, REPLIES, TOPICS, OPENERS, CLOSERS } from './generator/words.ts';
import type { Team } from './state/team.ts';

export type LiveOptions = {
  /** Milliseconds between bursts of activity. */
  intervalMs: number;
  /** Actions per burst (default 1). */
  actionsPerTick?: number;
  /** Limit to one team (default: every team). */
  teamId?: string;
  seed?: number;
};

/** One random member action, as a member would do it on Slack (produces the matching events). */
export function liveAction(team: Team, seed: number, tick: number): string {
  const r = rngFor(seed, 'live', team.id, tick);
  const channels = team.channels.all().filter((c) => !c.isIm && !c.isArchived);
  const ch = channels[Math.min(channels.length - 1, Math.floor(Math.pow(r.next(), 2) * channels.length))];
  if (!ch) return 'none';
  const members = team.channels.members(ch.id).filter((id) => !team.users.get(id)?.isBot);
  const user = r.pick(members);
  if (!user) return 'none';
  const roll = r.next();
  const recent = team.messages.history(ch.id, { limit: 8 }).messages.filter((m) => !m.subtype);
  const target = recent.length ? r.pick(recent) : undefined;
  if (roll < 0.02) {
    team.addMember({ realName: `${r.pick(FIRST_NAMES)} ${r.pick(LAST_NAMES)}` });
    return 'team_join';
  }
  if (roll < 0.04) {
    const other = channels.find((c) => !c.isPrivate && !team.channels.isMember(c.id, user));
    if (other) {
      team.joinChannel(other.id, user);
      return 'member_joined_channel';
    }
  }
  if (roll < 0.25 && target) {
    team.postMessage(ch.id, {
      user,
      text: r.pick(REPLIES),
      team: team.id,
      thread_ts: target.ts,
      parent_user_id: target.user,
    });
    return 'reply';
  }
  if (roll < 0.45 && target) {
    const name = r.pick(REACTIONS);
    if (!target.reactions?.some((x) => x.name === name && x.users.includes(user))) {
      team.react(ch.id, target.ts, name, user, true);
      return 'reaction';
    }
  }
  team.postMessage(ch.id, {
    user,
    text: `${r.pick(OPENERS)} ${r.pick(TOPICS)} ${r.pick(CLOSERS)}`,
    team: team.id,
  });
  return 'message';
}

/** The demo's "trickle of live activity": random posts, replies, reactions and joins every interval. */
export function startLive(core: Core, options: LiveOptions): { stop(): void } {
  let tick = 0;
  const timer = setInterval(() => {
    for (const team of core.teams.values()) {
      if (options.teamId && team.id !== options.teamId) continue;
      for (let i = 0; i < (options.actionsPerTick ?? 1); i++)
        liveAction(team, options.seed ?? team.ws.spec.seed, tick++);
    }
  }, options.intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
