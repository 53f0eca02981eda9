import { useMemo, useState } from 'react';
import { Group, Stack, Text } from '@mantine/core';
import type { ResponseStats, ResponseTimesResponse } from '@flywheel/shared/questions';
import { toCsv } from '@flywheel/shared/csv';
import { LineChart } from '../../../components/charts/index.ts';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { downloadCsv } from '../../../lib/csv.ts';
import type { TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { DEFAULT_RESPONSE_TIME, useResponseTimes } from '../api/response-times.ts';
import { DownloadButton } from './controls.tsx';
import { formatDuration } from '@flywheel/shared/duration';

type ChannelRow = ResponseTimesResponse['channels'][number];

/** A share (0..1) as a whole percent; a dash for none. */
export const formatShare = (share: number | null) => (share === null ? '–' : `${Math.round(share * 100)}%`);
const hours = (s: number | null) => (s === null ? null : Math.round((s / 3600) * 100) / 100);

const COLUMNS: DataColumn<ChannelRow>[] = [
  { id: 'channel', header: 'Channel', value: (c) => `#${c.channel_name}`, fw: 500 },
  { id: 'questions', header: 'Questions', value: (c) => c.questions, align: 'right' },
  { id: 'answered', header: 'Answered', value: (c) => c.answered, align: 'right' },
  {
    id: 'median',
    header: 'Median',
    value: (c) => c.median_seconds ?? -1,
    cell: (c) => formatDuration(c.median_seconds),
    align: 'right',
  },
  {
    id: 'p90',
    header: 'p90',
    value: (c) => c.p90_seconds ?? -1,
    cell: (c) => formatDuration(c.p90_seconds),
    align: 'right',
  },
  {
    id: 'within1h',
    header: 'Within 1 h',
    value: (c) => c.within_1h ?? -1,
    cell: (c) => formatShare(c.within_1h),
    align: 'right',
  },
  {
    id: 'within24h',
    header: 'Within 24 h',
    value: (c) => c.within_24h ?? -1,
    cell: (c) => formatShare(c.within_24h),
    align: 'right',
  },
];

const CSV_HEADERS = [
  'Scope',
  'Week or channel',
  'Questions',
  'Answered',
  'Median (seconds)',
  'p90 (seconds)',
  'Answered within 1 h (%)',
  'Answered within 24 h (%)',
];
const csvCells = (s: ResponseStats) => [
  s.questions,
  s.answered,
  s.median_seconds === null ? '' : Math.round(s.median_seconds),
  s.p90_seconds === null ? '' : Math.round(s.p90_seconds),
  s.within_1h === null ? '' : Math.round(s.within_1h * 1000) / 10,
  s.within_24h === null ? '' : Math.round(s.within_24h * 1000) / 10,
];
/** The CSV: the whole range, each week, each channel (cells written formula-safe by the shared writer). */
export function responseTimesCsv(d: ResponseTimesResponse): string {
  return toCsv(CSV_HEADERS, [
    ['All', `${d.start_date} – ${d.end_date}`, ...csvCells(d.total)],
    ...d.weeks.map((w) => ['Week', w.week, ...csvCells(w)]),
    ...d.channels.map((c) => ['Channel', `#${c.channel_name}`, ...csvCells(c)]),
  ]);
}

/**
 * Response time: how long members' questions wait for a first answer (a reply in the thread or a reaction by
 * someone else): median and p90 per week (in hours) and per channel, and the shares answered within 1 h and
 * 24 h.
 */
export function ResponseTimesCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_RESPONSE_TIME);
  const q = useResponseTimes(time);
  useErrorToast(q);
  const d = q.data;
  const weeks = useMemo(
    () =>
      (d?.weeks ?? []).map((w) => ({
        week: w.week,
        median: hours(w.median_seconds),
        p90: hours(w.p90_seconds),
      })),
    [d],
  );
  return (
    <ChartCard
      id="response-time"
      title="Response Time"
      subtitle="How long members' questions wait for a first reply or reaction from someone else"
      actions={
        <>
          <TimeFilterSelect label="Response Time time filter" value={time} onChange={setTime} />
          <DownloadButton
            label="Download Response Time CSV"
            disabled={!d || d.total.questions === 0}
            onClick={() => d && downloadCsv('Response Time', responseTimesCsv(d))}
          />
        </>
      }
      state={queryState(q, (r) => r.total.questions === 0, errorMessage)}
      emptyText="No questions in this time range"
      minHeight={200}
    >
      {d ? (
        <Stack gap="md">
          <Group gap="xl" wrap="wrap">
            <Stat label="Questions" value={String(d.total.questions)} />
            <Stat label="Median" value={formatDuration(d.total.median_seconds)} />
            <Stat label="p90" value={formatDuration(d.total.p90_seconds)} />
            <Stat label="Answered within 1 h" value={formatShare(d.total.within_1h)} />
            <Stat label="Answered within 24 h" value={formatShare(d.total.within_24h)} />
          </Group>
          <LineChart
            aria-label="Response time per week, in hours"
            h={220}
            data={weeks}
            dataKey="week"
            series={[
              { name: 'median', label: 'Median (hours)', color: 'teal.6' },
              { name: 'p90', label: 'p90 (hours)', color: 'orange.6' },
            ]}
            withLegend
            withDots
            yAxisProps={{ allowDecimals: true }}
          />
          <DataTable
            label="Response time per channel"
            columns={COLUMNS}
            rows={d.channels}
            rowId={(c) => c.channel_id}
            maxHeight={360}
            stickyHeader
          />
        </Stack>
      ) : null}
    </ChartCard>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text fz="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="lg">
        {value}
      </Text>
    </div>
  );
}
