/** Per-method tiers and token buckets answering "wait this long" like Slack's 429 + Retry-After. */

export type Tier = 1 | 2 | 3 | 4 | 'special' | 'post' | 'none';
export type RateLimitOptions = {
  /** 'real' applies Slack's published figures; 'off' never limits. */
  profile?: 'real' | 'off';
  /** Multiplies every window: 0.01 makes a minute last 0.6 s (tests). Default 1. */
  timeScale?: number;
  /** Apps outside the Marketplace: conversations.history/replies at 1 per minute, limit max 15. */
  nonMarketplace?: boolean;
};

const PER_MINUTE: Record<Exclude<Tier, 'post' | 'none'>, number> = {
  1: 1,
  2: 20,
  3: 50,
  4: 100,
  special: 600,
};

type Bucket = { tokens: number; updated: number };
type Rule = { capacity: number; perMs: number };

export function createRateLimiter(initial: RateLimitOptions, now: () => number) {
  let options: Required<RateLimitOptions> = {
    profile: 'real',
    timeScale: 1,
    nonMarketplace: false,
    ...initial,
  };
  const buckets = new Map<string, Bucket>();

  const ruleFor = (perMinute: number, capacity = perMinute): Rule => ({
    capacity,
    perMs: perMinute / (60_000 * options.timeScale),
  });

  /** Takes one token; returns 0 when allowed, else the wait in ms. */
  const take = (key: string, rule: Rule): number => {
    const t = now();
    const b = buckets.get(key) ?? { tokens: rule.capacity, updated: t };
    b.tokens = Math.min(rule.capacity, b.tokens + (t - b.updated) * rule.perMs);
    b.updated = t;
    buckets.set(key, b);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return Math.ceil((1 - b.tokens) / rule.perMs);
  };

  /** Returns ms to wait (0 = go) for a call of `method` by (team, channel). */
  const check = (method: string, tier: Tier, teamKey: string, channel?: string): number => {
    if (options.profile === 'off' || tier === 'none') return 0;
    if (tier === 'post') {
      const perChannel = take(`${teamKey}:post:${channel ?? '-'}`, ruleFor(60, 5));
      if (perChannel > 0) return perChannel;
      return take(`${teamKey}:post:*`, ruleFor(300));
    }
    const limited =
      options.nonMarketplace && (method === 'conversations.history' || method === 'conversations.replies');
    return take(`${teamKey}:${method}`, ruleFor(limited ? 1 : PER_MINUTE[tier]));
  };

  return {
    check,
    options: () => options,
    configure: (next: RateLimitOptions) => {
      options = { ...options, ...next };
      buckets.clear();
    },
    reset: () => buckets.clear(),
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;
