import { useState } from 'react';
import { ActionIcon, Badge, Group, Radio, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconPlayerPlay, IconTag, IconTrash } from '@tabler/icons-react';
import { NOT_EXECUTED, type Bucket } from '@flywheel/shared/buckets';
import { DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { downloadCsv } from '../../../lib/csv.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useChannels, useCurrentTeam } from '../../../entities/workspace/index.ts';
import { useDeleteBucket } from '../api/delete-bucket.ts';
import { useExecuteBucket } from '../api/execute-bucket.ts';
import { getBucketResult } from '../api/get-bucket-result.ts';
import { bucketRowsCsv } from '../buckets.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { BucketTagModal } from './BucketTagModal.tsx';

const lastRun = (b: Bucket) => (b.last_execute === null ? NOT_EXECUTED : formatDateTime(b.last_execute));

type Props = {
  buckets: Bucket[] | undefined;
  loading: boolean;
  error: string | null;
  /** The bucket whose settings the form shows (the radio), or null. */
  loaded: number | null;
  onLoad(bucket: Bucket | null): void;
};

/**
 * 'BucketTable': searchable, sortable, selectable; the radio loads a bucket's settings into the form (again:
 * clears it); per row Run, Add Tag, CSV and Delete; the CSV button exports the checked buckets' last runs.
 */
export function BucketTable({ buckets, loading, error, loaded, onLoad }: Props) {
  const { teamId } = useCurrentTeam();
  const channels = useChannels();
  const run = useExecuteBucket();
  const remove = useDeleteBucket();
  const [tagging, setTagging] = useState<Bucket | null>(null);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const names = new Map((channels.data ?? []).map((c) => [c.channel_id, c.channel_name]));
  const channelNames = (b: Bucket) =>
    b.data.channel_filter.ids.map((id) => `#${names.get(id) ?? id}`).join(', ');

  const exportRows = async (ids: number[], fileName: string) => {
    const parts = await Promise.all(ids.map((id) => getBucketResult(teamId, id)));
    downloadCsv(fileName, bucketRowsCsv(parts.flat()));
  };

  const columns: DataColumn<Bucket>[] = [
    {
      id: 'load',
      header: 'Load',
      width: 56,
      csv: false,
      cell: (b) => (
        <Radio
          aria-label={`Load ${b.name}`}
          checked={loaded === b.id}
          onChange={() => {}}
          onClick={() => onLoad(loaded === b.id ? null : b)}
        />
      ),
    },
    { id: 'name', header: 'Name', value: (b) => b.name, sortable: true, fw: 600, nowrap: true },
    {
      id: 'basis',
      header: 'Basis',
      value: (b) => (b.data.basis === 'channels' ? 'Channels' : 'Members'),
      sortable: true,
      nowrap: true,
      cell: (b) => (
        <Badge
          variant="light"
          color={b.data.basis === 'channels' ? 'grape' : 'blue'}
          styles={{ root: { minWidth: 'max-content' }, label: { overflow: 'visible' } }}
        >
          {b.data.basis === 'channels' ? 'Channels' : 'Members'}
        </Badge>
      ),
    },
    {
      id: 'channels',
      header: 'Channels',
      value: channelNames,
      cell: (b) => (
        <Text fz="sm" lineClamp={2}>
          {channelNames(b)}
        </Text>
      ),
    },
    {
      id: 'last_execute',
      header: 'Last run',
      value: (b) => b.last_execute ?? 0,
      sortable: true,
      nowrap: true,
      cell: (b) =>
        b.last_execute === null ? (
          <Text fz="sm" c="dimmed">
            {NOT_EXECUTED}
          </Text>
        ) : (
          <Text fz="sm">{lastRun(b)}</Text>
        ),
      csv: { value: lastRun },
    },
    {
      id: 'members',
      header: 'Members',
      value: (b) => b.member_count ?? -1,
      sortable: true,
      align: 'right',
      cell: (b) => (b.member_count === null ? '–' : b.member_count.toLocaleString()),
      csv: { value: (b) => b.member_count ?? '' },
    },
    {
      id: 'actions',
      header: 'Actions',
      csv: false,
      cell: (b) => (
        <Group gap={4} wrap="nowrap">
          <Tooltip label="Run">
            <ActionIcon
              variant="subtle"
              aria-label={`Run ${b.name}`}
              loading={run.isPending && run.variables === b.id}
              onClick={() =>
                run.mutate(b.id, {
                  onSuccess: (res) => notifySuccess(res.message),
                  onError: (err) => notifyFailure(errorMessage(err)),
                })
              }
            >
              <IconPlayerPlay size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label={b.last_execute === null ? 'Run it first' : 'Add Tag to its members'}>
            <ActionIcon
              variant="subtle"
              aria-label={`Add Tag to ${b.name}`}
              disabled={b.last_execute === null}
              onClick={() => setTagging(b)}
            >
              <IconTag size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="CSV of the last run">
            <ActionIcon
              variant="subtle"
              aria-label={`Download ${b.name} CSV`}
              onClick={() => exportRows([b.id], b.name).catch((err) => notifyFailure(errorMessage(err)))}
            >
              <IconDownload size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Delete">
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Delete ${b.name}`}
              loading={remove.isPending && remove.variables === b.id}
              onClick={() =>
                remove.mutate(b.id, {
                  onSuccess: (res) => {
                    notifySuccess(res.message);
                    if (loaded === b.id) onLoad(null);
                    setSelected((s) => new Set([...s].filter((id) => id !== String(b.id))));
                  },
                  onError: (err) => notifyFailure(errorMessage(err)),
                })
              }
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <>
      <DataTable
        label="BucketTable"
        columns={columns}
        rows={buckets}
        rowId={(b) => String(b.id)}
        loading={loading}
        error={error}
        emptyText="No buckets yet: create one above."
        search={{ label: 'Search buckets', placeholder: 'Search buckets' }}
        selection={{ selected, onChange: setSelected, rowLabel: (b) => b.name }}
        countLabel={(n) => `${n} bucket${n === 1 ? '' : 's'}`}
        csv={{
          fileName: 'Buckets',
          label: 'Download the selected buckets’ members as CSV',
          onExport: (ids) =>
            exportRows(
              (ids.length ? ids : (buckets ?? []).map((b) => String(b.id))).map(Number),
              ids.length === 1
                ? (buckets?.find((b) => String(b.id) === ids[0])?.name ?? 'Bucket')
                : 'Buckets',
            ),
        }}
        pageSize={10}
        highlightOnHover
      />
      <BucketTagModal bucket={tagging} onClose={() => setTagging(null)} />
    </>
  );
}
