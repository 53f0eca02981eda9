import { csvLine, CSV_BOM } from '@flywheel/shared/csv';
import {
  AUDIT_CSV_HEADERS,
  auditObjectsText,
  type AuditEvent,
  type AuditFilter,
  type AuditListResponse,
  type AuditObjects,
} from '@flywheel/shared/audit';
import { storableJson, storableText } from '@flywheel/shared/text';
import type { Db } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { auditRepo, type AuditRow, type NewAuditRow } from './repo.ts';

export type AuditService = ReturnType<typeof auditService>;

/** Who acted: a person, or an API key (whose creator is the user). */
export type AuditActor = {
  kind: 'user' | 'api_key';
  userId: string | null;
  email: string | null;
  /** The API key's name. */
  label: string | null;
};

export type AuditEntry = {
  teamId: string;
  actor: AuditActor;
  action: string;
  method: string;
  route: string;
  objects: AuditObjects;
  status: number;
  summary: string;
};

const CSV_BATCH = 1000;
const DAY_MS = 86_400_000;

export const toAuditEvent = (r: AuditRow): AuditEvent => ({
  id: r.id,
  at: r.at.toISOString(),
  actor_kind: r.actorKind,
  actor_user_id: r.actorUserId,
  actor_email: r.actorEmail,
  actor_label: r.actorLabel,
  action: r.action,
  method: r.method,
  route: r.route,
  objects: r.objects,
  status: r.status,
  summary: r.summary,
});

/** The safe part of a failed write's error: the database's own message and code (never the row's values). */
function reasonOf(err: unknown): { code?: string; reason: string } {
  const inner = (err as { cause?: unknown })?.cause ?? err;
  const e = inner as { code?: unknown; message?: unknown };
  return {
    code: typeof e?.code === 'string' ? e.code : undefined,
    reason: typeof e?.message === 'string' ? e.message.slice(0, 200) : 'unknown error',
  };
}

/**
 * The audit log: writes that never hold up or fail the call they record (a failed insert is logged and
 * dropped), the filtered list and CSV, and the retention sweep.
 */
export const auditService = (deps: { db: Db; logger: Logger; retentionDays: number }) => {
  const repo = auditRepo(deps.db);
  const pending = new Set<Promise<void>>();
  const log = deps.logger.child({ module: 'audit' });

  return {
    /** Records the entries in the background; a failure is logged without the entries' content. */
    record(entries: AuditEntry[]): void {
      if (entries.length === 0) return;
      const rows: NewAuditRow[] = entries.map((e) => ({
        teamId: e.teamId,
        actorKind: e.actor.kind,
        actorUserId: e.actor.userId,
        actorEmail: e.actor.email,
        actorLabel: e.actor.label === null ? null : storableText(e.actor.label),
        action: e.action,
        method: e.method,
        route: e.route,
        objects: storableJson(e.objects),
        status: e.status,
        summary: storableText(e.summary),
      }));
      const write = repo.insert(rows).catch((err: unknown) => {
        log.warn(
          { ...reasonOf(err), actions: entries.map((e) => e.action), route: entries[0]!.route },
          'audit log write failed; the call itself succeeded',
        );
      });
      pending.add(write);
      void write.finally(() => pending.delete(write));
    },

    /** Waits for the writes under way (tests, and a clean shutdown). */
    async flush(): Promise<void> {
      while (pending.size > 0) await Promise.all([...pending]);
    },

    async list(teamId: string, f: AuditFilter, page: number, pageSize: number): Promise<AuditListResponse> {
      const [{ rows, total }, facets] = await Promise.all([
        repo.page(teamId, f, page, pageSize),
        repo.facets(teamId),
      ]);
      return { data: rows.map(toAuditEvent), total, page, page_size: pageSize, ...facets };
    },

    /** The filtered log as CSV lines (the shared formula-safe cell writer), newest first, in batches. */
    async *csv(teamId: string, f: AuditFilter): AsyncGenerator<string> {
      yield `${CSV_BOM}${csvLine(AUDIT_CSV_HEADERS)}`;
      let before: number | undefined;
      for (;;) {
        const rows = await repo.batch(teamId, f, before, CSV_BATCH);
        if (rows.length === 0) return;
        yield rows
          .map((r) =>
            csvLine([
              r.at.toISOString(),
              r.actorEmail ?? r.actorUserId ?? '',
              r.actorKind,
              r.actorLabel ?? '',
              r.action,
              r.method,
              r.route,
              auditObjectsText(r.objects),
              r.status,
              r.summary,
            ]),
          )
          .join('');
        if (rows.length < CSV_BATCH) return;
        before = rows[rows.length - 1]!.id;
      }
    },

    /** Deletes rows older than the retention (AUDIT_RETENTION_DAYS); returns how many went. */
    async purgeExpired(now = new Date()): Promise<number> {
      const n = await repo.deleteOlderThan(new Date(now.getTime() - deps.retentionDays * DAY_MS));
      if (n > 0) log.info({ deleted: n, retentionDays: deps.retentionDays }, 'audit log: old rows deleted');
      return n;
    },
  };
};
