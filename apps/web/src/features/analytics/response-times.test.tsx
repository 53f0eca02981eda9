import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { responseTimesResponse, type ResponseTimesResponse } from '@flywheel/shared/questions';
import { reply } from '../../testing/fixture.ts';
import { captureDownloads } from '../../testing/downloads.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderUi } from '../../testing/render.tsx';
import { seedSession } from '../../testing/session-fixtures.ts';
import { formatShare, ResponseTimesCard } from './components/ResponseTimesCard.tsx';

const stats = (questions: number, answered: number, median: number | null, p90: number | null) => ({
  questions,
  answered,
  median_seconds: median,
  p90_seconds: p90,
  within_1h: questions ? 0.5 : null,
  within_24h: questions ? 0.75 : null,
});
const BODY: ResponseTimesResponse = {
  start_date: '2026-08-30',
  end_date: '2026-11-27',
  timezone: 'America/New_York',
  total: stats(8, 6, 1800, 90_000),
  weeks: [
    { week: '2026-10-26', ...stats(3, 2, 600, 4000) },
    { week: '2026-11-02', ...stats(5, 4, 7200, 90_000) },
  ],
  channels: [
    { channel_id: 'C001', channel_name: 'general', ...stats(6, 5, 1200, 80_000) },
    { channel_id: 'C002', channel_name: '=HYPERLINK("x")', ...stats(2, 1, 9000, 9000) },
  ],
};

describe('Response Time', () => {
  it('shows the totals, the weekly chart and the channels; the CSV is formula-safe', async () => {
    seedSession();
    const api = mockApi({ 'GET /analytics/getresponsetimes/T001': reply(responseTimesResponse, BODY) });
    const downloads = captureDownloads();
    const { user } = renderUi(<ResponseTimesCard />);
    const table = await screen.findByRole('table', { name: 'Response time per channel' }, { timeout: 8000 });
    expect(api.callsTo('GET', '/analytics/getresponsetimes/T001')[0]!.query.get('days')).toBe('90');
    expect(screen.getByText('30 min')).toBeInTheDocument();
    expect(screen.getByText('1 d')).toBeInTheDocument();
    expect(screen.getAllByText('50%').length).toBeGreaterThan(0);
    expect(screen.getByLabelText('Response time per week, in hours')).toBeInTheDocument();
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(within(rows[1]!).getByText('#general')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('20 min')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Download Response Time CSV' }));
    await waitFor(() => expect(downloads.saved).toHaveLength(1));
    const csv = downloads.saved[0]!;
    expect(csv.name).toBe('Response Time.csv');
    const lines = csv.text
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toContain('Median (seconds)');
    expect(lines).toHaveLength(1 + 1 + 2 + 2);
    expect(lines[1]).toContain('1800');
    expect(lines[2]).toContain('2026-10-26');
    // A channel's cell starts with '#': never a formula.
    expect(lines[5]).toBe('"Channel","#=HYPERLINK(""x"")",2,1,9000,9000,50,75');
  });

  it('says so when there were no questions', async () => {
    seedSession();
    mockApi({
      'GET /analytics/getresponsetimes/T001': reply(responseTimesResponse, {
        ...BODY,
        total: stats(0, 0, null, null),
        weeks: [],
        channels: [],
      }),
    });
    renderUi(<ResponseTimesCard />);
    expect(
      await screen.findByText('No questions in this time range', {}, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download Response Time CSV' })).toBeDisabled();
  });

  it('formats shares', () => {
    expect(formatShare(0.333)).toBe('33%');
    expect(formatShare(null)).toBe('–');
  });
});
