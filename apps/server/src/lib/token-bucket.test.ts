import { describe, expect, it } from 'vitest';
import { tokenBuckets } from './token-bucket.ts';

describe('token buckets', () => {
  it('lets a burst through, then one per refill, each key on its own', () => {
    let now = 0;
    const buckets = tokenBuckets({ burst: 3, perSecond: 1, now: () => now });
    expect([1, 2, 3].map(() => buckets.take('a'))).toEqual([0, 0, 0]);
    expect(buckets.take('a')).toBe(1);
    expect(buckets.take('b')).toBe(0);
    now += 500;
    expect(buckets.take('a')).toBe(1);
    now += 600;
    expect(buckets.take('a')).toBe(0);
    expect(buckets.take('a')).toBe(1);
    now += 60_000;
    expect([1, 2, 3, 4].map(() => buckets.take('a'))).toEqual([0, 0, 0, 1]);
  });
});
