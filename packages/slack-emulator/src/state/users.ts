import type { GenMember, Workspace } from '../generator/workspace.ts';
import { indexOfId, userIdFor } from '../ids.ts';
import type { Json } from '../types.ts';
import { nowSeconds, type TeamContext } from './context.ts';

export type UserRecord = Omit<GenMember, 'weight' | 'index' | 'tz'> & {
  tz: GenMember['tz'];
  isBot: boolean;
  botId?: string;
  appId?: string;
  updated: number;
  statusText: string;
  statusEmoji: string;
};

export type UserPatch = Partial<
  Pick<
    UserRecord,
    'realName' | 'displayName' | 'title' | 'statusText' | 'statusEmoji' | 'isAdmin' | 'deletedAt'
  >
>;

/** Members of one team: generated ones are rebuilt from the workspace, run-time ones and patches are kept. */
export function createUsers(ws: Workspace, ctx: TeamContext) {
  const patches = new Map<string, UserPatch & { updated: number }>();
  const extra = new Map<string, UserRecord>();
  const extraOrder: string[] = [];
  let nextIndex = ws.members.length;

  const fromGen = (m: GenMember): UserRecord => ({
    ...m,
    isBot: false,
    // As in Slack, a deactivation updates the user: `updated` is then the deactivation time.
    updated: m.deletedAt !== 0 && m.deletedAt <= nowSeconds(ctx) ? m.deletedAt : m.joinedAt,
    statusText: '',
    statusEmoji: '',
  });

  const get = (id: string): UserRecord | undefined => {
    const i = indexOfId(id, 'U', ws.teamNo);
    const base = i >= 0 && i < ws.members.length ? fromGen(ws.members[i] as GenMember) : extra.get(id);
    if (!base) return undefined;
    const patch = patches.get(id);
    return patch ? { ...base, ...patch } : base;
  };

  const isDeleted = (u: UserRecord): boolean => u.deletedAt !== 0 && u.deletedAt <= nowSeconds(ctx);

  const add = (record: Omit<UserRecord, 'id'>): UserRecord => {
    const id = userIdFor(ws.teamNo, nextIndex++);
    const user = { ...record, id };
    extra.set(id, user);
    extraOrder.push(id);
    return user;
  };

  const patch = (id: string, change: UserPatch): UserRecord | undefined => {
    if (!get(id)) return undefined;
    const prev = patches.get(id) ?? {};
    patches.set(id, { ...prev, ...change, updated: nowSeconds(ctx) });
    return get(id);
  };

  function* ids(): Generator<string> {
    for (const m of ws.members) yield m.id;
    yield* extraOrder;
  }

  const count = (): number => ws.members.length + extraOrder.length;

  const byEmail = (email: string): UserRecord | undefined => {
    const i = ws.emailIndex().get(email.toLowerCase());
    if (i !== undefined) return get((ws.members[i] as GenMember).id);
    for (const id of extraOrder) {
      const u = get(id);
      if (u?.email.toLowerCase() === email.toLowerCase()) return u;
    }
    return undefined;
  };

  const avatar = (u: UserRecord, size: number): string => `${ctx.baseUrl()}/avatars/${u.id}.svg?s=${size}`;

  const profile = (u: UserRecord): Json => ({
    title: u.title,
    phone: '',
    skype: '',
    real_name: u.realName,
    real_name_normalized: u.realName,
    display_name: u.displayName,
    display_name_normalized: u.displayName,
    fields: null,
    status_text: u.statusText,
    status_emoji: u.statusEmoji,
    status_expiration: 0,
    avatar_hash: `g${u.id.slice(-10).toLowerCase()}`,
    ...(u.isBot ? { bot_id: u.botId, api_app_id: u.appId ?? '', always_active: true } : { email: u.email }),
    first_name: u.firstName,
    last_name: u.lastName,
    image_24: avatar(u, 24),
    image_32: avatar(u, 32),
    image_48: avatar(u, 48),
    image_72: avatar(u, 72),
    image_192: avatar(u, 192),
    image_512: avatar(u, 512),
    team: ws.teamId,
  });

  const toJson = (u: UserRecord): Json => ({
    id: u.id,
    team_id: ws.teamId,
    name: u.username,
    deleted: isDeleted(u),
    color: u.color,
    real_name: u.realName,
    tz: u.tz.tz,
    tz_label: u.tz.label,
    tz_offset: u.tz.offset,
    profile: profile(u),
    is_admin: u.isAdmin,
    is_owner: u.isOwner,
    is_primary_owner: u.isPrimaryOwner,
    is_restricted: u.isRestricted,
    is_ultra_restricted: false,
    is_bot: u.isBot,
    is_app_user: false,
    updated: u.updated,
    ...(u.isBot || u.id === 'USLACKBOT' ? {} : { has_2fa: false }),
  });

  return { get, add, patch, ids, count, byEmail, toJson, profile, isDeleted, avatar };
}

export type Users = ReturnType<typeof createUsers>;
