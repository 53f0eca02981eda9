import { and, count, desc, eq, gte, lt, lte, sql, type SQL } from 'drizzle-orm';
import type { AuditFilter } from '@flywheel/shared/audit';
import type { Db } from '../../db/client.ts';
import { auditEvents } from './table.ts';

export type AuditRow = typeof auditEvents.$inferSelect;
export type NewAuditRow = typeof auditEvents.$inferInsert;

const DAY_MS = 86_400_000;

/** The filters as conditions: the workspace, the person, the kind, and whole UTC days from..to. */
function where(teamId: string, f: AuditFilter, beforeId?: number): SQL | undefined {
  return and(
    eq(auditEvents.teamId, teamId),
    f.actor ? eq(auditEvents.actorUserId, f.actor) : undefined,
    f.kind ? eq(auditEvents.action, f.kind) : undefined,
    f.from ? gte(auditEvents.at, new Date(`${f.from}T00:00:00Z`)) : undefined,
    f.to ? lt(auditEvents.at, new Date(Date.parse(`${f.to}T00:00:00Z`) + DAY_MS)) : undefined,
    beforeId !== undefined ? lt(auditEvents.id, beforeId) : undefined,
  );
}

/** The audit log's rows: inserted, listed, exported, and deleted by age only (nothing updates a row). */
export const auditRepo = (db: Db) => ({
  async insert(rows: NewAuditRow[]): Promise<void> {
    if (rows.length > 0) await db.insert(auditEvents).values(rows);
  },

  async page(teamId: string, f: AuditFilter, page: number, pageSize: number) {
    const cond = where(teamId, f);
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(auditEvents)
        .where(cond)
        .orderBy(desc(auditEvents.at), desc(auditEvents.id))
        .limit(pageSize)
        .offset((page - 1) * pageSize),
      db.select({ n: count() }).from(auditEvents).where(cond),
    ]);
    return { rows, total: total?.n ?? 0 };
  },

  /** A batch of the filtered rows, newest first, with ids below `beforeId` (the CSV walks them in batches). */
  batch: (teamId: string, f: AuditFilter, beforeId: number | undefined, size: number) =>
    db
      .select()
      .from(auditEvents)
      .where(where(teamId, f, beforeId))
      .orderBy(desc(auditEvents.id))
      .limit(size),

  /** Everyone in the workspace's log (their latest e-mail) and every kind, for the filters. */
  async facets(teamId: string) {
    const [people, kinds] = await Promise.all([
      db
        .selectDistinctOn([auditEvents.actorUserId], {
          user_id: auditEvents.actorUserId,
          email: auditEvents.actorEmail,
        })
        .from(auditEvents)
        .where(and(eq(auditEvents.teamId, teamId), sql`${auditEvents.actorUserId} is not null`))
        .orderBy(auditEvents.actorUserId, desc(auditEvents.at)),
      db
        .selectDistinct({ action: auditEvents.action })
        .from(auditEvents)
        .where(eq(auditEvents.teamId, teamId))
        .orderBy(auditEvents.action),
    ]);
    return {
      people: people
        .map((p) => ({ user_id: p.user_id ?? '', email: p.email ?? '' }))
        .sort((a, b) => a.email.localeCompare(b.email)),
      kinds: kinds.map((k) => k.action),
    };
  },

  /** Deletes the rows recorded at or before `cutoff`; returns how many. */
  async deleteOlderThan(cutoff: Date): Promise<number> {
    const gone = await db
      .delete(auditEvents)
      .where(lte(auditEvents.at, cutoff))
      .returning({ id: auditEvents.id });
    return gone.length;
  },
});
