import type { ThreadSummary } from '@flywheel/shared/conversations';
import { AppError } from '../../lib/errors.ts';

/** How many threads' summaries a process keeps (the least recently asked go first): ~4 KB each. */
const KEPT_THREADS = 1000;
const WINDOW_MS = 60_000;

/**
 * What bounds the model's work, in this process: the summaries kept per thread until the thread changes (its
 * version), the model calls running (a request for a thread whose summary is being made waits for that call),
 * and each admin's model calls in the last minute.
 */
export function summaryCache(opts: { perAdminPerMinute: number; now: () => number }) {
  const kept = new Map<string, { version: string; summary: ThreadSummary }>();
  const running = new Map<string, Promise<ThreadSummary>>();
  const started = new Map<string, number[]>();

  return {
    /** The summary kept for this version of the thread, if any. */
    cached(key: string, version: string): ThreadSummary | null {
      const entry = kept.get(key);
      if (!entry || entry.version !== version) return null;
      kept.delete(key);
      kept.set(key, entry);
      return entry.summary;
    },

    /** The model call already making this version's summary, if any. */
    running: (key: string, version: string) => running.get(`${key}\n${version}`) ?? null,

    /** Counts a model call against `who`'s minute; 429 with Retry-After when the minute is full. */
    admit(who: string): void {
      const now = opts.now();
      const recent = (started.get(who) ?? []).filter((at) => at > now - WINDOW_MS);
      if (recent.length >= opts.perAdminPerMinute) {
        started.set(who, recent);
        const retryAfter = Math.max(1, Math.ceil((recent[0]! + WINDOW_MS - now) / 1000));
        throw new AppError(
          'TOO_MANY_ATTEMPTS',
          429,
          `Too many thread summaries: at most ${opts.perAdminPerMinute} a minute per admin. Try again in ${retryAfter} s.`,
          { 'retry-after': String(retryAfter) },
        );
      }
      recent.push(now);
      started.set(who, recent);
      // Admins with nothing in the window are forgotten, so the map holds only this minute's callers.
      if (started.size > 1000)
        for (const [k, v] of started) if (v.every((at) => at <= now - WINDOW_MS)) started.delete(k);
    },

    /**
     * Runs the model call for this version; every request that asks meanwhile shares it. `keep: false` (a
     * fallback when the model failed) answers those requests but is not kept, so the next one asks again.
     */
    run(
      key: string,
      version: string,
      work: () => Promise<{ summary: ThreadSummary; keep: boolean }>,
    ): Promise<ThreadSummary> {
      const id = `${key}\n${version}`;
      const call = work()
        .then(({ summary, keep }) => {
          if (keep) {
            kept.delete(key);
            kept.set(key, { version, summary });
            if (kept.size > KEPT_THREADS) kept.delete(kept.keys().next().value!);
          }
          return summary;
        })
        .finally(() => running.delete(id));
      running.set(id, call);
      return call;
    },
  };
}
