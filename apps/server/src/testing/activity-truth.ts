import { sql } from 'drizzle-orm';
import type { Emulator } from '@flywheel/slack-emulator';
import { typedRows, type Tx } from '../db/sql.ts';
import { localDay, tsToDate } from '../lib/days.ts';

/** Subtypes that are a member writing (the rest are Slack's own notices): what activity counts. */
const COUNTED_SUBTYPES = ['thread_broadcast', 'file_share', 'me_message'];

/**
 * Ground truth, counted independently from the emulator's raw rows, as Slack counts them and the bot can see them:
 * messages and replies per local day, member and channel; reactions per member and channel; the channels the bot
 * is in; how many messages came live (not from the generated history).
 */
export function expectedActivity(emu: Emulator, teamId: string, tz: string) {
  const truth = emu.truth(teamId);
  const botUser = truth.install()?.botUserId;
  const visible = new Set(
    truth
      .channels()
      .filter((c) => !c.is_im && (c.members as string[]).includes(botUser!))
      .map((c) => c.id as string),
  );
  const bots = new Set<string>();
  for (const m of truth.members()) if (m.is_bot) bots.add(m.id);
  const daily = new Map<string, { messages: number; replies: number }>();
  const reactions = new Map<string, number>();
  let live = 0;
  for (const m of truth.messages()) {
    if (!visible.has(m.channel) || m.deleted) continue;
    if (m.subtype && !COUNTED_SUBTYPES.includes(m.subtype)) continue;
    if (m.bot_id || !m.user || bots.has(m.user)) continue;
    const isReply = Boolean(m.thread_ts) && m.thread_ts !== m.ts;
    const key = `${localDay(tsToDate(m.ts), tz)}|${m.user}|${m.channel}`;
    const d = daily.get(key) ?? { messages: 0, replies: 0 };
    if (isReply) d.replies++;
    else d.messages++;
    daily.set(key, d);
    if (m.origin === 'live') live++;
    for (const r of m.reactions ?? [])
      for (const u of r.users)
        reactions.set(`${u}|${m.channel}`, (reactions.get(`${u}|${m.channel}`) ?? 0) + 1);
  }
  return { daily, reactions, visible, live };
}

/** The same figures as stored in activity_daily (zero rows left out). */
export async function storedActivity(db: Tx, teamId: string) {
  const daily = new Map<string, { messages: number; replies: number }>();
  const reactions = new Map<string, number>();
  type Row = {
    day: string;
    member_id: string;
    channel_id: string;
    messages: number;
    replies: number;
    reactions: number;
  };
  for (const r of await typedRows<Row>(
    db,
    sql`select day::text as day, member_id, channel_id, messages, replies, reactions from activity_daily where team_id = ${teamId}`,
  )) {
    if (r.messages || r.replies)
      daily.set(`${r.day}|${r.member_id}|${r.channel_id}`, { messages: r.messages, replies: r.replies });
    if (r.reactions)
      reactions.set(
        `${r.member_id}|${r.channel_id}`,
        (reactions.get(`${r.member_id}|${r.channel_id}`) ?? 0) + r.reactions,
      );
  }
  return { daily, reactions };
}

/** The workspace's timezone as stored (the rollups' local days are in it). */
export async function workspaceTz(db: Tx, teamId: string): Promise<string> {
  const [row] = await typedRows<{ timezone: string }>(
    db,
    sql`select timezone from workspaces where team_id = ${teamId}`,
  );
  return row!.timezone;
}
