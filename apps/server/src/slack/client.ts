import {
  LogLevel,
  WebAPIPlatformError,
  WebClient,
  WebClientEvent,
  type WebAPICallResult,
  type WebClientOptions,
} from '@slack/web-api';
import type { Config } from '../config.ts';

/**
 * A workspace's token as the product holds it: read at each call (a rotating token changes under a long-lived
 * client) and renewed when Slack refuses it as expired. The workspaces module's token provider makes them.
 */
export type TokenSource = {
  /** The token to call with now (renewed first when it expires soon). */
  current(): Promise<string>;
  /** Slack refused `stale` with `error` (token_expired, invalid_auth): the token to retry with once, or null. */
  renewed(stale: string, error: string): Promise<string | null>;
};

/** Slack's refusals of a token that a renewal may cure (invalid_auth only for a token we know rotates). */
const RENEWABLE = new Set(['token_expired', 'invalid_auth']);

/**
 * A WebClient whose every call (methods, pagination, uploads) takes the source's current token, and after a
 * token_expired (or invalid_auth) answer renews it and makes the call again, once. Slack did nothing with a
 * refused call, so the retry cannot double it.
 */
class RotatingWebClient extends WebClient {
  readonly #source: TokenSource;
  constructor(source: TokenSource, options: WebClientOptions) {
    super(undefined, options);
    this.#source = source;
  }
  override async apiCall(method: string, options: Record<string, unknown> = {}): Promise<WebAPICallResult> {
    if (options.token) return super.apiCall(method, options);
    const token = await this.#source.current();
    try {
      return await super.apiCall(method, { ...options, token });
    } catch (err) {
      if (!(err instanceof WebAPIPlatformError) || !RENEWABLE.has(err.data.error)) throw err;
      const fresh = await this.#source.renewed(token, err.data.error);
      if (!fresh) throw err;
      return super.apiCall(method, { ...options, token: fresh });
    }
  }
}

const clientOf = (token: string | TokenSource | undefined, options: WebClientOptions): WebClient =>
  typeof token === 'object' ? new RotatingWebClient(token, options) : new WebClient(token, options);

/** Slack's published per-method limits (requests per minute per workspace; https://api.slack.com/apis/rate-limits). */
const TIER_PER_MINUTE: Record<string, number> = {
  'users.list': 20,
  'conversations.list': 20,
  'conversations.history': 50,
  'conversations.replies': 50,
  'conversations.members': 100,
  'conversations.join': 50,
  'conversations.info': 50,
  'users.conversations': 50,
  'users.info': 100,
  'team.info': 50,
  'emoji.list': 20,
  'auth.test': 600,
  'chat.postMessage': 60,
};

export type SlackApi = ReturnType<typeof slackApi>;

/**
 * The one way the product talks to Slack: the official WebClient pointed at SLACK_API_URL, and a pacer that
 * keeps each (workspace, method) under its tier so a backfill runs at the rate floor instead of into 429s.
 */
export function slackApi(config: Config['slack']) {
  const next = new Map<string, number>();
  let rateLimitHits = 0;
  /** Workspaces whose history answers showed the limited tier (apps outside the Marketplace), this process. */
  const limitedTeams = new Set<string>();
  const isLimited = (teamId?: string) =>
    config.historyLimited || (teamId !== undefined && limitedTeams.has(teamId));

  const perMinute = (method: string, teamId?: string): number => {
    if (isLimited(teamId) && (method === 'conversations.history' || method === 'conversations.replies'))
      return 1;
    return TIER_PER_MINUTE[method] ?? 20;
  };

  return {
    /** `opts`: fewer retries and a timeout, for a call that must not be repeated blindly (a token refresh). */
    client(token?: string | TokenSource, opts: { retries?: number; timeoutMs?: number } = {}): WebClient {
      const client = clientOf(token, {
        slackApiUrl: config.apiUrl,
        logLevel: LogLevel.ERROR,
        retryConfig: {
          retries: opts.retries ?? 6,
          factor: 1.6,
          minTimeout: 200,
          maxTimeout: 30_000,
          randomize: true,
        },
        ...(opts.timeoutMs ? { timeout: opts.timeoutMs } : {}),
      });
      client.on(WebClientEvent.RATE_LIMITED, () => {
        rateLimitHits++;
      });
      return client;
    },
    /**
     * A client for the delivery engine: no retries of its own (the engine records each attempt before it calls
     * and decides what to retry), 429s thrown with their Retry-After, and a timeout after which the attempt
     * counts as uncertain.
     */
    sendingClient(token: string | TokenSource, timeoutMs = 20_000): WebClient {
      const client = clientOf(token, {
        slackApiUrl: config.apiUrl,
        logLevel: LogLevel.ERROR,
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: timeoutMs,
      });
      client.on(WebClientEvent.RATE_LIMITED, () => {
        rateLimitHits++;
      });
      return client;
    },
    /** Page size for history calls (15 for apps outside the Marketplace). */
    historyLimit: (teamId?: string) => (isLimited(teamId) ? 15 : 200),
    /** Whether history calls of this workspace are paced at the limited tier (configured or detected). */
    historyLimited: (teamId?: string) => isLimited(teamId),
    /** Slack answered this workspace as an app outside the Marketplace: history at 1 a minute from now on. */
    markHistoryLimited(teamId: string) {
      limitedTeams.add(teamId);
    },
    /** Waits until this workspace may call this method again. */
    async pace(teamId: string, method: string): Promise<void> {
      const interval = 60_000 / (perMinute(method, teamId) * config.rateScale);
      const key = `${teamId}:${method}`;
      const now = Date.now();
      const at = Math.max(now, next.get(key) ?? 0);
      next.set(key, at + interval);
      if (at > now) await new Promise((r) => setTimeout(r, at - now));
    },
    perMinute: (method: string, teamId?: string) => perMinute(method, teamId) * config.rateScale,
    /** How many 429 answers (each waited out and retried by the SDK) this process has met. */
    rateLimitHits: () => rateLimitHits,
    // Read at use: the demo points the settings at its emulator after start-up.
    get clientId() {
      return config.clientId;
    },
    get clientSecret() {
      return config.clientSecret;
    },
    get authorizeUrl() {
      return config.authorizeUrl;
    },
    get signingSecret() {
      return config.signingSecret;
    },
    /** The app-level token Socket Mode connects with (undefined: no Socket Mode). */
    get appToken() {
      return config.appToken;
    },
    get apiUrl() {
      return config.apiUrl;
    },
  };
}

// The scopes, each with its reason, live in scopes.ts.
export { BOT_SCOPES, USER_SCOPES } from './scopes.ts';

/** The `error` of a Slack Web API refusal (the SDK's platform error carries Slack's answer in `data`). */
export const slackErrorOf = (err: unknown): string | undefined => {
  const data = err && typeof err === 'object' && 'data' in err ? err.data : undefined;
  const code = data && typeof data === 'object' && 'error' in data ? data.error : undefined;
  return typeof code === 'string' ? code : undefined;
};
