import { describe, expect, it } from 'vitest';
import { formatDuration } from './duration.ts';

describe('formatDuration', () => {
  it('says seconds, minutes, hours and days as people do, with one decimal only when it is not .0', () => {
    expect(formatDuration(0)).toBe('0 s');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(600)).toBe('10 min');
    expect(formatDuration(5400)).toBe('1.5 h');
    expect(formatDuration(7200)).toBe('2 h');
    expect(formatDuration(172_800)).toBe('2 d');
    expect(formatDuration(190_080)).toBe('2.2 d');
  });
  it('a dash for no value, or the caller’s own', () => {
    expect(formatDuration(null)).toBe('–');
    expect(formatDuration(null, '-')).toBe('-');
  });
});
