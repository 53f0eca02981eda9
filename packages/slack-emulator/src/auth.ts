import { newId, randomToken } from './ids.ts';
import { TIMEZONES } from './generator/words.ts';
import type { Team } from './state/team.ts';
import type { BotProfile } from './types.ts';

export type AppConfig = {
  appId: string;
  name: string;
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  verificationToken: string;
  /** The app-level token (xapp-…, scope connections:write) that opens Socket Mode connections. */
  appToken: string;
  /** When set, oauth redirect_uri must start with one of these. */
  redirectUris?: string[];
};

export type TokenInfo = {
  token: string;
  kind: 'bot' | 'user';
  teamId: string;
  userId: string;
  botId?: string;
  scopes: string[];
  /** Token rotation: when the access token stops working (ms, the emulator's clock); never when unset. */
  expiresAt?: number;
};

/**
 * Token rotation (Slack: "Using token rotation"): access tokens (`xoxe.xoxb-…`, `xoxe.xoxp-…`) expire after
 * `expiresInSeconds` (Slack: 43,200, 12 hours) and come with a refresh token (`xoxe-1-…`) that oauth.v2.access
 * (grant_type=refresh_token) exchanges, once, for a new access token and a new refresh token.
 */
export type TokenRotation = { expiresInSeconds: number };

/** A refresh token: what it renews, and whether it was used (a refresh token works once). */
type RefreshInfo = Omit<TokenInfo, 'token' | 'expiresAt'> & { used: boolean };

/** An access token as oauth.v2.access hands it out (with its refresh token under rotation). */
export type IssuedToken = { token: string; refreshToken?: string; expiresIn?: number };

export type Install = {
  teamId: string;
  botUserId: string;
  botId: string;
  botToken: string;
  botScopes: string[];
  installerId: string;
  userToken?: string;
  userScopes: string[];
  installedAt: number;
  /** Under token rotation: the refresh tokens and lifetimes (seconds) of the tokens above. */
  botRefreshToken?: string;
  botExpiresIn?: number;
  userRefreshToken?: string;
  userExpiresIn?: number;
};

/** Every bot scope the emulated methods know about (default for installs made by test helpers). */
export const ALL_BOT_SCOPES = [
  'channels:history',
  'channels:join',
  'channels:manage',
  'channels:read',
  'chat:write',
  'chat:write.customize',
  'chat:write.public',
  'files:write',
  'groups:history',
  'groups:read',
  'groups:write',
  'im:history',
  'im:read',
  'im:write',
  'mpim:history',
  'mpim:read',
  'mpim:write',
  'pins:read',
  'pins:write',
  'reactions:read',
  'reactions:write',
  'team:read',
  'users.profile:read',
  'users:read',
  'users:read.email',
];
export const DEFAULT_USER_SCOPES = [
  'chat:write',
  'reactions:write',
  'pins:write',
  'channels:history',
  'users:read',
];

const splitScopes = (s: string | string[] | undefined): string[] =>
  (Array.isArray(s) ? s : (s ?? '').split(/[ ,]+/)).map((x) => x.trim()).filter(Boolean);

/** Installations of the single emulated app into teams, and the tokens they hand out. */
export function createAuth(app: AppConfig, now: () => number, initialRotation?: TokenRotation) {
  const tokens = new Map<string, TokenInfo>();
  const refreshTokens = new Map<string, RefreshInfo>();
  const installs = new Map<string, Install>();
  let rotation = initialRotation;
  let refreshCalls = 0;

  /** A new access token (and, under rotation, its refresh token), registered. */
  const issue = (info: Omit<TokenInfo, 'token' | 'expiresAt'>, rotating = rotation): IssuedToken => {
    const prefix = info.kind === 'bot' ? 'xoxb' : 'xoxp';
    const random = randomToken(info.kind === 'bot' ? 12 : 16);
    if (!rotating) {
      const token = `${prefix}-${info.teamId.slice(1)}-${random}`;
      tokens.set(token, { ...info, token });
      return { token };
    }
    const token = `xoxe.${prefix}-1-${info.teamId.slice(1)}-${random}`;
    const refreshToken = `xoxe-1-${info.teamId.slice(1)}-${randomToken(24)}`;
    const expiresIn = rotating.expiresInSeconds;
    tokens.set(token, { ...info, token, expiresAt: now() + expiresIn * 1000 });
    refreshTokens.set(refreshToken, { ...info, used: false });
    return { token, refreshToken, expiresIn };
  };

  const install = (
    team: Team,
    input: { scopes?: string | string[]; userScopes?: string | string[]; installerId?: string } = {},
  ): Install => {
    const botScopes = input.scopes === undefined ? ALL_BOT_SCOPES : splitScopes(input.scopes);
    const userScopes = input.userScopes === undefined ? DEFAULT_USER_SCOPES : splitScopes(input.userScopes);
    const installerId = input.installerId ?? (team.ws.members.find((m) => m.isPrimaryOwner)?.id as string);
    const prev = installs.get(team.id);
    let botUserId = prev?.botUserId;
    let botId = prev?.botId;
    if (!botUserId || !botId) {
      botId = newId('B', 10);
      const user = team.users.add({
        ...{
          username: app.name.toLowerCase().replace(/[^a-z0-9]+/g, '_'),
          firstName: app.name,
          lastName: '',
        },
        ...{ realName: app.name, displayName: '', email: '', title: '', color: '4bbe2e' },
        ...{
          tz: TIMEZONES[2] as (typeof TIMEZONES)[number],
          isAdmin: false,
          isOwner: false,
          isPrimaryOwner: false,
        },
        ...{ isRestricted: false, joinedAt: Math.floor(now() / 1000), deletedAt: 0, isBot: true, botId },
        ...{ appId: app.appId, updated: Math.floor(now() / 1000), statusText: '', statusEmoji: '' },
      });
      botUserId = user.id;
    }
    const merged = [...new Set([...(prev?.botScopes ?? []), ...botScopes])];
    const botInfo = { kind: 'bot' as const, teamId: team.id, userId: botUserId, botId, scopes: merged };
    // A reinstall keeps a non-expiring bot token (with its new scopes); under rotation it gets a new pair.
    const kept = prev && !rotation && !prev.botRefreshToken && tokens.has(prev.botToken);
    let bot: IssuedToken;
    if (kept) {
      tokens.set(prev.botToken, { ...botInfo, token: prev.botToken });
      bot = { token: prev.botToken };
    } else bot = issue(botInfo);
    const botToken = bot.token;
    let user: IssuedToken | undefined;
    if (userScopes.length > 0)
      user = issue({ kind: 'user', teamId: team.id, userId: installerId, scopes: userScopes });
    const userToken = user?.token;
    const record: Install = {
      ...(bot.refreshToken ? { botRefreshToken: bot.refreshToken, botExpiresIn: bot.expiresIn } : {}),
      ...(user?.refreshToken ? { userRefreshToken: user.refreshToken, userExpiresIn: user.expiresIn } : {}),
      ...{
        teamId: team.id,
        botUserId,
        botId,
        botToken,
        botScopes: merged,
        installerId,
        userToken,
        userScopes,
      },
      installedAt: Math.floor(now() / 1000),
    };
    installs.set(team.id, record);
    return record;
  };

  /** Revokes every token of a team; returns the user ids whose tokens died (tokens_revoked shape). */
  const revokeTeam = (teamId: string): { oauth: string[]; bot: string[] } => {
    const revoked = { oauth: [] as string[], bot: [] as string[] };
    for (const [token, info] of tokens) {
      if (info.teamId !== teamId) continue;
      tokens.delete(token);
      (info.kind === 'bot' ? revoked.bot : revoked.oauth).push(info.userId);
    }
    for (const [token, info] of refreshTokens) if (info.teamId === teamId) refreshTokens.delete(token);
    installs.delete(teamId);
    return { oauth: [...new Set(revoked.oauth)], bot: [...new Set(revoked.bot)] };
  };

  const botProfile = (install: Install, baseUrl: string): BotProfile => ({
    id: install.botId,
    deleted: false,
    name: app.name,
    updated: install.installedAt,
    app_id: app.appId,
    icons: {
      image_36: `${baseUrl}/avatars/${install.botUserId}.svg?s=36`,
      image_48: `${baseUrl}/avatars/${install.botUserId}.svg?s=48`,
      image_72: `${baseUrl}/avatars/${install.botUserId}.svg?s=72`,
    },
    team_id: install.teamId,
  });

  /**
   * oauth.v2.access with grant_type=refresh_token: a new access token and a new refresh token for a refresh
   * token never used before (the used one is spent: `invalid_refresh_token`). The old access token keeps
   * working until it expires.
   */
  const refresh = (refreshToken: string): (IssuedToken & { info: Omit<TokenInfo, 'token'> }) | undefined => {
    refreshCalls++;
    const found = refreshTokens.get(refreshToken);
    if (!found || found.used) return undefined;
    found.used = true;
    const { used: _used, ...info } = found;
    // Rotation turned off meanwhile: the renewed pair still rotates (Slack: rotation cannot be turned off).
    const issued = issue(info, rotation ?? initialRotation ?? { expiresInSeconds: 43_200 });
    const install = installs.get(info.teamId);
    if (install && info.kind === 'bot')
      Object.assign(install, {
        botToken: issued.token,
        botRefreshToken: issued.refreshToken,
        botExpiresIn: issued.expiresIn,
      });
    if (install && info.kind === 'user' && install.installerId === info.userId)
      Object.assign(install, {
        userToken: issued.token,
        userRefreshToken: issued.refreshToken,
        userExpiresIn: issued.expiresIn,
      });
    return { ...issued, info };
  };

  /** Makes a team's expiring access tokens expire now (a test's "12 hours later"); returns how many. */
  const expireTokens = (teamId: string): number => {
    let n = 0;
    for (const info of tokens.values())
      if (info.teamId === teamId && info.expiresAt !== undefined && info.expiresAt > now()) {
        info.expiresAt = now();
        n++;
      }
    return n;
  };

  return {
    app,
    tokens,
    refreshTokens,
    installs,
    install,
    revokeTeam,
    botProfile,
    refresh,
    expireTokens,
    lookup: (t: string) => tokens.get(t),
    /** How many refreshes were asked for (accepted or not). */
    refreshCalls: () => refreshCalls,
    rotation: () => rotation,
    /** Turns rotation on (for installs and refreshes from now on) or off. */
    setRotation: (next: TokenRotation | undefined) => {
      rotation = next;
    },
  };
}

export type Auth = ReturnType<typeof createAuth>;
