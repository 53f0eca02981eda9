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
  async recordAttempts(keys: string[]): Promise<void> {
    await db.insert(loginAttempts).values(keys.map((key) => ({ key })));
  },
  async clearAttempts(key: string): Promise<void> {
    await db.delete(loginAttempts).where(eq(loginAttempts.key, key));
  },

  /** Removes what can no longer matter: expired sessions and tokens, old attempts. */
  async purgeExpired(attemptsBefore: Date): Promise<void> {
    const now = new Date();
    await db.delete(sessions).where(lt(sessions.expiresAt, now));
    await db
      .delete(authTokens)
      .where(or(lt(authTokens.expiresAt, now), sql`${authTokens.usedAt} is not null`));
    await db.delete(loginAttempts).where(lt(loginAttempts.attemptedAt, attemptsBefore));
  },

  /** Returns the stored secret, creating it with `generate()` the first time (safe across processes). */
  async secret(name: string, generate: () => string): Promise<string> {
    await db.insert(appSecrets).values({ name, value: generate() }).onConflictDoNothing();
    const [row] = await db.select().from(appSecrets).where(eq(appSecrets.name, name));
    return row!.value;
  },
});
