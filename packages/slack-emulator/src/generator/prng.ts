/** Seeded pseudo-random numbers: every generated fact is a pure function of (seed, key...). */

export type Rng = {
  next(): number;
  int(maxExclusive: number): number;
  range(min: number, maxInclusive: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Pareto-like heavy tail >= 1 (alpha ~1.2 gives a few very heavy values). */
  pareto(alpha: number): number;
  /** Poisson sample (normal approximation above 50). */
  poisson(mean: number): number;
};

/** 32-bit hash of a seed and a list of keys (FNV-1a then avalanche). */
export function hashKey(seed: number, ...keys: (string | number)[]): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (const key of keys) {
    const s = typeof key === 'number' ? String(key) : key;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 16777619);
    }
    h ^= 0x2f;
    h = Math.imul(h, 16777619);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** sfc32 generator seeded from a hash of (seed, keys). */
export function rngFor(seed: number, ...keys: (string | number)[]): Rng {
  let a = hashKey(seed, ...keys, 'a');
  let b = hashKey(seed, ...keys, 'b');
  let c = hashKey(seed, ...keys, 'c');
  let d = 1;
  const next = (): number => {
    a >>>= 0;
    b >>>= 0;
    c >>>= 0;
    d >>>= 0;
    let t = (a + b) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    d = (d + 1) | 0;
    t = (t + d) | 0;
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 8; i++) next();
  const rng: Rng = {
    next,
    int: (n) => Math.floor(next() * n),
    range: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)] as (typeof items)[number],
    pareto: (alpha) => 1 / Math.pow(1 - next(), 1 / alpha),
    poisson: (mean) => {
      if (mean <= 0) return 0;
      if (mean > 50) {
        const u = 1 - next();
        const v = next();
        const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
        return Math.max(0, Math.round(mean + z * Math.sqrt(mean)));
      }
      const limit = Math.exp(-mean);
      let k = 0;
      let p = next();
      while (p > limit) {
        k++;
        p *= next();
      }
      return k;
    },
  };
  return rng;
}
