import { useMemo, useState } from 'react';
import { Button, Checkbox, Menu } from '@mantine/core';
import { IconFilter, IconRefresh } from '@tabler/icons-react';
import { BUCKET_TABLE_PAGE_SIZES, type BucketRow } from '@flywheel/shared/buckets';
import { ActivityFilterModal } from '../../../components/ActivityFilterModal.tsx';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { countColumn, DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { activityIsSet } from '../../../lib/activity-filter.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure } from '../../../lib/notify.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { ChannelFilterModal } from '../../../components/ChannelFilterModal.tsx';
import { downloadAdvanceCsv } from '../api/export-advance-analytics.ts';
import { useAdvanceAnalytics } from '../api/perform-advance-analytics.ts';
import { RESET_ADVANCE, toAdvanceRequest, type AdvanceState, type JoinType } from '../buckets.ts';
import { DownloadButton } from './controls.tsx';

/** The bucket table's columns: the bucket CSV's columns. */
export const BUCKET_ROW_COLUMNS: DataColumn<BucketRow>[] = [
  { id: 'date', header: 'Date of Data', value: (r) => r.date_of_data, nowrap: true },
  { id: 'name', header: 'Member Name', value: (r) => r.member_name },
  { id: 'email', header: 'Member Email ID', value: (r) => r.email },
  { id: 'channel', header: 'Channel Name', value: (r) => r.channel_name },
  countColumn<BucketRow>('Messages', (r) => r.messages),
  countColumn<BucketRow>('Reactions', (r) => r.reactions),
  countColumn<BucketRow>('Replies', (r) => r.replies),
  countColumn<BucketRow>('Activity', (r) => r.activity, 600),
];

const JOIN_LABEL: Record<JoinType, string> = { team_join: 'Member Joined', team_left: 'Member Left' };
const variant = (on: boolean) => (on ? 'filled' : 'default');

/**
 * Bucket table: members by join or leave window, channels and activity,
 * optionally split per day and channel; a total row count, Reset, and the CSV of every row. The server pages.
 */
export function BucketAnalyticsCard() {
  const { teamId } = useCurrentTeam();
  const [s, setS] = useState<AdvanceState>(RESET_ADVANCE);
  // The join window is a time span ending now: fixed when the filters change, so paging keeps the same rows.
  const [stamp, setStamp] = useState(() => Date.now());
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(BUCKET_TABLE_PAGE_SIZES[0]);
  const [popup, setPopup] = useState<'channel' | 'activity' | null>(null);
  const [exporting, setExporting] = useState(false);
  const request = useMemo(() => toAdvanceRequest(s, stamp), [s, stamp]);
  const q = useAdvanceAnalytics(request, page, pageSize);
  useErrorToast(q);
  const total = q.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / pageSize));

  const update = (next: Partial<AdvanceState>) => {
    setS((old) => ({ ...old, ...next }));
    setStamp(Date.now());
    setPage(1);
  };
  const download = async () => {
    setExporting(true);
    try {
      await downloadAdvanceCsv(teamId, request);
    } catch (err) {
      notifyFailure(errorMessage(err));
    } finally {
      setExporting(false);
    }
  };

  return (
    <ChartCard
      title="Bucket Table"
      subtitle={q.data ? `${total} row${total === 1 ? '' : 's'}` : undefined}
      actions={
        <>
          <Menu position="bottom-end">
            <Menu.Target>
              <Button variant={variant(s.join !== null)} leftSection={<IconFilter size={16} />}>
                {s.join ? JOIN_LABEL[s.join] : 'Join Filter'}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => update({ join: 'team_join' })}>Member Joined</Menu.Item>
              <Menu.Item onClick={() => update({ join: 'team_left' })}>Member Left</Menu.Item>
              <Menu.Item onClick={() => update({ join: null })}>No join filter</Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <TimeFilterSelect
            label="Join Time Filter"
            prefix={s.join === 'team_left' ? 'Left in' : 'Joined in'}
            disabled={s.join === null}
            value={s.joinWindow}
            onChange={(joinWindow) => update({ joinWindow })}
          />
          <Button
            variant={variant(s.channels.length > 0)}
            leftSection={<IconFilter size={16} />}
            onClick={() => setPopup('channel')}
          >
            Channel Filter
          </Button>
          <Button
            variant={variant(activityIsSet(s.activity))}
            leftSection={<IconFilter size={16} />}
            onClick={() => setPopup('activity')}
          >
            Activity Filter
          </Button>
          <Checkbox
            label="Split by Date"
            checked={s.split}
            onChange={(e) => update({ split: e.currentTarget.checked })}
          />
          <TimeFilterSelect
            label="Bucket Table time filter"
            prefix="Activity"
            value={s.time}
            onChange={(time) => update({ time })}
          />
          <Button
            variant="subtle"
            color="gray"
            leftSection={<IconRefresh size={16} />}
            onClick={() => update(RESET_ADVANCE)}
          >
            Reset
          </Button>
          <DownloadButton
            label="Download Bucket Table CSV"
            disabled={!q.data}
            loading={exporting}
            onClick={download}
          />
        </>
      }
      state={queryState(q, () => false, errorMessage)}
      minHeight={220}
    >
      <DataTable
        label="Bucket Table"
        columns={BUCKET_ROW_COLUMNS}
        rows={q.data?.data}
        rowId={(r) => `${r.date_of_data}|${r.member_id}|${r.channel_id ?? ''}`}
        emptyText="No Data found!"
        refreshing={q.isFetching && !!q.data}
        server={{ page: Math.min(page, pages), pageSize, total, onPageChange: setPage }}
        pageSizes={BUCKET_TABLE_PAGE_SIZES}
        onPageSizeChange={(size) => {
          setPageSize(size);
          setPage(1);
        }}
        highlightOnHover
      />
      <ChannelFilterModal
        opened={popup === 'channel'}
        value={s.channels}
        combiner={s.channelType}
        onClose={() => setPopup(null)}
        onApply={(channels, channelType) => {
          update({ channels, channelType });
          setPopup(null);
        }}
      />
      <ActivityFilterModal
        opened={popup === 'activity'}
        value={s.activity}
        onClose={() => setPopup(null)}
        onApply={(a) => {
          update({ activity: activityIsSet(a) ? a : null });
          setPopup(null);
        }}
      />
    </ChartCard>
  );
}
