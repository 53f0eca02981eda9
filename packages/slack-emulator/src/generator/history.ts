import { formatTs } from '../ids.ts';
import type { SlackMessage } from '../types.ts';
import { rngFor, type Rng } from './prng.ts';
import { isGenMemberAt, type GenChannel, type Workspace } from './workspace.ts';
import { CLOSERS, INTEGRATION_BOTS, OPENERS, REACTIONS, REPLIES, TOPICS } from './words.ts';

const DAY = 86400;
/** Relative activity per local hour (team clock is UTC-5): quiet nights, busy late mornings and afternoons. */
const HOUR_WEIGHTS = [1, 1, 1, 1, 1, 2, 4, 7, 10, 12, 13, 12, 9, 11, 12, 12, 11, 9, 7, 5, 4, 3, 2, 1];
const TEAM_OFFSET = -5 * 3600;
/** Monday..Sunday weight (index = (UTC day + 3) % 7 with 1970-01-01 a Thursday). */
const WEEKDAY_WEIGHTS = [1.05, 1.15, 1.1, 1.05, 0.9, 0.35, 0.3];
const WEEKDAY_MEAN = WEEKDAY_WEIGHTS.reduce((a, b) => a + b, 0) / 7;

export const dayStart = (ws: Workspace, day: number): number => ws.startTime + day * DAY;
export const dayOf = (ws: Workspace, seconds: number): number => Math.floor((seconds - ws.startTime) / DAY);
export const integrationBotId = (ws: Workspace, i: number): string =>
  `B${ws.teamNo.toString(36).toUpperCase().padStart(2, '0')}INTBOT${i}`;

/** Expected top-level+reply volume for one channel on one day. */
function expectedCount(ws: Workspace, ch: GenChannel, day: number): number {
  const start = dayStart(ws, day);
  if (start + DAY <= ch.created) return 0;
  const weekday = (Math.floor((start + TEAM_OFFSET + DAY / 2) / DAY) + 3) % 7;
  const growth = 0.8 + (0.4 * (day + 0.5)) / ws.spec.days;
  return ch.dailyRate * ((WEEKDAY_WEIGHTS[weekday] ?? 1) / WEEKDAY_MEAN) * growth;
}

function sampleSecond(r: Rng, start: number, from: number): number {
  for (let i = 0; i < 6; i++) {
    const s = from + r.int(start + DAY - from);
    const hour = Math.floor(((((s + TEAM_OFFSET) % DAY) + DAY) % DAY) / 3600);
    if (r.next() * 13 < (HOUR_WEIGHTS[hour] ?? 1)) return s;
  }
  return from + r.int(start + DAY - from);
}

/** Picks an author who is in the channel at `at` (weighted by activity), or undefined. */
function pickMember(ws: Workspace, ch: GenChannel, r: Rng, at: number): string | undefined {
  const total = ch.cumWeight[ch.cumWeight.length - 1] ?? 0;
  for (let attempt = 0; attempt < 8; attempt++) {
    const x = r.next() * total;
    let lo = 0;
    let hi = ch.cumWeight.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ch.cumWeight[mid] as number) < x) lo = mid + 1;
      else hi = mid;
    }
    if (isGenMemberAt(ws, ch, lo, at)) return ws.members[ch.members[lo] as number]?.id;
  }
  return undefined;
}

function messageText(ws: Workspace, ch: GenChannel, r: Rng, at: number): string {
  let text = `${r.pick(OPENERS)} ${r.pick(TOPICS)} ${r.pick(TOPICS)} ${r.pick(CLOSERS)}`;
  if (r.chance(0.08)) {
    const who = pickMember(ws, ch, r, at);
    if (who) text = `<@${who}> ${text}`;
  }
  if (r.chance(0.03)) text += ` See <https://example.com/${r.pick(TOPICS)}|the ${r.pick(TOPICS)} doc>`;
  return text;
}

function addReactions(ws: Workspace, ch: GenChannel, r: Rng, msg: SlackMessage, at: number): void {
  if (!r.chance(0.25)) return;
  const kinds = Math.min(4, Math.floor(r.pareto(2)));
  const reactions: { name: string; users: string[]; count: number }[] = [];
  for (let k = 0; k < kinds; k++) {
    const name = r.pick(REACTIONS);
    if (reactions.some((x) => x.name === name)) continue;
    const users = new Set<string>();
    const want = Math.min(25, Math.floor(r.pareto(1.4)));
    for (let u = 0; u < want; u++) {
      const who = pickMember(ws, ch, r, at + 60);
      if (who) users.add(who);
    }
    if (users.size > 0) reactions.push({ name, users: [...users], count: users.size });
  }
  if (reactions.length > 0) msg.reactions = reactions;
}

type Draft = { sec: number; msg: SlackMessage; parent?: Draft; replies?: Draft[] };

/**
 * Every message of one channel on one day (top-level, replies, joins and leaves), oldest first.
 * A pure function of (seed, size, channel, day): history pages are regenerated on demand.
 */
export function generateDay(ws: Workspace, ch: GenChannel, day: number): SlackMessage[] {
  const start = dayStart(ws, day);
  const end = Math.min(start + DAY, ws.endTime + 1);
  const from = Math.max(start, ch.created + 1);
  if (day < 0 || day >= ws.spec.days || from >= end) return [];
  const r = rngFor(ws.spec.seed, 'day', ch.index, day);
  const target = r.poisson(expectedCount(ws, ch, day));
  const drafts: Draft[] = [];
  let produced = 0;
  for (let guard = 0; produced < target && guard < target * 3; guard++) {
    const sec = sampleSecond(r, start, from);
    if (r.chance(0.015)) {
      const b = r.int(INTEGRATION_BOTS.length);
      const bot = INTEGRATION_BOTS[b] as (typeof INTEGRATION_BOTS)[number];
      const text = `${bot.text} ${r.pick(TOPICS)} ${r.pick(TOPICS)}`;
      const msg: SlackMessage = {
        type: 'message',
        subtype: 'bot_message',
        ts: '',
        text,
        bot_id: integrationBotId(ws, b),
      };
      msg.username = bot.name;
      drafts.push({ sec, msg });
      produced++;
      continue;
    }
    const user = pickMember(ws, ch, r, sec);
    if (!user) continue;
    const parent: Draft = {
      sec,
      msg: { type: 'message', ts: '', user, text: messageText(ws, ch, r, sec), team: ws.teamId },
    };
    if (r.chance(0.03)) parent.msg.edited = { user, ts: '' };
    addReactions(ws, ch, r, parent.msg, sec);
    drafts.push(parent);
    produced++;
    if (!r.chance(0.2)) continue;
    const replies = Math.min(60, Math.floor(r.pareto(1.3)), Math.max(1, target - produced));
    let t = sec;
    parent.replies = [];
    for (let k = 0; k < replies; k++) {
      t += 1 + Math.floor(-Math.log(1 - r.next()) * 1200);
      if (t >= end) break;
      const author = r.chance(0.35) ? user : pickMember(ws, ch, r, t);
      if (!author) continue;
      const reply: Draft = {
        sec: t,
        parent,
        msg: { type: 'message', ts: '', user: author, text: r.pick(REPLIES), team: ws.teamId },
      };
      reply.msg.parent_user_id = user;
      addReactions(ws, ch, r, reply.msg, t);
      parent.replies.push(reply);
      drafts.push(reply);
      produced++;
    }
  }
  addMembershipMessages(ws, ch, start, end, drafts);
  const kept = drafts.filter((d) => d.sec < end && d.sec >= start).sort((a, b) => a.sec - b.sec);
  kept.forEach((d, i) => {
    d.msg.ts = formatTs(d.sec, i + 1);
    if (d.msg.edited) d.msg.edited.ts = formatTs(d.sec + 30 + (i % 600), 0);
  });
  for (const d of kept) {
    if (d.parent) d.msg.thread_ts = d.parent.msg.ts;
    if (d.replies && d.replies.length > 0) {
      const users = [...new Set(d.replies.map((x) => x.msg.user as string))];
      Object.assign(d.msg, {
        thread_ts: d.msg.ts,
        reply_count: d.replies.length,
        reply_users: users.slice(0, 5),
        reply_users_count: users.length,
        latest_reply: d.replies[d.replies.length - 1]?.msg.ts,
      });
    }
  }
  return kept.map((d) => d.msg);
}

function addMembershipMessages(
  ws: Workspace,
  ch: GenChannel,
  start: number,
  end: number,
  out: Draft[],
): void {
  for (const [order, times, subtype, verb] of [
    [ch.joinOrder, ch.joinAt, 'channel_join', 'joined'],
    [ch.leaveOrder, ch.leaveAt, 'channel_leave', 'left'],
  ] as const) {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((times[order[mid] as number] as number) < start) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < order.length; i++) {
      const k = order[i] as number;
      const at = times[k] as number;
      if (at >= end) break;
      if (at < ws.startTime || (subtype === 'channel_join' && at === 0)) continue;
      const user = ws.members[ch.members[k] as number]?.id as string;
      out.push({
        sec: at,
        msg: { type: 'message', subtype, ts: '', user, text: `<@${user}> has ${verb} the channel` },
      });
    }
  }
}
