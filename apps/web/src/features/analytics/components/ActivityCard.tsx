import { useMemo, useState } from 'react';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { SeriesView } from '../../../components/SeriesView.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { dailyTotals } from '../../../lib/chart-labels.ts';
import { toCsv } from '@flywheel/shared/csv';
import { downloadCsv } from '../../../lib/csv.ts';
import { DEFAULT_TIME, spanDays, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useActivity } from '../api/activity-analytics.ts';
import {
  ChannelScopeSelect,
  DownloadButton,
  scopeChannels,
  ViewToggle,
  WORKSPACE,
  type View,
} from './controls.tsx';

export const SERIES = [
  { name: 'messages', label: 'Messages', color: 'indigo.6' },
  { name: 'replies', label: 'Replies', color: 'teal.6' },
  { name: 'reactions', label: 'Reactions', color: 'orange.5' },
];

export const ACTIVITY_CSV_HEADERS = ['Date', 'Messages', 'Replies', 'Reactions'];

/** Activity line chart: whole workspace or one channel, time filter, graph/table, CSV. */
export function ActivityCard() {
  const [scope, setScope] = useState(WORKSPACE);
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const [view, setView] = useState<View>('graph');
  const request = useMemo(() => ({ time, channels: scopeChannels(scope) }), [time, scope]);
  const q = useActivity(request);
  useErrorToast(q);
  const points = useMemo(() => dailyTotals(q.data ?? [], spanDays(time)), [q.data, time]);
  const download = () =>
    downloadCsv(
      'Activity',
      toCsv(
        ACTIVITY_CSV_HEADERS,
        points.map((p) => [p.day, p.messages, p.replies, p.reactions]),
      ),
    );
  return (
    <ChartCard
      title="Activity"
      subtitle="Messages, replies and reactions per day"
      actions={
        <>
          <ChannelScopeSelect label="Activity channel" value={scope} onChange={setScope} />
          <TimeFilterSelect label="Activity time filter" value={time} onChange={setTime} />
          <ViewToggle label="Activity view" value={view} onChange={setView} />
          <DownloadButton label="Download Activity CSV" disabled={!points.length} onClick={download} />
        </>
      }
      state={queryState(
        q,
        (rows) => rows.every((r) => r.messages + r.replies + r.reactions === 0),
        errorMessage,
      )}
      minHeight={300}
    >
      <SeriesView
        view={view}
        rows={points}
        series={SERIES}
        headers={ACTIVITY_CSV_HEADERS}
        label="Activity table"
        testId="activity-chart"
        height={300}
        spanDays={spanDays(time)}
      />
    </ChartCard>
  );
}
