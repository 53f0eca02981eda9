import { useMemo, useState } from 'react';
import { Button, ScrollArea, Table } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { ActivityFilterModal } from '../../../components/ActivityFilterModal.tsx';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { activityIsSet, activityPayload, type ActivityFilterState } from '../../../lib/activity-filter.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatCount } from '../../../lib/chart-labels.ts';
import { downloadCsv, toCsv } from '../../../lib/csv.ts';
import { DEFAULT_TIME, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useChannelsActivity } from '../api.ts';
import { DownloadButton } from './controls.tsx';

export const CHANNEL_ACTIVITY_CSV_HEADERS = ['Channel Name', 'Messages', 'Replies', 'Reactions', 'Activity'];

/** Channel Activity table with Filter by Activity (the #channel anchor lands here). */
export function ChannelActivityCard() {
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const [activity, setActivity] = useState<ActivityFilterState | null>(null);
  const [popup, setPopup] = useState(false);
  const q = useChannelsActivity(time, activityPayload(activity));
  useErrorToast(q);
  const rows = useMemo(() => [...(q.data ?? [])].sort((a, b) => b.activity - a.activity), [q.data]);
  const download = () =>
    downloadCsv(
      'Channel Activity',
      toCsv(
        CHANNEL_ACTIVITY_CSV_HEADERS,
        rows.map((r) => [r.channel_name, r.messages, r.replies, r.reactions, r.activity]),
      ),
    );
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
      <ScrollArea mah={420}>
        <Table striped highlightOnHover stickyHeader aria-label="Channel Activity">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Channel name</Table.Th>
              <Table.Th ta="right">Messages</Table.Th>
              <Table.Th ta="right">Replies</Table.Th>
              <Table.Th ta="right">Reactions</Table.Th>
              <Table.Th ta="right">Activity</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((c) => (
              <Table.Tr key={c.channel_id}>
                <Table.Td fw={500}>#{c.channel_name}</Table.Td>
                <Table.Td ta="right">{formatCount(c.messages)}</Table.Td>
                <Table.Td ta="right">{formatCount(c.replies)}</Table.Td>
                <Table.Td ta="right">{formatCount(c.reactions)}</Table.Td>
                <Table.Td ta="right" fw={600}>
                  {formatCount(c.activity)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
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
