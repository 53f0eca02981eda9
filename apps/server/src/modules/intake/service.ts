import type { AppContext } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { LOCKS, xactLock } from '../../db/locks.ts';
import type { Tx } from '../../db/sql.ts';
import type { Logger } from '../../lib/logger.ts';
import { rollupBuffer } from '../activity/rollups.ts';
import { applyEvent, botDirectory, factsWriter, type WorkspaceEffect } from '../workspace-data/ingest.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { inboxRepo, type InboxItem } from './inbox-repo.ts';
import { dispatchEvent, type EventListeners } from './listeners.ts';

const BATCH = 2000;
const MAX_ATTEMPTS = 5;

export type EventsService = ReturnType<typeof eventsService>;

/**
 * Events API intake and processing. Intake stores each delivery once (by event_id) and returns at once;
 * `drain` applies stored events in arrival order, in batches, each batch in one transaction with its rollups.
 */
export function eventsService(deps: {
  db: Db;
  logger: Logger;
  workspaces: WorkspacesService;
  /** Other modules' listeners by event type (see listeners.ts). */
  listeners: EventListeners;
  /** The process context handed to listeners (the context holds this service, hence the getter). */
  ctx: () => AppContext;
}) {
  const inbox = inboxRepo(deps.db);

  // Never read through the pool inside a batch's transaction: PGlite has one connection.
  async function applyItems(
    items: InboxItem[],
    tx: Tx,
    tzs: Map<string, string>,
    afterCommit: Map<string, () => Promise<unknown>>,
  ) {
    const buf = rollupBuffer();
    const facts = factsWriter();
    const bots = botDirectory();
    const effects: WorkspaceEffect[] = [];
    for (const item of items) {
      const scope = { tx, teamId: item.team_id, tz: tzs.get(item.team_id) ?? 'UTC', buf, facts, bots };
      effects.push(...(await applyEvent(scope, item.payload)));
      const event = item.payload.event;
      const listeners = deps.listeners.get(typeof event?.type === 'string' ? event.type : '');
      if (listeners?.length) {
        // Listeners see the event's facts written (held inserts go first); rollups and the questions' first
        // answers are written at the end.
        await facts.writeHeld(tx);
        await dispatchEvent(
          listeners,
          event,
          {
            tx,
            teamId: scope.teamId,
            tz: scope.tz,
            eventId: item.event_id,
            ctx: deps.ctx(),
            afterCommit: (key, fn) => void afterCommit.set(key, fn),
          },
          deps.logger,
        );
      }
    }
    await facts.flush(tx);
    await buf.flush(tx);
    await inbox.markProcessed(
      tx,
      items.map((i) => i.event_id),
    );
    return effects;
  }

  /** One batch; returns how many events it applied. */
  async function drainBatch(): Promise<number> {
    let effects: WorkspaceEffect[] = [];
    let claimed: InboxItem[] = [];
    const tzs = await deps.workspaces.allTimezones();
    const afterCommit = new Map<string, () => Promise<unknown>>();
    try {
      const n = await deps.db.transaction(async (tx) => {
        await xactLock(tx, LOCKS.ingest);
        claimed = await inbox.claim(tx, BATCH);
        if (claimed.length === 0) return 0;
        effects = await applyItems(claimed, tx, tzs, afterCommit);
        return claimed.length;
      });
      await applyEffects(effects);
      await runAfterCommit(afterCommit);
      return n;
    } catch (err) {
      if (claimed.length === 0) throw err;
      // A bad event must not hold up the rest: apply them one by one, setting aside what keeps failing.
      deps.logger.warn({ err }, 'event batch failed; retrying its events one by one');
      for (const item of claimed) {
        try {
          const after = new Map<string, () => Promise<unknown>>();
          const one = await deps.db.transaction(async (tx) => {
            // Under the lock, and only if no other drain applied it since the batch rolled back.
            await xactLock(tx, LOCKS.ingest);
            if (!(await inbox.isPending(tx, item.event_id))) return [];
            return applyItems([item], tx, tzs, after);
          });
          await applyEffects(one);
          await runAfterCommit(after);
        } catch (e) {
          deps.logger.error({ err: e, eventId: item.event_id }, 'event failed');
          await inbox.markFailed(item.event_id, e instanceof Error ? e.message : String(e), MAX_ATTEMPTS);
        }
      }
      return claimed.length;
    }
  }

  /** What listeners asked to do once their rows are committed; a failure is logged (their jobs also poll). */
  async function runAfterCommit(tasks: Map<string, () => Promise<unknown>>) {
    for (const [key, fn] of tasks) {
      try {
        await fn();
      } catch (err) {
        deps.logger.warn({ err, key }, 'after-commit task of an event listener failed');
      }
    }
  }

  async function applyEffects(effects: WorkspaceEffect[]) {
    for (const e of effects) {
      if (e.kind === 'disconnected') await deps.workspaces.markDisconnected(e.teamId, e.reason);
      else await deps.workspaces.forgetUserTokens(e.teamId, e.slackUserIds);
    }
  }

  return {
    store: storer(inbox),
    /** Applies everything pending, batch by batch, until the inbox is empty. */
    async drain(): Promise<number> {
      let total = 0;
      for (;;) {
        const n = await drainBatch();
        if (n <= 0) return total;
        total += n;
      }
    },
    pending: () => inbox.pending(),
    purgeProcessed: () => inbox.purgeProcessed(new Date(Date.now() - 7 * 86400_000)),
  };
}

type Delivery = { eventId: string; teamId: string; eventType: string; payload: unknown };

/**
 * Stores deliveries once per event_id. Up to `lanes` inserts run at once; deliveries arriving while they
 * are under way wait and then go in together, one statement and one commit for the lot. Under load the
 * inbox costs a commit per handful of events instead of one per event (a commit is what limits intake),
 * and each delivery is still acknowledged only once it is committed.
 */
function storer(inbox: ReturnType<typeof inboxRepo>, lanes = 4, maxBatch = 500) {
  let waiting: { e: Delivery; resolve: (fresh: boolean) => void; reject: (err: unknown) => void }[] = [];
  let running = 0;
  async function lane() {
    running++;
    while (waiting.length) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        const fresh = await inbox.addMany(batch.map((w) => w.e));
        // A retry in the same statement as its original: only the first can be the new one.
        const seen = new Set<string>();
        for (const w of batch) {
          w.resolve(fresh.has(w.e.eventId) && !seen.has(w.e.eventId));
          seen.add(w.e.eventId);
        }
      } catch (err) {
        // One bad delivery (say, JSON that PostgreSQL refuses) must not fail the others stored with it.
        if (batch.length === 1) batch[0]!.reject(err);
        else
          for (const w of batch) {
            try {
              w.resolve(await inbox.add(w.e));
            } catch (e) {
              w.reject(e);
            }
          }
      }
    }
    running--;
  }
  return (e: Delivery): Promise<boolean> =>
    new Promise((resolve, reject) => {
      waiting.push({ e, resolve, reject });
      if (running < lanes) void lane();
    });
}
