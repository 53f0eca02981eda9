import { channelIdFor, teamIdFor, userIdFor } from '../ids.ts';
import { rngFor } from './prng.ts';
import { CHANNEL_NAMES, COLORS, FIRST_NAMES, LAST_NAMES, TIMEZONES, TITLES, TOPICS } from './words.ts';

export type WorkspaceSpec = {
  seed: number;
  members: number;
  channels: number;
  days: number;
  /** Approximate total messages (top-level + replies) over the whole window. */
  messages?: number;
  /** End of generated history, epoch seconds (defaults to "now" at start). */
  endTime?: number;
  name?: string;
  domain?: string;
};

export type GenMember = {
  index: number;
  id: string;
  username: string;
  firstName: string;
  lastName: string;
  realName: string;
  displayName: string;
  email: string;
  title: string;
  color: string;
  tz: (typeof TIMEZONES)[number];
  isAdmin: boolean;
  isOwner: boolean;
  isPrimaryOwner: boolean;
  isRestricted: boolean;
  /** Epoch seconds the member joined the workspace. */
  joinedAt: number;
  /** Epoch seconds the member was deactivated, 0 = active. */
  deletedAt: number;
  /** Relative activity (heavy tailed). */
  weight: number;
};

export type GenChannel = {
  index: number;
  id: string;
  name: string;
  isPrivate: boolean;
  isGeneral: boolean;
  created: number;
  creator: string;
  topic: string;
  purpose: string;
  /** Expected messages per day (before weekly rhythm and growth). */
  dailyRate: number;
  /** Member indices, with join/leave times (epoch s; leave 0 = never). */
  members: Int32Array;
  joinAt: Float64Array;
  leaveAt: Float64Array;
  /** Cumulative activity weight over `members`, for picking authors. */
  cumWeight: Float64Array;
  /** Positions into `members` ordered by join time / leave time. */
  joinOrder: Int32Array;
  leaveOrder: Int32Array;
};

export type Workspace = {
  spec: Required<Omit<WorkspaceSpec, 'name' | 'domain'>> & { name: string; domain: string };
  teamNo: number;
  teamId: string;
  startTime: number;
  endTime: number;
  members: GenMember[];
  channels: GenChannel[];
  emailIndex(): Map<string, number>;
};

const DAY = 86400;

export function generateWorkspace(input: WorkspaceSpec, teamNo = 0): Workspace {
  const endTime = Math.floor(input.endTime ?? Date.now() / 1000);
  const seed = input.seed;
  const r = rngFor(seed, 'team');
  const word = r.pick(TOPICS);
  const name = input.name ?? `${word[0]?.toUpperCase()}${word.slice(1)} Community ${teamNo + 1}`;
  const domain = input.domain ?? `${word}-community-${teamNo + 1}`;
  const spec = {
    seed,
    members: Math.max(2, input.members),
    channels: Math.max(2, input.channels),
    days: Math.max(1, input.days),
    messages: input.messages || Math.round(input.members * input.days * 0.4),
    endTime,
    name,
    domain,
  };
  const startTime = endTime - spec.days * DAY;
  const members = generateMembers(spec, teamNo, startTime, endTime);
  const channels = generateChannels(spec, teamNo, startTime, endTime, members);
  let emails: Map<string, number> | undefined;
  return {
    spec,
    teamNo,
    teamId: teamIdFor(teamNo),
    startTime,
    endTime,
    members,
    channels,
    emailIndex: () => (emails ??= new Map(members.map((m) => [m.email, m.index]))),
  };
}

function generateMembers(spec: Workspace['spec'], teamNo: number, start: number, end: number): GenMember[] {
  const members: GenMember[] = [];
  const taken = new Set<string>();
  const admins = Math.min(10, Math.max(2, Math.floor(spec.members / 100)));
  for (let i = 0; i < spec.members; i++) {
    const r = rngFor(spec.seed, 'member', i);
    const firstName = r.pick(FIRST_NAMES);
    const lastName = r.pick(LAST_NAMES);
    let local = `${firstName}.${lastName}`.toLowerCase();
    if (taken.has(local)) local = `${local}${i}`;
    taken.add(local);
    const before = i === 0 || r.chance(0.75);
    const joinedAt = before
      ? Math.floor(start - (i === 0 ? 400 : r.range(1, 400)) * DAY - r.int(DAY))
      : Math.floor(start + Math.pow(r.next(), 0.8) * (end - start));
    const deletedAt =
      i > admins && r.chance(0.03) && joinedAt < end - DAY
        ? Math.floor(Math.max(joinedAt, start) + r.next() * (end - Math.max(joinedAt, start)))
        : 0;
    members.push({
      index: i,
      id: userIdFor(teamNo, i),
      username: local,
      firstName,
      lastName,
      realName: `${firstName} ${lastName}`,
      displayName: r.chance(0.7) ? firstName.toLowerCase() + (r.chance(0.3) ? r.int(100) : '') : '',
      email: `${local}@${spec.domain}.example.com`,
      title: r.pick(TITLES),
      color: r.pick(COLORS),
      tz: r.pick(TIMEZONES),
      isAdmin: i <= admins,
      isOwner: i === 0,
      isPrimaryOwner: i === 0,
      isRestricted: i > admins && r.chance(0.01),
      joinedAt,
      deletedAt,
      weight: Math.min(400, r.pareto(1.25)),
    });
  }
  return members;
}

function channelName(i: number): string {
  if (i === 0) return 'general';
  if (i === 1) return 'random';
  const base = CHANNEL_NAMES[(i - 2) % CHANNEL_NAMES.length] ?? 'team';
  const round = Math.floor((i - 2) / CHANNEL_NAMES.length);
  return round === 0 ? base : `${base}-${round + 1}`;
}

function generateChannels(
  spec: Workspace['spec'],
  teamNo: number,
  start: number,
  end: number,
  members: GenMember[],
): GenChannel[] {
  const drafts = [];
  let totalWeight = 0;
  for (let c = 0; c < spec.channels; c++) {
    const r = rngFor(spec.seed, 'channel', c);
    const isGeneral = c === 0;
    const created =
      c < 2 || r.chance(0.85) ? start - r.range(30, 500) * DAY : start + r.int(end - start - DAY);
    const fraction = c === 0 ? 1 : c === 1 ? 0.8 : Math.min(0.9, 0.01 + 0.45 * Math.pow(r.next(), 3));
    const weight = (isGeneral ? 2 : r.pareto(1.1)) * Math.sqrt(fraction);
    totalWeight += weight;
    drafts.push({ c, r, isGeneral, created, fraction, weight });
  }
  const perDay = spec.messages / spec.days;
  return drafts.map(({ c, r, isGeneral, created, fraction, weight }) => {
    const chosen = pickMembers(r, members.length, Math.max(3, Math.round(members.length * fraction)));
    const n = chosen.length;
    const joinAt = new Float64Array(n);
    const leaveAt = new Float64Array(n);
    const cumWeight = new Float64Array(n);
    let sum = 0;
    for (let k = 0; k < n; k++) {
      const m = members[chosen[k] as number] as GenMember;
      const base = Math.max(m.joinedAt, created);
      let at = base;
      if (!isGeneral && (base >= start || r.chance(0.08)))
        at = Math.max(base, start) + r.next() * (end - Math.max(base, start));
      else if (!isGeneral) at = base + r.next() * (start - base);
      joinAt[k] = Math.floor(at);
      leaveAt[k] = !isGeneral && r.chance(0.04) ? Math.floor(at + r.next() * (end - at)) : 0;
      sum += m.weight;
      cumWeight[k] = sum;
    }
    const order = (times: Float64Array): Int32Array =>
      Int32Array.from(
        Array.from({ length: n }, (_, k) => k).sort((a, b) => (times[a] ?? 0) - (times[b] ?? 0)),
      );
    const creator = members[Math.min(members.length - 1, r.int(Math.min(members.length, 10)))] as GenMember;
    const topic = r.pick(TOPICS);
    return {
      index: c,
      id: channelIdFor(teamNo, c),
      name: channelName(c),
      isPrivate: c > 1 && r.chance(0.15),
      isGeneral,
      created,
      creator: creator.id,
      topic: `All things ${topic}`,
      purpose: isGeneral ? 'Company-wide announcements and work-based matters' : `Talk about ${topic}`,
      dailyRate: (perDay * weight) / totalWeight,
      members: Int32Array.from(chosen),
      joinAt,
      leaveAt,
      cumWeight,
      joinOrder: order(joinAt),
      leaveOrder: order(leaveAt),
    };
  });
}

/** k distinct indices out of n, sorted (Floyd's algorithm, O(k)). */
function pickMembers(r: ReturnType<typeof rngFor>, n: number, k: number): number[] {
  if (k >= n) return Array.from({ length: n }, (_, i) => i);
  const set = new Set<number>();
  for (let j = n - k; j < n; j++) {
    const t = r.int(j + 1);
    set.add(set.has(t) ? j : t);
  }
  return [...set].sort((a, b) => a - b);
}

/** Whether member position `k` of channel `ch` is in the channel at time `at` (generated facts only). */
export function isGenMemberAt(ws: Workspace, ch: GenChannel, k: number, at: number): boolean {
  const m = ws.members[ch.members[k] as number] as GenMember;
  const leave = ch.leaveAt[k] as number;
  return (
    (ch.joinAt[k] as number) <= at && (leave === 0 || leave > at) && (m.deletedAt === 0 || m.deletedAt > at)
  );
}
