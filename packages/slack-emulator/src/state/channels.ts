import { isGenMemberAt, type GenChannel, type Workspace } from '../generator/workspace.ts';
import { channelIdFor, newId } from '../ids.ts';
import type { Json } from '../types.ts';
import { nowSeconds, type TeamContext } from './context.ts';

export type ChannelRecord = {
  id: string;
  name: string;
  isPrivate: boolean;
  isGeneral: boolean;
  isIm: boolean;
  created: number;
  creator: string;
  topic: string;
  purpose: string;
  isArchived: boolean;
  previousNames: string[];
  gen?: GenChannel;
  /** For IMs: the two participants. */
  imUsers?: [string, string];
};

export type MembershipChange = {
  channel: string;
  user: string;
  kind: 'join' | 'leave';
  at: number;
  inviter?: string;
};

/** Channels, IMs and who is in them: generated memberships plus run-time joins and leaves. */
export function createChannels(ws: Workspace, ctx: TeamContext) {
  const records = new Map<string, ChannelRecord>();
  const order: string[] = [];
  for (const g of ws.channels) {
    records.set(g.id, {
      id: g.id,
      name: g.name,
      isPrivate: g.isPrivate,
      isGeneral: g.isGeneral,
      isIm: false,
      created: g.created,
      creator: g.creator,
      topic: g.topic,
      purpose: g.purpose,
      isArchived: false,
      previousNames: [],
      gen: g,
    });
    order.push(g.id);
  }
  const positions = new Map<string, Map<string, number>>();
  const overlay = new Map<string, Map<string, MembershipChange>>();
  const changes: MembershipChange[] = [];
  let nextIndex = ws.channels.length;

  const genPosition = (ch: ChannelRecord, userId: string): number => {
    if (!ch.gen) return -1;
    let map = positions.get(ch.id);
    if (!map) {
      const g = ch.gen;
      map = new Map(Array.from(g.members, (m, k) => [ws.members[m]?.id as string, k]));
      positions.set(ch.id, map);
    }
    return map.get(userId) ?? -1;
  };

  const isMember = (channelId: string, userId: string): boolean => {
    const ch = records.get(channelId);
    if (!ch) return false;
    if (ch.imUsers) return ch.imUsers.includes(userId);
    const live = overlay.get(channelId)?.get(userId);
    if (live) return live.kind === 'join';
    const k = genPosition(ch, userId);
    return k >= 0 && ch.gen !== undefined && isGenMemberAt(ws, ch.gen, k, nowSeconds(ctx));
  };

  const members = (channelId: string): string[] => {
    const ch = records.get(channelId);
    if (!ch) return [];
    if (ch.imUsers) return [...new Set(ch.imUsers)];
    const live = overlay.get(channelId);
    const out: string[] = [];
    const now = nowSeconds(ctx);
    if (ch.gen) {
      const g = ch.gen;
      for (let k = 0; k < g.members.length; k++) {
        const id = ws.members[g.members[k] as number]?.id as string;
        if (live?.has(id)) continue;
        if (isGenMemberAt(ws, g, k, now)) out.push(id);
      }
    }
    for (const [id, c] of live ?? []) if (c.kind === 'join') out.push(id);
    return out;
  };

  const record = (change: MembershipChange): void => {
    let map = overlay.get(change.channel);
    if (!map) overlay.set(change.channel, (map = new Map()));
    map.set(change.user, change);
    changes.push(change);
  };

  const join = (channelId: string, userId: string, inviter?: string): MembershipChange => {
    const change: MembershipChange = {
      channel: channelId,
      user: userId,
      kind: 'join',
      at: nowSeconds(ctx),
      inviter,
    };
    record(change);
    return change;
  };
  const leave = (channelId: string, userId: string): MembershipChange => {
    const change: MembershipChange = { channel: channelId, user: userId, kind: 'leave', at: nowSeconds(ctx) };
    record(change);
    return change;
  };

  const create = (name: string, creator: string, isPrivate: boolean): ChannelRecord => {
    const ch: ChannelRecord = {
      id: channelIdFor(ws.teamNo, nextIndex++),
      name,
      isPrivate,
      isGeneral: false,
      isIm: false,
      created: nowSeconds(ctx),
      creator,
      topic: '',
      purpose: '',
      isArchived: false,
      previousNames: [],
    };
    records.set(ch.id, ch);
    order.push(ch.id);
    return ch;
  };

  const openIm = (a: string, b: string): { ch: ChannelRecord; created: boolean } => {
    // The pair exactly: a user's DM with themselves (Slack's self-DM, a === b) is not their DM with someone else.
    for (const ch of records.values()) {
      const [x, y] = ch.imUsers ?? [];
      if ((x === a && y === b) || (x === b && y === a)) return { ch, created: false };
    }
    const ch: ChannelRecord = {
      ...{
        id: newId('D', 10),
        name: '',
        isPrivate: true,
        isGeneral: false,
        isIm: true,
        topic: '',
        purpose: '',
      },
      ...{ created: nowSeconds(ctx), creator: a, isArchived: false, previousNames: [], imUsers: [a, b] },
    };
    records.set(ch.id, ch);
    order.push(ch.id);
    return { ch, created: true };
  };

  const byName = (name: string): ChannelRecord | undefined =>
    [...records.values()].find((c) => c.name === name);

  const toJson = (ch: ChannelRecord, viewer?: string): Json => {
    if (ch.imUsers) {
      const other = ch.imUsers.find((u) => u !== viewer) ?? ch.imUsers[0];
      return {
        id: ch.id,
        created: ch.created,
        is_im: true,
        is_org_shared: false,
        user: other,
        priority: 0,
        is_open: true,
      };
    }
    return {
      id: ch.id,
      name: ch.name,
      is_channel: !ch.isPrivate,
      is_group: false,
      is_im: false,
      is_mpim: false,
      is_private: ch.isPrivate,
      created: ch.created,
      is_archived: ch.isArchived,
      is_general: ch.isGeneral,
      unlinked: 0,
      name_normalized: ch.name,
      is_shared: false,
      is_org_shared: false,
      is_pending_ext_shared: false,
      pending_shared: [],
      parent_conversation: null,
      creator: ch.creator,
      is_ext_shared: false,
      shared_team_ids: [ws.teamId],
      is_member: viewer ? isMember(ch.id, viewer) : false,
      topic: { value: ch.topic, creator: ch.topic ? ch.creator : '', last_set: ch.topic ? ch.created : 0 },
      purpose: {
        value: ch.purpose,
        creator: ch.purpose ? ch.creator : '',
        last_set: ch.purpose ? ch.created : 0,
      },
      previous_names: ch.previousNames,
      num_members: members(ch.id).length,
    };
  };

  return {
    get: (id: string) => records.get(id),
    all: () => order.map((id) => records.get(id) as ChannelRecord),
    isMember,
    members,
    join,
    leave,
    create,
    openIm,
    byName,
    toJson,
    /** Run-time membership changes, oldest first (ground truth). */
    changes: () => changes as readonly MembershipChange[],
  };
}

export type Channels = ReturnType<typeof createChannels>;
