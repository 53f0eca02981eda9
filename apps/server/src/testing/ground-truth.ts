import { localDay, tsToDate } from '../lib/days.ts';
import type { SlackTestEnv } from './slack.ts';

/* eslint-disable @typescript-eslint/no-explicit-any */

export type Counts = { messages: number; replies: number; reactions: number };

/** A workspace as the emulator holds it, computed from its raw rows alone (never through the product's SQL). */
export type GroundTruth = {
  people: {
    id: string;
    real_name: string;
    display_name: string;
    email: string;
    /** Epoch seconds. */
    joined: number;
    left: number | null;
  }[];
  /** member -> local day -> channel -> counts */
  activity: Map<string, Map<string, Map<string, Counts>>>;
  channelMembers: Map<string, Set<string>>;
  /** The channels the app's bot is in (the ones it can read), sorted. */
  visible: string[];
};

/** Members (bots left out), per-day-and-channel counts in the workspace's timezone, and channel members. */
export function groundTruth(env: SlackTestEnv, teamId: string, tz: string): GroundTruth {
  const t = env.emu.truth(teamId);
  const botUser = t.install()?.botUserId;
  const channels = t.channels().filter((c: any) => !c.is_im && (c.members as string[]).includes(botUser!));
  const visible = new Set(channels.map((c: any) => c.id as string));
  const bots = new Set<string>();
  const people: GroundTruth['people'] = [];
  for (const m of t.members()) {
    if (m.is_bot) {
      bots.add(m.id);
      continue;
    }
    const p = (m as any).profile ?? {};
    people.push({
      id: m.id,
      real_name: String((m as any).real_name ?? p.real_name ?? ''),
      display_name: String(p.display_name ?? ''),
      email: String(p.email ?? ''),
      joined: m.joined_at,
      left: m.deleted_at,
    });
  }
  const activity = new Map<string, Map<string, Map<string, Counts>>>();
  const bump = (user: string, day: string, channel: string, k: keyof Counts) => {
    const byDay = activity.get(user) ?? new Map();
    activity.set(user, byDay);
    const byChannel = byDay.get(day) ?? new Map();
    byDay.set(day, byChannel);
    const c = byChannel.get(channel) ?? { messages: 0, replies: 0, reactions: 0 };
    byChannel.set(channel, c);
    c[k]++;
  };
  for (const m of t.messages()) {
    if (!visible.has(m.channel) || m.deleted) continue;
    if (m.subtype && !['thread_broadcast', 'file_share', 'me_message'].includes(m.subtype)) continue;
    if (m.bot_id || !m.user || bots.has(m.user)) continue;
    const day = localDay(tsToDate(m.ts), tz);
    bump(m.user, day, m.channel, m.thread_ts && m.thread_ts !== m.ts ? 'replies' : 'messages');
    for (const r of m.reactions ?? []) for (const u of r.users) bump(u, day, m.channel, 'reactions');
  }
  const channelMembers = new Map<string, Set<string>>();
  for (const c of channels) channelMembers.set(c.id as string, new Set(c.members as string[]));
  return { people, activity, channelMembers, visible: [...visible].sort() };
}

export type TruthWindow = { fromDay: string; toDay: string; channels?: string[] };

/** A member's counts over a window of local days (both included), in some channels or all. */
export function countsIn(truth: GroundTruth, id: string, w: TruthWindow): Counts {
  const out = { messages: 0, replies: 0, reactions: 0 };
  for (const [day, byChannel] of truth.activity.get(id) ?? []) {
    if (day < w.fromDay || day > w.toDay) continue;
    for (const [channel, c] of byChannel) {
      if (w.channels && !w.channels.includes(channel)) continue;
      out.messages += c.messages;
      out.replies += c.replies;
      out.reactions += c.reactions;
    }
  }
  return out;
}
