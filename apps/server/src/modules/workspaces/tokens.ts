import type { OauthV2AccessResponse } from '@slack/web-api';
import type { Db } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { slackErrorOf, type SlackApi, type TokenSource } from '../../slack/client.ts';
import { workspacesRepo, type TokenKey } from './repo.ts';

/** How long a process's claim on a refresh lasts: more than the refresh call's timeout and its storing. */
const CLAIM_SECONDS = 60;
/** The refresh call's own time limit. */
const REFRESH_TIMEOUT_MS = 20_000;
/** How often a process waiting for another one's refresh looks at the stored token. */
const WAIT_STEP_MS = 100;
/** Slack's answers after which a refresh token is dead: the workspace (or sender) needs authorizing again. */
const REFUSED = new Set([
  'invalid_refresh_token',
  'invalid_grant',
  'token_revoked',
  'account_inactive',
  'invalid_auth',
]);

/** A refresh that failed for a reason worth another try later (network, 5xx, rate limit, app credentials). */
export class TokenRefreshError extends Error {}

/** The reason a workspace whose bot token could not be renewed is disconnected with. */
export const REFRESH_REFUSED_REASON = 'token_refresh_failed';

type Held = { token: string; sealed: string; expiresAt: number | null; rotating: boolean };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export type TokenProvider = ReturnType<typeof tokenProvider>;

/**
 * The one place a workspace's Slack tokens are opened: every WebClient of a workspace gets its token from here
 * (`TokenSource`). A token without rotation is handed out as stored. A rotating one (Slack's token rotation: it
 * expires after 12 hours and comes with a refresh token that works once) is renewed `marginMs` before it expires,
 * and when Slack answers `token_expired` (or `invalid_auth`).
 *
 * Renewing is read, check, refresh, store, and several processes must never spend the same refresh token twice
 * (the second exchange would fail, and the workspace would need installing again). A process first claims the
 * refresh on the row (`claimRefresh`: one conditional UPDATE, only while the stored token is the one it saw and
 * no live claim exists), then calls Slack with no transaction open, then stores the new pair and ends the claim
 * in one UPDATE. A process that finds a live claim waits and re-reads the row, and uses the token the claiming
 * one stored. No transaction is held across the call to Slack: on PGlite (one connection) it would stop every
 * other statement of the process for the call's duration, and an advisory lock held that long would need a
 * connection of its own on PostgreSQL. A claim whose process died lapses after CLAIM_SECONDS. Within a process,
 * concurrent renewals of a token share one promise.
 */
export function tokenProvider(deps: {
  db: Db;
  box: SecretBox;
  slack: SlackApi;
  logger: Logger;
  /** Renew a rotating token this long before it expires. */
  marginMs: number;
  now?: () => number;
}) {
  const repo = workspacesRepo(deps.db);
  const now = deps.now ?? Date.now;
  const inFlight = new Map<string, Promise<Held | null>>();
  const nameOf = (key: TokenKey) => (key.slackUserId ? `${key.teamId}:${key.slackUserId}` : key.teamId);
  const fresh = (h: Held) => h.expiresAt === null || h.expiresAt - now() > deps.marginMs;

  async function read(key: TokenKey): Promise<Held | undefined> {
    const row = await repo.storedToken(key);
    if (!row) return undefined;
    return {
      token: deps.box.open(row.tokenSealed),
      sealed: row.tokenSealed,
      expiresAt: row.expiresAt?.getTime() ?? null,
      rotating: row.refreshSealed !== null,
    };
  }

  /** Slack refused the refresh token: the workspace is disconnected (bot), or the sender forgotten (user). */
  async function refused(key: TokenKey, code: string): Promise<void> {
    deps.logger.warn(
      { teamId: key.teamId, slackUserId: key.slackUserId, slackError: code },
      'Slack refused a token refresh: authorize Flywheel again',
    );
    if (key.slackUserId === undefined) await repo.markDisconnected(key.teamId, REFRESH_REFUSED_REASON);
    else await repo.forgetUserTokens(key.teamId, [key.slackUserId]);
  }

  /** Exchanges a claimed refresh token for a new pair and stores it (the claim ends either way). */
  async function exchange(key: TokenKey, refreshToken: string): Promise<Held | null> {
    let res: OauthV2AccessResponse;
    try {
      res = await deps.slack
        .client(undefined, { retries: 0, timeoutMs: REFRESH_TIMEOUT_MS })
        .oauth.v2.access({
          client_id: deps.slack.clientId,
          client_secret: deps.slack.clientSecret,
          grant_type: 'refresh_token',
          refresh_token: refreshToken,
        });
    } catch (err) {
      const code = slackErrorOf(err);
      if (code && REFUSED.has(code)) {
        await refused(key, code);
        return null;
      }
      await repo.releaseRefresh(key);
      throw new TokenRefreshError(`Slack token refresh failed (${code ?? (err as Error).message})`);
    }
    if (!res.access_token || !res.refresh_token) {
      await refused(key, 'no_refresh_token');
      return null;
    }
    const held: Held = {
      token: res.access_token,
      sealed: deps.box.seal(res.access_token),
      expiresAt: res.expires_in ? now() + res.expires_in * 1000 : null,
      rotating: true,
    };
    await repo.storeRefreshed(key, {
      tokenSealed: held.sealed,
      refreshSealed: deps.box.seal(res.refresh_token),
      expiresAt: held.expiresAt === null ? null : new Date(held.expiresAt),
    });
    deps.logger.info({ teamId: key.teamId, slackUserId: key.slackUserId }, 'Slack token refreshed');
    return held;
  }

  /**
   * A stored token good for at least the margin and other than `stale` (the one Slack refused; null: the one
   * held expires soon), refreshing it when needed, once across processes. Null when there is none to be had.
   */
  async function renew(key: TokenKey, stale: string | null): Promise<Held | null> {
    const deadline = now() + (CLAIM_SECONDS + 15) * 1000;
    while (now() < deadline) {
      const held = await read(key);
      if (!held) return null;
      if (held.token !== stale && (fresh(held) || !held.rotating)) return held;
      if (!held.rotating) return null;
      const refreshSealed = await repo.claimRefresh(key, held.sealed, CLAIM_SECONDS);
      if (refreshSealed) return exchange(key, deps.box.open(refreshSealed));
      // Another process renews it (or just did): wait for the token it stores.
      await sleep(WAIT_STEP_MS);
    }
    throw new TokenRefreshError('Timed out waiting for another process to refresh the Slack token');
  }

  /** One renewal at a time per token and reason in this process; the others wait for its answer. */
  function renewShared(key: TokenKey, stale: string | null): Promise<Held | null> {
    const name = `${nameOf(key)}|${stale ?? ''}`;
    let p = inFlight.get(name);
    if (!p) {
      p = renew(key, stale).finally(() => inFlight.delete(name));
      inFlight.set(name, p);
    }
    return p;
  }

  function sourceOf(key: TokenKey, first: Held): TokenSource {
    let held = first;
    return {
      async current() {
        if (fresh(held)) return held.token;
        const next = await renewShared(key, null);
        // None to be had (refused, disconnected): the call goes with the old one, and Slack answers it.
        if (next) held = next;
        return held.token;
      },
      async renewed(stale, error) {
        // invalid_auth from a token that does not rotate is final, as before rotation.
        if (error === 'invalid_auth' && !held.rotating) return null;
        const next = await renewShared(key, stale);
        if (!next || next.token === stale) return null;
        held = next;
        return held.token;
      },
    };
  }

  return {
    /** The bot token of an active workspace, or undefined (none stored, disconnected). */
    async bot(teamId: string): Promise<TokenSource | undefined> {
      const key = { teamId };
      const held = await read(key);
      return held ? sourceOf(key, held) : undefined;
    },
    /** The user token of a Slack user admins send as, or null. */
    async user(teamId: string, slackUserId: string): Promise<TokenSource | null> {
      const key = { teamId, slackUserId };
      const held = await read(key);
      return held ? sourceOf(key, held) : null;
    },
  };
}
