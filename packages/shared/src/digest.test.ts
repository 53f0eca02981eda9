import { describe, expect, it } from 'vitest';
import { DIGEST_CATCH_UP_HOURS, dueWeek, lastWholeWeek, nextSendAt, weekOfDay } from './digest.ts';

const utc = (s: string) => Date.parse(s);
const iso = (ms: number) => new Date(ms).toISOString();

describe('the digest week', () => {
  it('is Monday to Sunday of the local day, sent the next Monday at 09:00 local', () => {
    // Thursday 19 November 2026.
    expect(weekOfDay('2026-11-19', 'UTC')).toEqual({
      start: '2026-11-16',
      end: '2026-11-22',
      sendAt: utc('2026-11-23T09:00:00Z'),
    });
    // A Monday and a Sunday are in their own week.
    expect(weekOfDay('2026-11-16', 'UTC').start).toBe('2026-11-16');
    expect(weekOfDay('2026-11-22', 'UTC').start).toBe('2026-11-16');
    // 09:00 in Tokyo is 00:00 UTC.
    expect(iso(weekOfDay('2026-11-19', 'Asia/Tokyo').sendAt)).toBe('2026-11-23T00:00:00.000Z');
  });

  it('keeps 09:00 local across the end of summer time (Europe/London, 25 October 2026)', () => {
    // The week of 19-25 October ends on the night the clocks go back: its digest goes at 09:00 GMT.
    expect(iso(weekOfDay('2026-10-21', 'Europe/London').sendAt)).toBe('2026-10-26T09:00:00.000Z');
    // The week before, still in summer time: 09:00 BST is 08:00 UTC.
    expect(iso(weekOfDay('2026-10-14', 'Europe/London').sendAt)).toBe('2026-10-19T08:00:00.000Z');
    // And America/New_York, whose change is a week later (1 November 2026).
    expect(iso(weekOfDay('2026-10-28', 'America/New_York').sendAt)).toBe('2026-11-02T14:00:00.000Z');
  });

  it('the last whole week is the one before the current week, in the zone (not in UTC)', () => {
    // Monday 23 November 00:30 in Auckland is still Sunday 22 November in UTC.
    const at = utc('2026-11-22T11:30:00Z');
    expect(lastWholeWeek(at, 'Pacific/Auckland')).toMatchObject({ start: '2026-11-16', end: '2026-11-22' });
    expect(lastWholeWeek(at, 'UTC')).toMatchObject({ start: '2026-11-09', end: '2026-11-15' });
  });

  it('is due from Monday 09:00 local for DIGEST_CATCH_UP_HOURS, and not before or after', () => {
    const tz = 'Europe/London';
    expect(dueWeek(utc('2026-10-26T08:59:00Z'), tz)).toBeNull();
    expect(dueWeek(utc('2026-10-26T09:00:00Z'), tz)).toMatchObject({
      start: '2026-10-19',
      end: '2026-10-25',
    });
    expect(dueWeek(utc('2026-10-28T20:00:00Z'), tz)).toMatchObject({ start: '2026-10-19' });
    const lastMoment = utc('2026-10-26T09:00:00Z') + DIGEST_CATCH_UP_HOURS * 3_600_000;
    expect(dueWeek(lastMoment - 1, tz)).toMatchObject({ start: '2026-10-19' });
    expect(dueWeek(lastMoment, tz)).toBeNull();
    // Summer time: 09:00 BST is 08:00 UTC.
    expect(dueWeek(utc('2026-10-19T07:59:00Z'), tz)).toBeNull();
    expect(dueWeek(utc('2026-10-19T08:00:00Z'), tz)).toMatchObject({ start: '2026-10-12' });
  });

  it('the next send is this Monday 09:00 before it, else next Monday', () => {
    expect(iso(nextSendAt(utc('2026-11-23T08:00:00Z'), 'UTC'))).toBe('2026-11-23T09:00:00.000Z');
    expect(iso(nextSendAt(utc('2026-11-23T09:00:00Z'), 'UTC'))).toBe('2026-11-30T09:00:00.000Z');
    expect(iso(nextSendAt(utc('2026-11-27T17:00:00Z'), 'UTC'))).toBe('2026-11-30T09:00:00.000Z');
  });

  it('goes out on the day and hour the admin chose, after the week it covers', () => {
    const friday = { day: 'fri', hour: 17 } as const;
    // The week of 16-22 November: Friday 27 November at 17:00.
    expect(iso(weekOfDay('2026-11-19', 'UTC', friday).sendAt)).toBe('2026-11-27T17:00:00.000Z');
    // On Friday 27 November at 16:59 the due digest is still the week before's (sent on the 20th).
    expect(dueWeek(utc('2026-11-27T16:59:00Z'), 'UTC', friday)).toBeNull();
    expect(dueWeek(utc('2026-11-23T10:00:00Z'), 'UTC', friday)).toMatchObject({ start: '2026-11-09' });
    expect(dueWeek(utc('2026-11-27T17:00:00Z'), 'UTC', friday)).toMatchObject({ start: '2026-11-16' });
    expect(iso(nextSendAt(utc('2026-11-27T17:00:00Z'), 'UTC', friday))).toBe('2026-12-04T17:00:00.000Z');
    // Sunday: the first Sunday after the week, six days after it ended.
    const sunday = { day: 'sun', hour: 0 } as const;
    expect(iso(weekOfDay('2026-11-19', 'UTC', sunday).sendAt)).toBe('2026-11-29T00:00:00.000Z');
    expect(iso(nextSendAt(utc('2026-11-27T17:00:00Z'), 'UTC', sunday))).toBe('2026-11-29T00:00:00.000Z');
  });
});
