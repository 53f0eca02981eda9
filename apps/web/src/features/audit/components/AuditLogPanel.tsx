import { useState } from 'react';
import { Badge, Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import {
  AUDIT_PAGE_SIZES,
  auditObjectsText,
  type AuditEvent,
  type AuditFilter,
} from '@flywheel/shared/audit';
import { DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { notifyFailure } from '../../../lib/notify.tsx';
import { downloadAuditCsv, useAuditEvents } from '../api.ts';

export const AUDIT_EMPTY = 'Nothing recorded yet for these filters';
export const AUDIT_RANGE_ORDER = 'The start date must not be after the end date';

/** Who acted: the e-mail, and the API key's name on a key's call. All plain text. */
function Actor({ e }: { e: AuditEvent }) {
  return (
    <Stack gap={2}>
      <Text fz="sm">{e.actor_email ?? e.actor_user_id ?? 'Unknown'}</Text>
      {e.actor_kind === 'api_key' ? (
        <Text fz="xs" c="dimmed">
          API key: {e.actor_label ?? 'unnamed'}
        </Text>
      ) : null}
    </Stack>
  );
}

const COLUMNS: DataColumn<AuditEvent>[] = [
  {
    id: 'at',
    header: 'Time',
    value: (e) => formatDateTime(e.at),
    nowrap: true,
    csv: { value: (e) => e.at },
  },
  { id: 'actor', header: 'Person', value: (e) => e.actor_email ?? '', cell: (e) => <Actor e={e} /> },
  {
    id: 'action',
    header: 'Action',
    value: (e) => e.action,
    cell: (e) => (
      <Badge variant="light" tt="none" radius="sm">
        {e.action}
      </Badge>
    ),
    nowrap: true,
  },
  { id: 'summary', header: 'Summary', value: (e) => e.summary },
  { id: 'objects', header: 'Objects', value: (e) => auditObjectsText(e.objects) },
  { id: 'status', header: 'Status', value: (e) => e.status, align: 'right' },
];

/**
 * The workspace's audit log: who did what and when, newest first, filtered by person, kind and days (UTC), a
 * page at a time, and the filtered log as CSV (the server writes it with the shared formula-safe writer).
 */
export function AuditLogPanel({ teamId }: { teamId: string }) {
  const [actor, setActor] = useState<string | null>(null);
  const [kind, setKind] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(AUDIT_PAGE_SIZES[1]);
  const [downloading, setDownloading] = useState(false);

  const rangeProblem = from && to && from > to ? AUDIT_RANGE_ORDER : null;
  const filter: AuditFilter = {
    actor: actor ?? undefined,
    kind: kind ?? undefined,
    from: !rangeProblem && from ? from : undefined,
    to: !rangeProblem && to ? to : undefined,
  };
  const q = useAuditEvents(teamId, { ...filter, page, page_size: pageSize });
  const people = q.data?.people ?? [];
  const kinds = q.data?.kinds ?? [];
  const change =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  const download = () => {
    setDownloading(true);
    downloadAuditCsv(teamId, filter)
      .catch((err: unknown) => notifyFailure(errorMessage(err)))
      .finally(() => setDownloading(false));
  };

  return (
    <Stack gap="md">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="Person"
          placeholder="Everyone"
          clearable
          searchable
          data={people.map((p) => ({ value: p.user_id, label: p.email || p.user_id }))}
          value={actor}
          onChange={change(setActor)}
          w={240}
        />
        <Select
          label="Action"
          placeholder="Every action"
          clearable
          searchable
          data={kinds}
          value={kind}
          onChange={change(setKind)}
          w={200}
        />
        <TextInput
          type="date"
          label="From"
          value={from}
          onChange={(e) => change(setFrom)(e.currentTarget.value)}
          error={rangeProblem}
          w={160}
        />
        <TextInput
          type="date"
          label="To"
          value={to}
          onChange={(e) => change(setTo)(e.currentTarget.value)}
          w={160}
        />
        <Button
          variant="light"
          leftSection={<IconDownload size={16} aria-hidden />}
          loading={downloading}
          onClick={download}
        >
          Download CSV
        </Button>
      </Group>
      <Text fz="xs" c="dimmed">
        Successful actions and logins are recorded; failed calls and reading are not. Days are in UTC.
      </Text>
      <DataTable
        label="Audit log"
        columns={COLUMNS}
        rows={q.data?.data}
        rowId={(e) => String(e.id)}
        rowProps={(e) => ({ 'data-action': e.action })}
        loading={q.isPending}
        refreshing={q.isFetching && !q.isPending}
        error={q.isError ? errorMessage(q.error) : null}
        emptyText={AUDIT_EMPTY}
        server={{
          page,
          pageSize,
          total: q.data?.total ?? 0,
          onPageChange: setPage,
        }}
        pageSizes={AUDIT_PAGE_SIZES}
        onPageSizeChange={change(setPageSize)}
        minWidth={860}
      />
    </Stack>
  );
}
