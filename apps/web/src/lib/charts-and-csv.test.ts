import { describe, expect, it } from 'vitest';
import { activityPayload, emptyActivityFilter } from './activity-filter.ts';
import { cutLabel, dailyTotals, dateLabel } from './chart-labels.ts';
import { toCsv } from '@flywheel/shared/csv';
import { rangeProblem, rangeQueryString, spanDays } from './time-filter.ts';

describe('chart labels', () => {
  it('cuts bar labels to 12 characters, the cut shown by an ellipsis', () => {
    expect(cutLabel('announcements-and-news')).toBe('announcemen…');
    expect(cutLabel('announcements-and-news')).toHaveLength(12);
    expect(cutLabel('exactly13chrs')).toBe('exactly13ch…');
    expect(cutLabel('general')).toBe('general');
    expect(cutLabel('exactly12chr')).toBe('exactly12chr');
  });

  it('never cuts a label inside an emoji (half of one is a broken character) or a flag', () => {
    expect(cutLabel('launch-room🚀-2026')).toBe('launch-room…');
    expect(cutLabel('team-chat🇩🇪-europe')).toBe('team-chat…');
    expect(cutLabel('launch-room🚀-2026')).not.toMatch(/[\ud800-\udfff]…$/);
  });

  it("labels days 'day month' up to 90 days, otherwise 'month year'", () => {
    expect(dateLabel('2026-03-05', 7)).toBe('5 Mar');
    expect(dateLabel('2026-03-05', 90)).toBe('5 Mar');
    expect(dateLabel('2026-03-05', 91)).toBe('Mar 2026');
    expect(dateLabel('2025-12-31T00:00:00.000Z', 365)).toBe('Dec 2025');
  });

  it('sums per-channel rows into one point per day, oldest first', () => {
    const rows = [
      { date_of_data: '2026-03-02', messages: 1, replies: 2, reactions: 3, channel_id: 'C1' },
      { date_of_data: '2026-03-01', messages: 4, replies: 0, reactions: 1, channel_id: 'C1' },
      { date_of_data: '2026-03-02', messages: 10, replies: 0, reactions: 0, channel_id: 'C2' },
    ];
    expect(dailyTotals(rows, 7)).toEqual([
      { day: '2026-03-01', date: '1 Mar', messages: 4, replies: 0, reactions: 1 },
      { day: '2026-03-02', date: '2 Mar', messages: 11, replies: 2, reactions: 3 },
    ]);
  });
});

describe('time filter', () => {
  const today = '2026-03-10';
  it('accepts a range with start not after end and neither in the future', () => {
    expect(rangeProblem('2026-03-01', '2026-03-10', today)).toBeNull();
    expect(rangeProblem('2026-03-10', '2026-03-10', today)).toBeNull();
  });
  it('refuses a start after the end, a future day or a missing end', () => {
    expect(rangeProblem('2026-03-05', '2026-03-01', today)).toMatch(/start date/);
    expect(rangeProblem('2026-03-01', '2026-03-11', today)).toMatch(/future/);
    expect(rangeProblem('2026-03-11', '2026-03-12', today)).toMatch(/future/);
    expect(rangeProblem('2026-03-01', '', today)).not.toBeNull();
  });
  it('counts the days a filter spans and writes the GET query string', () => {
    expect(spanDays({ type: 'static', days: 14 })).toBe(14);
    expect(spanDays({ type: 'dynamic', start_date: '2026-01-01', end_date: '2026-03-31' })).toBe(90);
    expect(spanDays({ type: 'dynamic', start_date: '2026-01-01', end_date: '2026-04-01' })).toBe(91);
    expect(rangeQueryString({ type: 'static', days: 7 })).toBe('days=7');
    expect(rangeQueryString({ type: 'dynamic', start_date: '2026-01-01', end_date: '2026-01-31' })).toBe(
      'start_date=2026-01-01&end_date=2026-01-31',
    );
  });
  it('sends only the activity comparisons that have an operator', () => {
    expect(activityPayload(null)).toBeUndefined();
    expect(activityPayload(emptyActivityFilter())).toBeUndefined();
    const f = {
      ...emptyActivityFilter(),
      type: 'OR' as const,
      messages: { operator: '>' as const, count: 2 },
    };
    expect(activityPayload(f)).toEqual({
      type: 'OR',
      message_filter: { operator: '>', count: 2 },
      reaction_filter: undefined,
      reply_filter: undefined,
    });
  });
});

describe('CSV', () => {
  it('starts with a byte-order mark, has a header row, quotes strings and separates with commas', () => {
    const csv = toCsv(
      ['Channel Name', 'Messages'],
      [
        ['general', 12],
        ['say "hi", all', 0],
        [null, 3],
      ],
    );
    expect(csv.charCodeAt(0)).toBe(0xfeff);
    expect(csv.slice(1).split('\r\n')).toEqual([
      '"Channel Name","Messages"',
      '"general",12',
      '"say ""hi"", all",0',
      '"",3',
      '',
    ]);
  });
});
