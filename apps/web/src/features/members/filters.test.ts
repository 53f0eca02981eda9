import { describe, expect, it } from 'vitest';
import { DEFAULT_FILTERS, filtersFromSearch } from './filters.ts';

describe('the filters a Members address opens with', () => {
  it('levels from ?level= (the weekly digest links so), unknown ones ignored, with a join window', () => {
    expect(filtersFromSearch(new URLSearchParams('level=slipping'))).toEqual({
      ...DEFAULT_FILTERS,
      levels: ['slipping'],
    });
    expect(
      filtersFromSearch(new URLSearchParams('level=slipping&level=bogus&level=dormant&level=slipping'))
        .levels,
    ).toEqual(['slipping', 'dormant']);
    const both = filtersFromSearch(
      new URLSearchParams('level=regular&join_from=2026-11-16&join_to=2026-11-22'),
    );
    expect(both.levels).toEqual(['regular']);
    expect(both.join).toEqual({
      type: 'team_join',
      window: { type: 'dynamic', start_date: '2026-11-16', end_date: '2026-11-22' },
    });
    expect(filtersFromSearch(new URLSearchParams('level=bogus'))).toEqual(DEFAULT_FILTERS);
  });
});
