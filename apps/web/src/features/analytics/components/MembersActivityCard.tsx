import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Anchor, Button, MultiSelect, Text } from '@mantine/core';
import type { MemberActivity } from '@flywheel/shared/analytics';
import { columnsCsv, countColumn, DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { IconFilter } from '@tabler/icons-react';
import { ActivityFilterModal } from '../../../components/ActivityFilterModal.tsx';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { TimeFilterSelect } from '../../../components/TimeFilterSelect.tsx';
import { activityIsSet, activityPayload, type ActivityFilterState } from '../../../lib/activity-filter.ts';
import { errorMessage } from '../../../lib/api-client.ts';
import { downloadCsv } from '../../../lib/csv.ts';
import { notifyFailure } from '../../../lib/notify.tsx';
import { DEFAULT_TIME, type TimeChoice } from '../../../lib/time-filter.ts';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useTags } from '../../../entities/tags/index.ts';
import {
  MEMBERS_ACTIVITY_PAGE_SIZE,
  useAllMembersActivity,
  useMembersActivity,
} from '../api/members-activity-analytics.ts';
import { ChannelScopeSelect, DownloadButton, scopeChannels, WORKSPACE } from './controls.tsx';

/** The table's columns; the CSV names them 'Real Name', 'Display Name', 'Email', then the counts. */
const COLUMNS: DataColumn<MemberActivity>[] = [
  {
    id: 'real_name',
    header: 'Real name',
    value: (m) => m.real_name,
    cell: (m) => (
      <Anchor component={Link} to={`/dashboard/members/${m.member_id}`} fz="sm">
        {m.real_name}
      </Anchor>
    ),
    csv: { header: 'Real Name' },
  },
  {
    id: 'display_name',
    header: 'Display name',
    value: (m) => m.display_name,
    csv: { header: 'Display Name' },
  },
  {
    id: 'email',
    header: 'Email',
    value: (m) => m.email,
    cell: (m) => (
      <Text fz="sm" c="dimmed">
        {m.email}
      </Text>
    ),
  },
  countColumn<MemberActivity>('Messages', (m) => m.messages),
  countColumn<MemberActivity>('Replies', (m) => m.replies),
  countColumn<MemberActivity>('Reactions', (m) => m.reactions),
  countColumn<MemberActivity>('Activity', (m) => m.activity, 600),
];

/**
 * Members Activity: channel or workspace, Filter by Activity, Filter by Tag, time filter, CSV. The server
 * pages the table (most active first, 10 rows a page); the CSV fetches every match when it is clicked.
 */
export function MembersActivityCard() {
  const tags = useTags();
  const [scope, setScope] = useState(WORKSPACE);
  const [time, setTime] = useState<TimeChoice>(DEFAULT_TIME);
  const [activity, setActivity] = useState<ActivityFilterState | null>(null);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [popup, setPopup] = useState(false);
  const [page, setPage] = useState(1);
  const request = useMemo(
    () => ({ time, channels: scopeChannels(scope), activity: activityPayload(activity), tags: tagIds }),
    [time, scope, activity, tagIds],
  );
  const q = useMembersActivity(request, page);
  useErrorToast(q);
  const all = useAllMembersActivity();
  const rows = q.data?.data ?? [];
  const total = q.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / MEMBERS_ACTIVITY_PAGE_SIZE));
  // Fewer matches than before (new data since the last page): go to the last page there is.
  useEffect(() => {
    if (q.data && !q.isPlaceholderData && page > pages) setPage(pages);
  }, [q.data, q.isPlaceholderData, page, pages]);
  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };
  const download = () =>
    all.mutate(request, {
      onSuccess: (members) => downloadCsv('Members Activity', columnsCsv(COLUMNS, members)),
      onError: (err) => notifyFailure(errorMessage(err)),
    });
  return (
    <ChartCard
      title="Members Activity"
      subtitle={q.data ? `${total} member${total === 1 ? '' : 's'}` : undefined}
      actions={
        <>
          <ChannelScopeSelect label="Members Activity channel" value={scope} onChange={reset(setScope)} />
          <Button
            variant={activityIsSet(activity) ? 'filled' : 'default'}
            leftSection={<IconFilter size={16} />}
            onClick={() => setPopup(true)}
          >
            Filter by Activity
          </Button>
          <MultiSelect
            aria-label="Filter by Tag"
            placeholder={tagIds.length ? undefined : 'Filter by Tag'}
            data={(tags.data ?? []).map((t) => ({ value: String(t.id), label: t.name }))}
            value={tagIds.map(String)}
            onChange={(v) => reset(setTagIds)(v.map(Number))}
            clearable
            searchable
            w={200}
          />
          <TimeFilterSelect label="Members Activity time filter" value={time} onChange={reset(setTime)} />
          <DownloadButton
            label="Download Members Activity CSV"
            disabled={!total}
            loading={all.isPending}
            onClick={download}
          />
        </>
      }
      state={queryState(q, (d) => d.total === 0, errorMessage)}
      minHeight={220}
    >
      <DataTable
        label="Members Activity"
        columns={COLUMNS}
        rows={rows}
        rowId={(m) => m.member_id}
        server={{
          page: Math.min(page, pages),
          pageSize: MEMBERS_ACTIVITY_PAGE_SIZE,
          total,
          onPageChange: setPage,
        }}
        highlightOnHover
      />
      <ActivityFilterModal
        opened={popup}
        value={activity}
        onClose={() => setPopup(false)}
        onApply={(a) => {
          reset(setActivity)(activityIsSet(a) ? a : null);
          setPopup(false);
        }}
      />
    </ChartCard>
  );
}
