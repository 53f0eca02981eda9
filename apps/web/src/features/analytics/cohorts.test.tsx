import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { cohortsResponse, type CohortGrid } from '@flywheel/shared/cohorts';
import { reply } from '../../testing/fixture.ts';
import { captureDownloads } from '../../testing/downloads.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { heat } from './components/CohortsCard.tsx';

const me = { body: { ...loginResponse(), token: undefined } };
const cell = (week: number, active: number, eligible: number) => ({
  week,
  active,
  eligible,
  percent: Math.round((active / eligible) * 1000) / 10,
});

const WEEKS: CohortGrid = {
  period: 'week',
  timezone: 'Europe/Berlin',
  today: '2026-11-04',
  weeks: 3,
  cohorts: [
    {
      start: '2026-10-19',
      end: '2026-10-25',
      members: 3,
      cells: [cell(0, 3, 3), cell(1, 1, 3), cell(2, 0, 2)],
    },
    { start: '2026-10-26', end: '2026-11-01', members: 0, cells: [null, null, null] },
    { start: '2026-11-02', end: '2026-11-08', members: 2, cells: [cell(0, 1, 2), null, null] },
  ],
};
const MONTHS: CohortGrid = {
  period: 'month',
  timezone: 'Europe/Berlin',
  today: '2026-11-04',
  weeks: 3,
  cohorts: [
    {
      start: '2026-10-01',
      end: '2026-10-31',
      members: 4,
      cells: [cell(0, 4, 4), cell(1, 2, 4), cell(2, 1, 3)],
    },
    { start: '2026-11-01', end: '2026-11-30', members: 1, cells: [cell(0, 0, 1), null, null] },
  ],
};

function setup() {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    // The other cards of the page answer nothing (their own tests are analytics.test.tsx).
    'POST /analytics/*': { body: { data: [], slots: {}, total: 0, page: 1, page_size: 10 } },
    'GET /analytics/getanalyticscompare/*': { body: { data: [] } },
    'GET /analytics/cohorts/T001': (_body, { url }) =>
      reply(cohortsResponse, {
        data: new URL(url, 'http://x').searchParams.get('period') === 'month' ? MONTHS : WEEKS,
      }),
    'POST /members/getmembersdata': { body: { data: [], total: 0, page: 1, page_size: 10, left: 0 } },
  });
}

const card = () => screen.findByRole('region', { name: 'Retention by join cohort' }, { timeout: 8000 });

beforeAll(() => import('./AnalyticsDashboard.tsx'), 60_000);

describe('Retention by join cohort', () => {
  it('shows each cohort with its size, percentages with counts, heat colours and nothing for weeks not reached', async () => {
    const api = setup();
    renderApp('/dashboard/analytics');
    const c = await card();
    const table = await within(c).findByRole('table', { name: 'Retention by join cohort' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Cohort', 'Members', 'Week 0', 'Week 1', 'Week 2']);
    expect(rows.slice(1).map((r) => [...r.children].map((td) => td.textContent))).toEqual([
      ['Week of 2026-10-19', '3', '100%3/3', '33.3%1/3', '0%0/2'],
      ['Week of 2026-10-26', '0', '', '', ''],
      ['Week of 2026-11-02', '2', '50%1/2', '', ''],
    ]);
    const cellOf = (text: string) => within(table).getByText(text).closest('td')!;
    expect(cellOf('33.3%')).toHaveAttribute('title', '1 of 3 members active');
    // Darker for a larger share.
    expect(heat(100)).not.toBe(heat(0));
    expect(cellOf('100%').getAttribute('style')).toContain('background');
    expect(api.callsTo('GET', '/analytics/cohorts/T001')[0]!.query.get('period')).toBe('week');
  });

  it('each cohort links to Members filtered to its join window (up to today)', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/analytics');
    const c = await card();
    const link = await within(c).findByRole('link', { name: 'Week of 2026-10-19' });
    expect(link).toHaveAttribute('href', '/dashboard/members?join_from=2026-10-19&join_to=2026-10-25');
    // The current week ends today; a cohort with no members has no link.
    expect(within(c).getByRole('link', { name: 'Week of 2026-11-02' })).toHaveAttribute(
      'href',
      '/dashboard/members?join_from=2026-11-02&join_to=2026-11-04',
    );
    expect(within(c).queryByRole('link', { name: 'Week of 2026-10-26' })).toBeNull();
    await user.click(link);
    await waitFor(() =>
      expect(api.callsTo('POST', '/members/getmembersdata').at(-1)?.body).toMatchObject({
        base_filter: {
          type: 'team_join',
          time_filter: { type: 'dynamic', start_date: '2026-10-19', end_date: '2026-10-25' },
        },
      }),
    );
  });

  it('Monthly asks for month cohorts and shows them', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/analytics');
    const c = await card();
    await within(c).findByRole('link', { name: 'Week of 2026-10-19' });
    await user.click(within(c).getByRole('radio', { name: 'Monthly' }));
    const link = await within(c).findByRole('link', { name: 'October 2026' });
    expect(link).toHaveAttribute('href', '/dashboard/members?join_from=2026-10-01&join_to=2026-10-31');
    expect(within(c).getByRole('link', { name: 'November 2026' })).toHaveAttribute(
      'href',
      '/dashboard/members?join_from=2026-11-01&join_to=2026-11-04',
    );
    expect(api.callsTo('GET', '/analytics/cohorts/T001').at(-1)!.query.get('period')).toBe('month');
  });

  it('CSV: one row per cohort, percent, active and reached per week, blank where not reached', async () => {
    setup();
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/analytics');
    const c = await card();
    await within(c).findByRole('link', { name: 'Week of 2026-10-19' });
    await user.click(within(c).getByRole('button', { name: 'Download Retention CSV' }));
    expect(dl.saved[0]!.name).toBe('Retention by join cohort (week).csv');
    expect(dl.saved[0]!.text.slice(1).trim().split('\r\n')).toEqual([
      '"Cohort","Start","End","Members","Week 0 %","Week 0 active","Week 0 reached","Week 1 %","Week 1 active","Week 1 reached","Week 2 %","Week 2 active","Week 2 reached"',
      '"Week of 2026-10-19","2026-10-19","2026-10-25",3,100,3,3,33.3,1,3,0,0,2',
      '"Week of 2026-10-26","2026-10-26","2026-11-01",0,"","","","","","","","",""',
      '"Week of 2026-11-02","2026-11-02","2026-11-08",2,50,1,2,"","","","","",""',
    ]);
  });
});
