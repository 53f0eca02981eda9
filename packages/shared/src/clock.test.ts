import { describe, expect, it } from 'vitest';
import { nextRun, parseLocalDateTime, wallClock, zonedTime } from './clock.ts';

const iso = (t: number | null) => (t === null ? null : new Date(t).toISOString());

describe('wall-clock schedules', () => {
  it('09:00 Europe/London is 09:00 local on both sides of the spring and autumn changes', () => {
    // 2026: BST starts Sun 29 March, ends Sun 25 October.
    const weekly = { frequency: 'Weekly' as const, time: '09:00', days: ['mon' as const] };
    const beforeSpring = nextRun(weekly, Date.parse('2026-03-24T12:00:00Z'), 'Europe/London');
    const afterSpring = nextRun(weekly, beforeSpring!, 'Europe/London');
    expect(iso(beforeSpring)).toBe('2026-03-30T08:00:00.000Z'); // Monday after the change: BST
    expect(iso(nextRun(weekly, Date.parse('2026-03-20T12:00:00Z'), 'Europe/London'))).toBe(
      '2026-03-23T09:00:00.000Z', // Monday before: GMT
    );
    expect(iso(afterSpring)).toBe('2026-04-06T08:00:00.000Z');
    const beforeAutumn = nextRun(weekly, Date.parse('2026-10-20T12:00:00Z'), 'Europe/London');
    expect(iso(beforeAutumn)).toBe('2026-10-26T09:00:00.000Z'); // Monday after the change: GMT again
    for (const t of [beforeSpring, afterSpring, beforeAutumn])
      expect(wallClock(t!, 'Europe/London')).toMatchObject({ hour: 9, minute: 0, weekday: 0 });
  });

  it('America/New_York weekly across its own changes (second Sunday of March, first of November)', () => {
    const weekly = { frequency: 'Weekly' as const, time: '09:00', days: ['fri' as const, 'sun' as const] };
    let t = Date.parse('2026-03-05T00:00:00Z');
    const runs: string[] = [];
    for (let i = 0; i < 4; i++) {
      t = nextRun(weekly, t, 'America/New_York')!;
      runs.push(iso(t)!);
      expect(wallClock(t, 'America/New_York')).toMatchObject({ hour: 9, minute: 0 });
    }
    expect(runs).toEqual([
      '2026-03-06T14:00:00.000Z', // Fri, EST (UTC-5)
      '2026-03-08T13:00:00.000Z', // Sun 8 March, EDT from 02:00 (UTC-4)
      '2026-03-13T13:00:00.000Z',
      '2026-03-15T13:00:00.000Z',
    ]);
    const nov = nextRun(weekly, Date.parse('2026-10-31T00:00:00Z'), 'America/New_York');
    expect(iso(nov)).toBe('2026-11-01T14:00:00.000Z'); // Sun 1 November, EST again
  });

  it('every day at a time already past today runs tomorrow; a one-time run runs once', () => {
    const daily = { frequency: 'Everyday' as const, time: '08:30' };
    expect(iso(nextRun(daily, Date.parse('2026-06-10T10:00:00Z'), 'UTC'))).toBe('2026-06-11T08:30:00.000Z');
    expect(iso(nextRun(daily, Date.parse('2026-06-10T08:29:00Z'), 'UTC'))).toBe('2026-06-10T08:30:00.000Z');
    const at = Date.parse('2026-06-10T08:30:00Z');
    expect(nextRun({ frequency: 'onetime', at }, at - 1, 'UTC')).toBe(at);
    expect(nextRun({ frequency: 'onetime', at }, at, 'UTC')).toBeNull();
  });

  it('a time skipped by spring forward runs after the gap; a repeated autumn time runs the first time', () => {
    expect(iso(zonedTime({ year: 2026, month: 3, day: 29, hour: 1, minute: 30 }, 'Europe/London'))).toBe(
      '2026-03-29T01:30:00.000Z', // 01:30 does not exist; runs at 02:30 BST = 01:30 UTC
    );
    expect(iso(zonedTime({ year: 2026, month: 10, day: 25, hour: 1, minute: 30 }, 'Europe/London'))).toBe(
      '2026-10-25T00:30:00.000Z', // the first 01:30 (BST)
    );
  });

  it('parses DD/MM/YYYY HH:MM as a real local date only', () => {
    expect(iso(parseLocalDateTime('15/07/2026', '09:05', 'Europe/Berlin'))).toBe('2026-07-15T07:05:00.000Z');
    expect(parseLocalDateTime('30/02/2026', '09:00', 'UTC')).toBeNull();
    expect(parseLocalDateTime('2026-07-15', '09:00', 'UTC')).toBeNull();
    expect(parseLocalDateTime('15/07/2026', '24:00', 'UTC')).toBeNull();
  });
});
