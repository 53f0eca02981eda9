import type { Core } from '../core.ts';
import type { Team } from '../state/team.ts';
import type { Json } from '../types.ts';
import { authed, SlackError, type MethodDef } from './registry.ts';

export const teamJson = (team: Team, baseUrl: string): Json => ({
  id: team.id,
  name: team.name,
  domain: team.domain,
  email_domain: `${team.domain}.example.com`,
  icon: {
    image_34: `${baseUrl}/avatars/${team.id}.svg?s=34`,
    image_44: `${baseUrl}/avatars/${team.id}.svg?s=44`,
    image_68: `${baseUrl}/avatars/${team.id}.svg?s=68`,
    image_88: `${baseUrl}/avatars/${team.id}.svg?s=88`,
    image_102: `${baseUrl}/avatars/${team.id}.svg?s=102`,
    image_132: `${baseUrl}/avatars/${team.id}.svg?s=132`,
    image_default: true,
  },
});

/** Every emulated workspace's custom emoji (images drawn by the avatar route), with two aliases as Slack has them. */
export const customEmoji = (baseUrl: string): Record<string, string> => ({
  partyparrot: `${baseUrl}/avatars/emoji-partyparrot.svg`,
  shipit: `${baseUrl}/avatars/emoji-shipit.svg`,
  flywheel: `${baseUrl}/avatars/emoji-flywheel.svg`,
  parrot: 'alias:partyparrot',
  thumbsup_all: 'alias:thumbsup',
});

/** Emits app_uninstalled + tokens_revoked (while the install still exists), then revokes every token. */
export function uninstall(core: Core, teamId: string): void {
  const install = core.auth.installs.get(teamId);
  if (!install) return;
  const tokens = { oauth: install.userToken ? [install.installerId] : [], bot: [install.botUserId] };
  core.emit(teamId, { type: 'app_uninstalled', event_ts: (core.now() / 1000).toFixed(6) });
  core.emit(teamId, { type: 'tokens_revoked', tokens, event_ts: (core.now() / 1000).toFixed(6) });
  core.auth.revokeTeam(teamId);
}

export const authTeamMethods: Record<string, MethodDef> = {
  'auth.test': {
    tier: 'special',
    handle: (call) => {
      const c = authed(call);
      const user = c.team.users.get(c.token.userId);
      return {
        ok: true,
        url: `https://${c.team.domain}.slack.com/`,
        team: c.team.name,
        user: user?.username ?? '',
        team_id: c.team.id,
        user_id: c.token.userId,
        ...(c.token.botId ? { bot_id: c.token.botId } : {}),
        is_enterprise_install: false,
      };
    },
  },
  'team.info': {
    tier: 3,
    scope: 'team:read',
    handle: (call) => {
      const c = authed(call);
      const wanted = call.params.team as string | undefined;
      if (wanted && wanted !== c.team.id) throw new SlackError('team_not_found');
      return { ok: true, team: teamJson(c.team, c.core.baseUrl()) };
    },
  },
  // A workspace's custom emoji: name -> image URL, or 'alias:<name>' for another name (Slack's emoji.list).
  'emoji.list': {
    tier: 2,
    scope: 'emoji:read',
    handle: (call) => {
      const c = authed(call);
      return { ok: true, emoji: customEmoji(c.core.baseUrl()), cache_ts: '1700000000.000000' };
    },
  },
  'bots.info': {
    tier: 3,
    scope: 'users:read',
    handle: (call) => {
      const c = authed(call);
      const install = c.core.auth.installs.get(c.team.id);
      const wanted = (call.params.bot as string | undefined) ?? c.token.botId;
      if (!install || !wanted || wanted !== install.botId) throw new SlackError('bot_not_found');
      const { team_id: _team, ...profile } = c.core.auth.botProfile(install, c.core.baseUrl());
      return { ok: true, bot: { ...profile, user_id: install.botUserId } };
    },
  },
  'apps.uninstall': {
    tier: 1,
    handle: (call) => {
      const c = authed(call);
      const app = c.core.auth.app;
      if (call.params.client_id !== app.clientId) throw new SlackError('invalid_client_id');
      if (call.params.client_secret !== app.clientSecret) throw new SlackError('bad_client_secret');
      uninstall(c.core, c.team.id);
      return { ok: true };
    },
  },
};
