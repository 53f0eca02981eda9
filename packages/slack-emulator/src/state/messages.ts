import { dayOf, generateDay } from '../generator/history.ts';
import type { Workspace } from '../generator/workspace.ts';
import { compareTs, formatTs, tsSeconds } from '../ids.ts';
import type { Reaction, SlackMessage } from '../types.ts';
import type { Channels } from './channels.ts';
import { nowSeconds, type TeamContext } from './context.ts';

type Patch = Partial<Pick<SlackMessage, 'text' | 'blocks' | 'attachments' | 'edited' | 'reactions'>> & {
  deleted?: boolean;
};
export type Page = { messages: SlackMessage[]; hasMore: boolean; nextTs?: string };
export type HistoryQuery = {
  latest?: string;
  oldest?: string;
  inclusive?: boolean;
  limit: number;
  before?: string;
};

const keyOf = (channel: string, ts: string): string => `${channel}:${ts}`;
const isTopLevel = (m: SlackMessage): boolean => !m.thread_ts || m.thread_ts === m.ts;
const CACHE_DAYS = 1500;

/** Messages of one team: generated history regenerated on demand, plus an overlay of live writes. */
export function createMessages(ws: Workspace, ctx: TeamContext, channels: Channels) {
  const live = new Map<string, SlackMessage[]>();
  const liveByKey = new Map<string, SlackMessage>();
  const liveReplies = new Map<string, SlackMessage[]>();
  const patches = new Map<string, Patch>();
  const touchedThreads = new Set<string>();
  const pins = new Map<string, Set<string>>();
  const lastTs = new Map<string, [number, number]>();
  const cache = new Map<string, SlackMessage[]>();

  const day = (channel: string, d: number): SlackMessage[] => {
    const gen = channels.get(channel)?.gen;
    if (!gen || d < 0 || d >= ws.spec.days) return [];
    const k = `${channel}/${d}`;
    let arr = cache.get(k);
    if (arr) {
      cache.delete(k);
    } else {
      arr = generateDay(ws, gen, d);
      if (cache.size >= CACHE_DAYS) cache.delete(cache.keys().next().value as string);
    }
    cache.set(k, arr);
    return arr;
  };

  const rawGenerated = (channel: string, ts: string): SlackMessage | undefined => {
    const sec = tsSeconds(ts);
    if (sec > ws.endTime || sec < ws.startTime) return undefined;
    const arr = day(channel, dayOf(ws, sec));
    let lo = 0;
    let hi = arr.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareTs((arr[mid] as SlackMessage).ts, ts);
      if (c === 0) return arr[mid];
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  };
  const raw = (channel: string, ts: string): SlackMessage | undefined =>
    liveByKey.get(keyOf(channel, ts)) ?? rawGenerated(channel, ts);

  /** Replies of a thread as they are now (patched, deleted ones dropped), oldest first. */
  const threadReplies = (channel: string, parentTs: string): SlackMessage[] => {
    const parent = raw(channel, parentTs);
    const out: SlackMessage[] = [];
    if (parent && !liveByKey.has(keyOf(channel, parentTs))) {
      for (const m of day(channel, dayOf(ws, tsSeconds(parentTs)))) {
        if (m.thread_ts === parentTs && m.ts !== parentTs) push(out, channel, m);
      }
    }
    for (const m of liveReplies.get(keyOf(channel, parentTs)) ?? []) push(out, channel, m);
    return out;
  };
  const push = (out: SlackMessage[], channel: string, m: SlackMessage): void => {
    const v = view(channel, m, false);
    if (v) out.push(v);
  };

  /** A message as the API shows it now; undefined if deleted (unless keepDeleted). */
  function view(
    channel: string,
    m: SlackMessage,
    withThread = true,
    keepDeleted = false,
  ): SlackMessage | undefined {
    const key = keyOf(channel, m.ts);
    const patch = patches.get(key);
    if (patch?.deleted && !keepDeleted) return undefined;
    let out = m;
    if (patch) {
      const { deleted: _deleted, ...rest } = patch;
      out = { ...m, ...rest };
      if (out.reactions?.length === 0) delete out.reactions;
    }
    // Slack's message object lists the channels a message is pinned in (`pinned_to`).
    if (pins.get(channel)?.has(m.ts)) out = { ...out, pinned_to: [channel] };
    if (withThread && touchedThreads.has(key)) {
      const replies = threadReplies(channel, m.ts);
      out = { ...out };
      delete out.reply_count;
      delete out.reply_users;
      delete out.reply_users_count;
      delete out.latest_reply;
      if (out.thread_ts === out.ts) delete out.thread_ts;
      if (replies.length > 0) {
        const users = [...new Set(replies.map((r) => r.user ?? r.bot_id ?? ''))].filter(Boolean);
        Object.assign(out, {
          thread_ts: m.ts,
          reply_count: replies.length,
          reply_users: users.slice(0, 5),
          reply_users_count: users.length,
          latest_reply: replies[replies.length - 1]?.ts,
        });
      }
    }
    return out;
  }

  function* generatedDesc(channel: string, fromSec: number, toSec: number): Generator<SlackMessage> {
    const first = Math.min(ws.spec.days - 1, dayOf(ws, Math.min(fromSec, ws.endTime)));
    const last = Math.max(0, dayOf(ws, Math.max(toSec, ws.startTime)));
    for (let d = first; d >= last; d--) {
      const arr = day(channel, d);
      for (let i = arr.length - 1; i >= 0; i--) yield arr[i] as SlackMessage;
    }
  }

  /** conversations.history: top-level messages newest first within (oldest, latest). */
  const history = (channel: string, q: HistoryQuery): Page => {
    const latest = q.before ?? q.latest ?? '9999999999.999999';
    const oldest = q.oldest ?? '0000000000.000000';
    const inclusive = q.before ? false : (q.inclusive ?? false);
    const inRange = (ts: string): boolean => {
      const hi = compareTs(ts, latest);
      const lo = compareTs(ts, oldest);
      return (inclusive ? hi <= 0 : hi < 0) && (inclusive ? lo >= 0 : lo > 0);
    };
    const out: SlackMessage[] = [];
    const liveTop = (live.get(channel) ?? []).filter(isTopLevel);
    const take = (m: SlackMessage): boolean => {
      if (!isTopLevel(m) || !inRange(m.ts)) return false;
      const v = view(channel, m);
      if (v) out.push(v);
      return out.length > q.limit;
    };
    let done = false;
    for (let i = liveTop.length - 1; i >= 0 && !done; i--) done = take(liveTop[i] as SlackMessage);
    if (!done) {
      for (const m of generatedDesc(channel, tsSeconds(latest), tsSeconds(oldest))) {
        if (compareTs(m.ts, oldest) < 0) break;
        if (take(m)) break;
      }
    }
    const hasMore = out.length > q.limit;
    const messages = out.slice(0, q.limit);
    return { messages, hasMore, nextTs: hasMore ? messages[messages.length - 1]?.ts : undefined };
  };

  const find = (channel: string, ts: string): SlackMessage | undefined => {
    const m = raw(channel, ts);
    return m ? view(channel, m) : undefined;
  };

  const nextTs = (channel: string): string => {
    const sec = Math.max(nowSeconds(ctx), ws.endTime + 1);
    const [lastSec, lastMicro] = lastTs.get(channel) ?? [0, 0];
    const next: [number, number] = sec > lastSec ? [sec, 1] : [lastSec, lastMicro + 1];
    lastTs.set(channel, next);
    return formatTs(next[0], next[1]);
  };

  /** Stores a new message (ts assigned here) and returns it. */
  const post = (channel: string, msg: Omit<SlackMessage, 'ts' | 'type'>): SlackMessage => {
    const m: SlackMessage = { type: 'message', ...msg, ts: nextTs(channel) };
    const list = live.get(channel) ?? [];
    list.push(m);
    live.set(channel, list);
    liveByKey.set(keyOf(channel, m.ts), m);
    if (m.thread_ts && m.thread_ts !== m.ts) {
      const k = keyOf(channel, m.thread_ts);
      liveReplies.set(k, [...(liveReplies.get(k) ?? []), m]);
      touchedThreads.add(k);
    }
    return m;
  };

  const patch = (channel: string, ts: string, change: Patch): SlackMessage | undefined => {
    const m = raw(channel, ts);
    if (!m) return undefined;
    const k = keyOf(channel, ts);
    patches.set(k, { ...patches.get(k), ...change });
    if (m.thread_ts && m.thread_ts !== ts) touchedThreads.add(keyOf(channel, m.thread_ts));
    return view(channel, m, true, true);
  };

  const setReaction = (channel: string, ts: string, name: string, user: string, add: boolean): Reaction[] => {
    const current = (find(channel, ts)?.reactions ?? []).map((r) => ({ ...r, users: [...r.users] }));
    let r = current.find((x) => x.name === name);
    if (add && !r) current.push((r = { name, users: [], count: 0 }));
    if (r) {
      r.users = add ? [...r.users.filter((u) => u !== user), user] : r.users.filter((u) => u !== user);
      r.count = r.users.length;
    }
    const next = current.filter((x) => x.count > 0);
    patch(channel, ts, { reactions: next });
    return next;
  };

  /** Every message of a channel oldest first, including replies and deleted ones (ground truth). */
  function* all(
    channel: string,
    fromSec = 0,
    toSec = Infinity,
  ): Generator<SlackMessage & { deleted?: boolean; origin: 'generated' | 'live' }> {
    const first = Math.max(0, dayOf(ws, Math.max(fromSec, ws.startTime)));
    const last = Math.min(ws.spec.days - 1, dayOf(ws, Math.min(toSec, ws.endTime)));
    for (let d = first; d <= last; d++) {
      for (const m of day(channel, d)) yield* truthOf(channel, m, 'generated', fromSec, toSec);
    }
    for (const m of live.get(channel) ?? []) yield* truthOf(channel, m, 'live', fromSec, toSec);
  }
  function* truthOf(
    channel: string,
    m: SlackMessage,
    origin: 'generated' | 'live',
    from: number,
    to: number,
  ) {
    const sec = tsSeconds(m.ts);
    if (sec < from || sec > to) return;
    const v = view(channel, m, true, true) as SlackMessage;
    yield patches.get(keyOf(channel, m.ts))?.deleted ? { ...v, deleted: true, origin } : { ...v, origin };
  }

  return {
    history,
    find,
    threadReplies,
    post,
    patch,
    setReaction,
    all,
    pins: (channel: string): Set<string> => {
      let set = pins.get(channel);
      if (!set) pins.set(channel, (set = new Set()));
      return set;
    },
  };
}

export type Messages = ReturnType<typeof createMessages>;
