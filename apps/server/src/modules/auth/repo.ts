import { and, count, eq, gt, inArray, isNull, lt, min, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { appSecrets, authTokens, loginAttempts, sessions, users } from './table.ts';

export type User = typeof users.$inferSelect;
export type TokenKind = (typeof authTokens.$inferSelect)['kind'];

export const authRepo = (db: Db) => ({
  async findUserByEmail(email: string): Promise<User | undefined> {
    const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
    return row;
  },
  async findUserById(id: string): Promise<User | undefined> {
    const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return row;
  },
  /** Inserts the user; returns false when the e-mail is already registered. */
  async insertUser(row: typeof users.$inferInsert): Promise<boolean> {
    const inserted = await db.insert(users).values(row).onConflictDoNothing().returning({ id: users.id });
    return inserted.length === 1;
  },
  async setPassword(userId: string, passwordHash: string): Promise<void> {
    await db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, userId));
  },
  async markVerified(userId: string): Promise<void> {
    await db
      .update(users)
      .set({ emailVerifiedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(users.id, userId), isNull(users.emailVerifiedAt)));
  },

  async insertSession(row: typeof sessions.$inferInsert): Promise<void> {
    await db.insert(sessions).values(row);
  },
  async findSession(jti: string) {
    const [row] = await db.select().from(sessions).where(eq(sessions.jti, jti)).limit(1);
    return row;
  },
  async revokeSession(jti: string): Promise<void> {
    await db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.jti, jti), isNull(sessions.revokedAt)));
  },
  async revokeAllSessions(userId: string): Promise<void> {
    await db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));
  },

  async insertToken(row: typeof authTokens.$inferInsert): Promise<void> {
    await db.insert(authTokens).values(row);
  },
  /** Marks a live token used and returns its owner; undefined when unknown, used, expired or of another kind. */
  async consumeToken(tokenHash: string, kind: TokenKind): Promise<string | undefined> {
    const [row] = await db
      .update(authTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(authTokens.tokenHash, tokenHash),
          eq(authTokens.kind, kind),
          isNull(authTokens.usedAt),
          gt(authTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: authTokens.userId });
    return row?.userId;
  },
  /** Retires the unused tokens of a kind, so only the newest e-mailed link works. */
  async retireTokens(userId: string, kind: TokenKind): Promise<void> {
    await db
      .update(authTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(authTokens.userId, userId), eq(authTokens.kind, kind), isNull(authTokens.usedAt)));
  },

  /** Failed attempts per key since `since`, and when the oldest of them was made. */
  async countAttempts(keys: string[], since: Date): Promise<Map<string, { n: number; oldest: Date }>> {
    const rows = await db
      .select({ key: loginAttempts.key, n: count(), oldest: min(loginAttempts.attemptedAt) })
      .from(loginAttempts)
      .where(and(inArray(loginAttempts.key, keys), gt(loginAttempts.attemptedAt, since)))
      .groupBy(loginAttempts.key);
    return new Map(rows.map((r) => [r.key, { n: Number(r.n), oldest: new Date(r.oldest ?? Date.now()) }]));
  },
  /**
   * Takes one slot under every key unless one of them already holds `max` attempts since `since`. Atomic:
   * each key's advisory lock (taken in key order) is held while counting and inserting, so N parallel
   * requests can never pass a limit of M < N. Answers the slots' ids, or the full key and its oldest attempt.
   */
  async reserveAttempts(
    limits: { key: string; max: number }[],
    since: Date,
  ): Promise<{ ok: true; ids: number[] } | { ok: false; key: string; oldest: Date }> {
    const keys = limits.map((l) => l.key);
    return db.transaction(async (tx) => {
      for (const key of [...keys].sort())
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`attempts:${key}`}))`);
      const rows = await tx
        .select({ key: loginAttempts.key, n: count(), oldest: min(loginAttempts.attemptedAt) })
        .from(loginAttempts)
        .where(and(inArray(loginAttempts.key, keys), gt(loginAttempts.attemptedAt, since)))
        .groupBy(loginAttempts.key);
      for (const l of limits) {
        const r = rows.find((x) => x.key === l.key);
        if (r && Number(r.n) >= l.max)
          return { ok: false as const, key: l.key, oldest: new Date(r.oldest ?? Date.now()) };
      }
      const ids = await tx
        .insert(loginAttempts)
        .values(keys.map((key) => ({ key })))
        .returning({ id: loginAttempts.id });
      return { ok: true as const, ids: ids.map((r) => r.id) };
    });
  },
  /** Gives reserved slots back (the attempt turned out not to count). */
  async releaseAttempts(ids: number[]): Promise<void> {
    if (ids.length > 0) await db.delete(loginAttempts).where(inArray(loginAttempts.id, ids));
  },
  async clearAttempts(key: string): Promise<void> {
    await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
  },
  /** Clears every key that starts with `prefix` (all addresses of one e-mail). */
  async clearAttemptsStartingWith(prefix: string): Promise<void> {
    await db.delete(loginAttempts).where(sql`left(${loginAttempts.key}, ${prefix.length}) = ${prefix}`);
  },

  /**
   * Marks a key (`login-ok:<e-mail>|<address>`) as proven now: one row per key, the latest proof. Kept in the
   * attempts table, whose rows under other keys count failures.
   */
  async markProven(key: string): Promise<void> {
    await db.transaction(async (tx) => {
      await tx.delete(loginAttempts).where(eq(loginAttempts.key, key));
      await tx.insert(loginAttempts).values({ key });
    });
  },
  /** Whether a key was proven since `since`. */
  async provenSince(key: string, since: Date): Promise<boolean> {
    const [row] = await db
      .select({ id: loginAttempts.id })
      .from(loginAttempts)
      .where(and(eq(loginAttempts.key, key), gt(loginAttempts.attemptedAt, since)))
      .limit(1);
    return row !== undefined;
  },

  /** Removes what can no longer matter: expired sessions and tokens, old attempts and old proofs. */
  async purgeExpired(attemptsBefore: Date, proofsBefore: Date, proofPrefix: string): Promise<void> {
    const now = new Date();
    await db.delete(sessions).where(lt(sessions.expiresAt, now));
    await db
      .delete(authTokens)
      .where(or(lt(authTokens.expiresAt, now), sql`${authTokens.usedAt} is not null`));
    const isProof = sql`left(${loginAttempts.key}, ${proofPrefix.length}) = ${proofPrefix}`;
    await db
      .delete(loginAttempts)
      .where(and(lt(loginAttempts.attemptedAt, attemptsBefore), sql`not (${isProof})`));
    await db.delete(loginAttempts).where(and(lt(loginAttempts.attemptedAt, proofsBefore), isProof));
  },

  /** Returns the stored secret, creating it with `generate()` the first time (safe across processes). */
  async secret(name: string, generate: () => string): Promise<string> {
    await db.insert(appSecrets).values({ name, value: generate() }).onConflictDoNothing();
    const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
    return row!.value;
  },

  /** A one-time marker's value, or null when it was never claimed. */
  async marker(name: string): Promise<string | null> {
    const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
    return row?.value ?? null;
  },

  /** Claims a one-time marker: true for the one caller that wrote it (safe across processes). */
  async claimMarker(name: string, value: string): Promise<boolean> {
    const rows = await db
      .insert(appSecrets)
      .values({ name, value })
      .onConflictDoNothing()
      .returning({ name: appSecrets.name });
    return rows.length === 1;
  },

  async setMarker(name: string, value: string): Promise<void> {
    await db.update(appSecrets).set({ value }).where(eq(appSecrets.name, name));
  },
});
