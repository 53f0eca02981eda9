/**
 * In-process token buckets, one per key: each holds up to `burst` tokens and gains `perSecond` a second; a call
 * takes one. `take` answers 0 when it got one, else the whole seconds until one is there (for Retry-After).
 */
export function tokenBuckets(opts: { burst: number; perSecond: number; now?: () => number }) {
  const now = opts.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(key: string): number {
      const t = now();
      const b = buckets.get(key) ?? { tokens: opts.burst, at: t };
      b.tokens = Math.min(opts.burst, b.tokens + ((t - b.at) / 1000) * opts.perSecond);
      b.at = t;
      buckets.set(key, b);
      if (b.tokens >= 1) {
        b.tokens -= 1;
        return 0;
      }
      return Math.max(1, Math.ceil((1 - b.tokens) / opts.perSecond));
    },
  };
}
