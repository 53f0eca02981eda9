import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { firstRow } from '../../db/sql.ts';

export type KeyRow = {
  request_hash: string;
  token: string;
  status_code: number | null;
  response: unknown;
};

/** Keys are kept (and answered) this long; then the same key is a new request. */
export const KEY_TTL_HOURS = 24;

/** The Idempotency-Key store (`idempotency_keys`), per workspace and admin. */
export const idempotencyRepo = (db: Db) => ({
  /**
   * Takes the key for this request: a new key, one older than the TTL (a new request: new token), or one whose
   * first request stopped answering `staleSeconds` ago (crashed: its token is kept, so its send's receipt is
   * found, not made again). Answers the token, or null when another request holds or answered the key.
   */
  async claim(
    k: { teamId: string; userId: string; key: string },
    hash: string,
    token: string,
    staleSeconds: number,
  ): Promise<string | null> {
    // Expired keys of this admin go first (the table holds a day of keys).
    await db.execute(sql`delete from idempotency_keys where team_id = ${k.teamId} and user_id = ${k.userId}
      and created_at < now() - make_interval(hours => ${KEY_TTL_HOURS}) and key <> ${k.key}`);
    const row = await firstRow<{ token: string }>(
      db,
      sql`insert into idempotency_keys as k (team_id, user_id, key, request_hash, token)
        values (${k.teamId}, ${k.userId}, ${k.key}, ${hash}, ${token})
        on conflict (team_id, user_id, key) do update set
          request_hash = excluded.request_hash,
          token = case when k.created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})
            then excluded.token else k.token end,
          status_code = null, response = null, claimed_at = now(),
          created_at = case when k.created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})
            then now() else k.created_at end
        where k.created_at < now() - make_interval(hours => ${KEY_TTL_HOURS})
          or (k.status_code is null and k.request_hash = excluded.request_hash
            and k.claimed_at < now() - make_interval(secs => ${staleSeconds}))
        returning token`,
    );
    return row?.token ?? null;
  },

  async find(k: { teamId: string; userId: string; key: string }): Promise<KeyRow | undefined> {
    return firstRow<KeyRow>(
      db,
      sql`select request_hash, token, status_code, response from idempotency_keys
        where team_id = ${k.teamId} and user_id = ${k.userId} and key = ${k.key}
          and created_at >= now() - make_interval(hours => ${KEY_TTL_HOURS})`,
    );
  },

  /** The first request's answer, replayed to the key from now on. */
  async answer(
    k: { teamId: string; userId: string; key: string },
    token: string,
    status: number,
    body: unknown,
  ) {
    await db.execute(sql`update idempotency_keys set status_code = ${status}, response = ${JSON.stringify(body)}::jsonb
      where team_id = ${k.teamId} and user_id = ${k.userId} and key = ${k.key} and token = ${token}`);
  },

  /** The first request failed: the key is free again (a failed request is not an answer to replay). */
  async release(k: { teamId: string; userId: string; key: string }, token: string) {
    await db.execute(sql`delete from idempotency_keys
      where team_id = ${k.teamId} and user_id = ${k.userId} and key = ${k.key} and token = ${token}
        and status_code is null`);
  },
});
