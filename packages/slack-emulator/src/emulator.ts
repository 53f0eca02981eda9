import type { AddressInfo } from 'node:net';
import { createAdminActions } from './admin.ts';
import { randomToken } from './ids.ts';
import type { DisconnectReason } from './events/socket-mode.ts';
import { appMethods } from './web-api/apps.ts';
import type { AppConfig, Install, TokenRotation } from './auth.ts';
import { createCore, type CoreOptions } from './core.ts';
import type { EventOptions } from './events/dispatcher.ts';
import type { FaultOptions, QueuedFault } from './faults.ts';
import type { WorkspaceSpec } from './generator/workspace.ts';
import { startLive, type LiveOptions } from './live.ts';
import { createOAuth } from './oauth.ts';
import type { RateLimitOptions } from './rate-limit.ts';
import { createHttpServer } from './server.ts';
import { createTruth, type Truth } from './state/truth.ts';
import type { Team } from './state/team.ts';
import { authTeamMethods, uninstall } from './web-api/auth-team.ts';
import { chatMethods, runScheduled, type Scheduled } from './web-api/chat.ts';
import { conversationMethods } from './web-api/conversations.ts';
import { fileMethods, publicFile } from './web-api/files.ts';
import { reactionPinMethods } from './web-api/reactions-pins.ts';
import type { MethodDef } from './web-api/registry.ts';
import { userMethods } from './web-api/users.ts';
import { viewMethods } from './web-api/views.ts';

export type WorkspaceOptions = Partial<WorkspaceSpec>;

export type EmulatorOptions = {
  /** Port on 127.0.0.1; 0 picks a free one (tests). Default 0. */
  port?: number;
  host?: string;
  /** One workspace (shorthand) ... */
  workspace?: WorkspaceOptions;
  /** ... or several. Each: seed, members, channels, days, messages, endTime, name, domain. */
  workspaces?: WorkspaceOptions[];
  /** The one emulated Slack app (its OAuth client and signing secret). */
  app?: Partial<AppConfig>;
  eventsUrl?: string;
  interactivityUrl?: string;
  rateLimits?: RateLimitOptions;
  faults?: FaultOptions;
  events?: EventOptions;
  /** Socket Mode (see core.ts): on from the start with `enabled`, and its timings. */
  socketMode?: CoreOptions['socketMode'];
  eventScope?: CoreOptions['eventScope'];
  /** trigger_id lifetime (Slack: 3 s). */
  triggerTtlMs?: number;
  /** OAuth code lifetime (default 10 min). */
  oauthCodeTtlMs?: number;
  /**
   * Token rotation: access tokens that expire after `expiresInSeconds`, with refresh tokens (oauth.v2.access,
   * grant_type=refresh_token). Off by default (tokens never expire).
   */
  tokenRotation?: TokenRotation;
  /** Install the app into every workspace at start (tokens readable from the handle). */
  autoInstall?: boolean;
  /** Trickle of live member activity. */
  live?: LiveOptions;
  clock?: () => number;
};

const DEFAULT_WORKSPACE: WorkspaceSpec = { seed: 1, members: 50, channels: 8, days: 30 };

export type Emulator = Awaited<ReturnType<typeof startEmulator>>;

/** Starts the emulator over HTTP and returns its handle. */
export async function startEmulator(options: EmulatorOptions = {}) {
  const specs = (options.workspaces ?? [options.workspace ?? {}]).map((w, i) => ({
    ...DEFAULT_WORKSPACE,
    seed: i + 1,
    ...w,
  }));
  const app: AppConfig = {
    appId: 'A0FLYWHEEL1',
    name: 'Flywheel',
    clientId: '1111111111.2222222222',
    clientSecret: 'emulator-client-secret',
    signingSecret: 'emulator-signing-secret',
    verificationToken: 'emulator-verification-token',
    appToken: `xapp-1-${options.app?.appId ?? 'A0FLYWHEEL1'}-1111111111-${randomToken(32)}`,
    ...options.app,
  };
  const core = createCore({ ...options, teams: specs, app });
  const scheduled = new Map<string, Scheduled>();
  const oauth = createOAuth(core);
  const methods: Record<string, MethodDef> = {
    ...authTeamMethods,
    ...userMethods,
    ...conversationMethods,
    ...chatMethods(scheduled),
    ...reactionPinMethods,
    ...fileMethods,
    ...viewMethods,
    ...appMethods,
    'oauth.v2.access': oauth.access,
  };
  const admin = createAdminActions(core);
  const server = createHttpServer({ core, methods, oauth, admin });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  core.setBaseUrl(url);
  const scheduler = setInterval(() => runScheduled(core, scheduled), 250);
  scheduler.unref();
  if (options.autoInstall) for (const t of core.teams.values()) core.auth.install(t);
  let live = options.live ? startLive(core, options.live) : undefined;
  if (options.eventsUrl) void admin.configure({ eventsUrl: options.eventsUrl });
  const teamOf = (id?: string): Team => {
    const t = core.team(id);
    if (!t) throw new Error(`unknown team ${id ?? ''}`);
    return t;
  };

  return {
    url,
    port,
    /** Base URL for WebClient's slackApiUrl. */
    apiUrl: `${url}/api/`,
    authorizeUrl: `${url}/oauth/v2/authorize`,
    app,
    teamIds: [...core.teams.keys()],
    /** Ground truth of a team (default: the first). */
    truth: (teamId?: string): Truth => createTruth(teamOf(teamId), core.auth),
    /** A file uploaded through the external upload flow (as files.info shows it), its bytes, and whether it was completed. */
    file: (id: string) => {
      const f = core.files.get(id);
      return f ? { ...publicFile(f), teamId: f.teamId, data: f.data, completed: f.completed } : undefined;
    },
    /** The live team object (users, channels, messages, write actions that emit events). */
    team: teamOf,
    install: (
      teamId?: string,
      input: { scopes?: string[]; userScopes?: string[]; installerId?: string } = {},
    ): Install => core.auth.install(teamOf(teamId), input),
    uninstall: (teamId?: string) => uninstall(core, teamOf(teamId).id),
    setEventsUrl: async (eventsUrl: string | undefined) =>
      (await admin.configure({ eventsUrl: eventsUrl ?? '' })).eventsUrlVerified,
    setInteractivityUrl: (interactivityUrl: string | undefined) => {
      core.config.interactivityUrl = interactivityUrl;
    },
    /** Turns token rotation on or off for installs and refreshes from now on. */
    setTokenRotation: (next: TokenRotation | undefined) => core.auth.setRotation(next),
    /** Makes a team's current expiring tokens expire now (they answer token_expired); returns how many. */
    expireTokens: (teamId?: string) => core.auth.expireTokens(teamOf(teamId).id),
    /** How many times each refresh token was presented to oauth.v2.access (spent or not), this run. */
    refreshCalls: () => core.auth.refreshCalls(),
    setRateLimits: (next: RateLimitOptions) => core.rateLimiter.configure(next),
    setFaults: (next: FaultOptions) => core.faults.configure(next),
    queueFault: (...faults: QueuedFault[]) => core.faults.enqueue(...faults),
    clearFaults: () => core.faults.clear(),
    deliveries: () => core.dispatcher.log(),
    /** Socket Mode: its connections, counts, and how many events and interactions went over HTTP instead. */
    socketMode: {
      enabled: () => core.config.socketMode,
      setEnabled: (on: boolean) => {
        core.config.socketMode = on;
      },
      connections: () => core.socket.connections(),
      /** Whether some connection is open and taking envelopes. */
      connected: () => core.socket.connected(),
      stats: () => core.socket.stats(),
      /** Sends `disconnect` (refresh_requested by default) to every connection or to one. */
      disconnect: (reason?: DisconnectReason, connectionId?: string) =>
        core.socket.disconnect(reason, connectionId),
      /** Cuts every connection without a close handshake. */
      dropAll: () => core.socket.dropAll(),
    },
    /** Events and interactions by the way they went (HTTP Request URLs or Socket Mode). */
    transports: () => admin.transports(),
    /** Resolves once every queued event delivery (and its retries) is done. */
    eventsIdle: () => core.dispatcher.idle(),
    interactivity: core.interactivity,
    admin,
    startLive: (opts: LiveOptions) => {
      live?.stop();
      live = startLive(core, opts);
    },
    stopLive: () => live?.stop(),
    close: async () => {
      live?.stop();
      clearInterval(scheduler);
      core.dispatcher.close();
      core.socket.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
