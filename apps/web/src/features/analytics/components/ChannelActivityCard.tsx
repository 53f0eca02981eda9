import { useMemo, useState } from 'react';
import { Button } from '@mantine/core';
import type { ChannelActivity } from '@flywheel/shared/analytics';
import { columnsCsv, countColumn, DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { IconFilter } from '@tabler/icons-react';
import { ActivityFilterModal } from '../../../components/ActivityFilterModal.tsx';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { activityIsSet, activityPayload, type ActivityFilterState } from '../../../lib/activity-filter.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { downloadCsv } from '../../../lib/csv.ts';
import { DEFAULT_TIME, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useChannelsActivity } from '../api/channels-activity-analytics.ts';
import { DownloadButton } from './controls.tsx';

/** The table's columns; the CSV has the same ('Channel Name' as '#general', like bucket rows) with plain numbers. */
const COLUMNS: DataColumn<ChannelActivity>[] = [
  {
    id: 'channel',
    header: 'Channel name',
    value: (c) => c.channel_name,
    cell: (c) => `#${c.channel_name}`,
    fw: 500,
    csv: { header: 'Channel Name', value: (c) => `#${c.channel_name}` },
  },
  countColumn<ChannelActivity>('Messages', (c) => c.messages),
  countColumn<ChannelActivity>('Replies', (c) => c.replies),
  countColumn<ChannelActivity>('Reactions', (c) => c.reactions),
  countColumn<ChannelActivity>('Activity', (c) => c.activity, 600),
];

/** Channel Activity table with Filter by Activity (the #channel anchor lands here). */
export function ChannelActivityCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const [activity, setActivity] = useState<ActivityFilterState | null>(null);
  const [popup, setPopup] = useState(false);
  const q = useChannelsActivity(time, activityPayload(activity));
  useErrorToast(q);
  const rows = useMemo(() => [...(q.data ?? [])].sort((a, b) => b.activity - a.activity), [q.data]);
  const download = () => downloadCsv('Channel Activity', columnsCsv(COLUMNS, rows));
  return (
    <ChartCard
      id="channel"
      title="Channel Activity"
      subtitle="Every channel, busiest first"
      actions={
        <>
          <Button
            variant={activityIsSet(activity) ? 'filled' : 'default'}
            leftSection={<IconFilter size={16} />}
            onClick={() => setPopup(true)}
          >
            Filter by Activity
          </Button>
          <TimeFilterSelect label="Channel Activity time filter" value={time} onChange={setTime} />
          <DownloadButton label="Download Channel Activity CSV" disabled={!rows.length} onClick={download} />
        </>
      }
      state={queryState(q, (d) => d.every((r) => r.activity === 0) && !activityIsSet(activity), errorMessage)}
      minHeight={200}
    >
      <DataTable
        label="Channel Activity"
        columns={COLUMNS}
        rows={rows}
        rowId={(c) => c.channel_id}
        maxHeight={420}
        stickyHeader
        highlightOnHover
      />
      <ActivityFilterModal
        opened={popup}
        value={activity}
        onClose={() => setPopup(false)}
        onApply={(a) => {
          setActivity(activityIsSet(a) ? a : null);
          setPopup(false);
        }}
      />
    </ChartCard>
  );
}
