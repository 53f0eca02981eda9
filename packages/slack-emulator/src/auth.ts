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
};

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
export function createAuth(app: AppConfig, now: () => number) {
  const tokens = new Map<string, TokenInfo>();
  const installs = new Map<string, Install>();

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
    const botToken =
      prev && tokens.has(prev.botToken) ? prev.botToken : `xoxb-${team.id.slice(1)}-${randomToken(12)}`;
    const merged = [...new Set([...(prev?.botScopes ?? []), ...botScopes])];
    tokens.set(botToken, {
      token: botToken,
      kind: 'bot',
      teamId: team.id,
      userId: botUserId,
      botId,
      scopes: merged,
    });
    let userToken: string | undefined;
    if (userScopes.length > 0) {
      userToken = `xoxp-${team.id.slice(1)}-${randomToken(16)}`;
      tokens.set(userToken, {
        token: userToken,
        kind: 'user',
        teamId: team.id,
        userId: installerId,
        scopes: userScopes,
      });
    }
    const record: Install = {
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

  return { app, tokens, installs, install, revokeTeam, botProfile, lookup: (t: string) => tokens.get(t) };
}

export type Auth = ReturnType<typeof createAuth>;
