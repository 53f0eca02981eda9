import { and, desc, eq, gte } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOutbox } from './table.ts';

export type StoredMail = typeof mailOutbox.$inferSelect;

export const mailRepo = (db: Db) => ({
  async record(row: typeof mailOutbox.$inferInsert): Promise<void> {
    await db.insert(mailOutbox).values(row);
  },
  async listOutbox(to: string | undefined, since: Date | undefined, limit: number): Promise<StoredMail[]> {
    const where = and(
      eq(mailOutbox.transport, 'outbox'),
      to ? eq(mailOutbox.to, to) : undefined,
      since ? gte(mailOutbox.createdAt, since) : undefined,
    );
    return db.select().from(mailOutbox).where(where).orderBy(desc(mailOutbox.id)).limit(limit);
  },
});
