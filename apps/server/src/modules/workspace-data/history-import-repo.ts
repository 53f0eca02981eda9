import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { backfills } from './table.ts';

export type BackfillState = {
  phase: 'users' | 'channels' | 'members' | 'history' | 'replies' | 'done';
  cursor?: string;
  channels: { id: string; general: boolean }[];
  /** Index into `channels` of the channel being imported. */
  ci: number;
  /** Thread parents (of the current history page) still to fetch replies for. */
  threads: string[];
  /** The channel's next history page, to continue with once those replies are in. */
  historyCursor?: string;
  oldest: number;
  /** Slack answered as it does an app outside the Marketplace: history is paced at the limited tier. */
  limited?: boolean;
};

export type Backfill = typeof backfills.$inferSelect & { state: BackfillState };

const LEASE_MS = 60_000;

export const backfillRepo = (db: Db) => ({
  async get(teamId: string): Promise<Backfill | undefined> {
    const [row] = await db.select().from(backfills).where(eq(backfills.teamId, teamId));
    return row as Backfill | undefined;
  },
  /** (Re)starts an import unless one is running. Returns true when it (re)started. */
  async start(teamId: string, days: number): Promise<boolean> {
    const state: BackfillState = {
      phase: 'users',
      channels: [],
      ci: 0,
      threads: [],
      oldest: Math.floor(Date.now() / 1000) - days * 86400,
    };
    const values = {
      teamId,
      status: 'running' as const,
      days,
      state,
      channelsTotal: 0,
      channelsDone: 0,
      messages: 0,
      requests: 0,
      rateLimited: 0,
      startedAt: new Date(),
      updatedAt: new Date(),
      finishedAt: null,
      error: null,
      leasedUntil: null,
    };
    const rows = await db
      .insert(backfills)
      .values(values)
      .onConflictDoUpdate({
        target: backfills.teamId,
        set: values,
        setWhere: sql`${backfills.status} <> 'running'`,
      })
      .returning({ teamId: backfills.teamId });
    return rows.length === 1;
  },
  /** Takes (or renews) the lease of a running import; false when another runner holds it. */
  async lease(teamId: string, owner: boolean): Promise<boolean> {
    const until = new Date(Date.now() + LEASE_MS);
    const rows = await db
      .update(backfills)
      .set({ leasedUntil: until })
      .where(
        and(
          eq(backfills.teamId, teamId),
          eq(backfills.status, 'running'),
          owner ? undefined : or(isNull(backfills.leasedUntil), lt(backfills.leasedUntil, new Date())),
        ),
      )
      .returning({ teamId: backfills.teamId });
    return rows.length === 1;
  },
  async save(teamId: string, patch: Partial<Omit<Backfill, 'teamId'>>): Promise<void> {
    await db
      .update(backfills)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(backfills.teamId, teamId));
  },
  /** Saves the position after a page, inside the page's transaction, and renews the runner's lease. */
  async saveStep(
    tx: Tx,
    teamId: string,
    p: Pick<Backfill, 'requests' | 'rateLimited' | 'messages' | 'channelsTotal' | 'channelsDone'> & {
      state: BackfillState;
    },
  ): Promise<void> {
    const until = new Date(Date.now() + LEASE_MS);
    await tx.execute(sql`update ${backfills} set state = ${JSON.stringify(p.state)}::jsonb,
      requests = ${p.requests}, rate_limited = ${p.rateLimited}, messages = ${p.messages},
      channels_total = ${p.channelsTotal}, channels_done = ${p.channelsDone}, leased_until = ${until},
      updated_at = now() where team_id = ${teamId}`);
  },
  async release(teamId: string): Promise<void> {
    await db.update(backfills).set({ leasedUntil: null }).where(eq(backfills.teamId, teamId));
  },
  async listRunning(): Promise<string[]> {
    const rows = await db
      .select({ teamId: backfills.teamId })
      .from(backfills)
      .where(eq(backfills.status, 'running'));
    return rows.map((r) => r.teamId);
  },
});
