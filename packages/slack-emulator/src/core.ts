import { createAuth, type AppConfig, type TokenRotation } from './auth.ts';
import { createDispatcher, type EventOptions } from './events/dispatcher.ts';
import { createSocketMode, type SocketModeOptions } from './events/socket-mode.ts';
import { createFaults, type FaultOptions } from './faults.ts';
import type { WorkspaceSpec } from './generator/workspace.ts';
import { newId } from './ids.ts';
import { createInteractivity, type Interactivity } from './interactivity.ts';
import { createRateLimiter, type RateLimitOptions } from './rate-limit.ts';
import type { TeamContext } from './state/context.ts';
import { createTeam, type Team } from './state/team.ts';
import type { Json, SlackFile } from './types.ts';

export type CoreOptions = {
  teams: WorkspaceSpec[];
  app: AppConfig;
  eventsUrl?: string;
  interactivityUrl?: string;
  rateLimits?: RateLimitOptions;
  faults?: FaultOptions;
  events?: EventOptions;
  /**
   * Socket Mode: on (`enabled`), events and interactions go over the app's WebSocket connections instead of its
   * Request URLs. It also turns on when the app first calls apps.connections.open, as an app that uses it has
   * the toggle on in its settings.
   */
  socketMode?: SocketModeOptions & { enabled?: boolean };
  /** 'member-channels' (Slack): message-like events only for channels the bot is in. 'all': every channel. */
  eventScope?: 'member-channels' | 'all';
  triggerTtlMs?: number;
  oauthCodeTtlMs?: number;
  /** Expiring access tokens with refresh tokens (off: tokens never expire, as without rotation). */
  tokenRotation?: TokenRotation;
  clock?: () => number;
};

export type FileRecord = SlackFile & {
  teamId: string;
  data?: Buffer;
  length: number;
  completed: boolean;
  uploadKey: string;
};

/** Everything the HTTP layer and the handle share. */
export function createCore(options: CoreOptions) {
  const now = options.clock ?? (() => Date.now());
  let baseUrl = 'http://127.0.0.1';
  const config: {
    eventsUrl?: string;
    interactivityUrl?: string;
    eventsUrlVerified: boolean;
    socketMode: boolean;
  } = {
    eventsUrl: options.eventsUrl,
    interactivityUrl: options.interactivityUrl,
    eventsUrlVerified: false,
    socketMode: options.socketMode?.enabled ?? false,
  };
  const teams = new Map<string, Team>();
  const auth = createAuth(options.app, now, options.tokenRotation);
  const socket = createSocketMode(options.app.appId, options.socketMode);
  // Like Slack, nothing is delivered to an events URL that has not passed its url_verification handshake.
  const dispatcher = createDispatcher(
    () => ({
      url: config.eventsUrlVerified ? config.eventsUrl : undefined,
      signingSecret: options.app.signingSecret,
      now,
      socket: config.socketMode ? socket : undefined,
    }),
    options.events,
  );

  const envelope = (team: Team, event: Json): Json | undefined => {
    const install = auth.installs.get(team.id);
    if (!install) return undefined;
    return {
      token: options.app.verificationToken,
      team_id: team.id,
      context_team_id: team.id,
      context_enterprise_id: null,
      api_app_id: options.app.appId,
      event,
      type: 'event_callback',
      event_id: newId('Ev', 10),
      event_time: Math.floor(now() / 1000),
      authed_users: [install.botUserId],
      authorizations: [
        {
          enterprise_id: null,
          team_id: team.id,
          user_id: install.botUserId,
          is_bot: true,
          is_enterprise_install: false,
        },
      ],
      is_ext_shared_channel: false,
      event_context: `4-${Buffer.from(JSON.stringify({ et: event.type, tid: team.id, aid: options.app.appId })).toString('base64url')}`,
    };
  };

  const emit: TeamContext['emit'] = (teamId, event, scope) => {
    const team = teams.get(teamId);
    const install = auth.installs.get(teamId);
    if (!team || !install) return;
    if (
      scope?.channel &&
      options.eventScope !== 'all' &&
      !team.channels.isMember(scope.channel, install.botUserId)
    )
      return;
    const env = envelope(team, event);
    if (env) dispatcher.deliver(teamId, env);
  };

  const ctx: TeamContext = { baseUrl: () => baseUrl, now, emit };
  options.teams.forEach((spec, i) => {
    const team = createTeam(spec, i, ctx);
    teams.set(team.id, team);
  });

  const core = {
    options,
    now,
    config,
    teams,
    auth,
    dispatcher,
    socket,
    emit,
    files: new Map<string, FileRecord>(),
    rateLimiter: createRateLimiter(options.rateLimits ?? {}, now),
    faults: createFaults(options.faults),
    baseUrl: () => baseUrl,
    setBaseUrl: (url: string) => {
      baseUrl = url;
    },
    team: (id?: string): Team | undefined => (id ? teams.get(id) : teams.values().next().value),
    interactivity: undefined as unknown as Interactivity,
  };
  core.interactivity = createInteractivity(core);
  return core;
}

export type Core = ReturnType<typeof createCore>;
