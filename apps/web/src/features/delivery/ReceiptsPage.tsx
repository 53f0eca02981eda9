import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ActionIcon, Button, Card, Group, Modal, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconDownload, IconMessageReply } from '@tabler/icons-react';
import { DELIVERY_TEXTS, receiptStatus, type Receipt, type RecipientKind } from '@flywheel/shared/delivery';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { downloadRecipientsCsv } from './api/export-recipients.ts';
import { useReceipts } from './api/get-all-receipts.ts';
import { useRetryReceipt } from './api/retry-receipt.ts';
import { RepliesList } from './components/RepliesList.tsx';
import { useCanAct, VIEWER_REASON } from '../../lib/role.ts';

export const RECEIPTS_PAGE_SIZE = 10;
export const NO_RECEIPTS = 'No receipts yet: messages you send appear here';
export const NOT_RETRYABLE =
  'These recipients failed for good (e.g. not found or deactivated): trying again would fail again';

const KIND_LABEL: Record<RecipientKind, string> = {
  total: 'total',
  successful: 'successful',
  failed: 'failed',
};

/** Newest first (created_at, then id). */
const newestFirst = (a: Receipt, b: Receipt) => b.created_at.localeCompare(a.created_at) || b.id - a.id;

function Count(props: { receipt: Receipt; kind: RecipientKind; value: number }) {
  const { teamId } = useCurrentTeam();
  const [busy, setBusy] = useState(false);
  const { receipt, kind, value } = props;
  const download = () => {
    setBusy(true);
    downloadRecipientsCsv(teamId, receipt.id, kind)
      .catch((err: unknown) => notifyFailure(errorMessage(err)))
      .finally(() => setBusy(false));
  };
  return (
    <Group gap={4} wrap="nowrap">
      <Text fz="sm">{value}</Text>
      {value > 0 ? (
        <ActionIcon
          variant="subtle"
          size="sm"
          loading={busy}
          onClick={download}
          aria-label={`Download ${KIND_LABEL[kind]} recipients of receipt ${receipt.id}`}
        >
          <IconDownload size={14} />
        </ActionIcon>
      ) : null}
    </Group>
  );
}

/** 'Not sent' for a send the daily budget refused (a schedule's or a workflow's), else the receipt's status. */
const statusOf = (r: Receipt) => (r.error ? 'Not sent' : receiptStatus(r));

function Status({ receipt }: { receipt: Receipt }) {
  if (receipt.error)
    return (
      <Tooltip label={receipt.error} multiline w={320} withArrow>
        <Text fz="sm" c="red.8" aria-label={`Not sent: ${receipt.error}`}>
          Not sent
        </Text>
      </Tooltip>
    );
  const status = receiptStatus(receipt);
  if (status === 'Processed') return <Text fz="sm">{status}</Text>;
  const done = receipt.successful_recipient_count + receipt.failed_recipient_count;
  const percent = Math.floor((done / Math.max(1, receipt.total_recipient_count)) * 100);
  return (
    <Stack gap={4} miw={110}>
      <Text fz="sm">{status}</Text>
      <Progress value={percent} size="sm" animated aria-label={`Receipt ${receipt.id} progress`} />
    </Stack>
  );
}

/** Retry once Processed with failures; it re-queues the retryable failures. */
function Retry({ receipt }: { receipt: Receipt }) {
  const retry = useRetryReceipt();
  const { canAct } = useCanAct();
  if (receiptStatus(receipt) !== 'Processed' || receipt.failed_recipient_count <= 0) return null;
  const retryable = receipt.retryable_recipient_count > 0;
  const button = (
    <Button
      size="compact-sm"
      variant="light"
      disabled={!retryable || !canAct}
      loading={retry.isPending}
      aria-label={`Retry receipt ${receipt.id}`}
      onClick={() =>
        retry.mutate(receipt.id, {
          onSuccess: (res) => notifySuccess(res.message || DELIVERY_TEXTS.actionInitiated),
          onError: (err) => notifyFailure(errorMessage(err)),
        })
      }
    >
      Retry
    </Button>
  );
  if (retryable && canAct) return button;
  return (
    <Tooltip label={canAct ? NOT_RETRYABLE : VIEWER_REASON} multiline w={260} withArrow>
      {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
      <span tabIndex={0} style={{ display: 'inline-block' }}>
        {button}
      </span>
    </Tooltip>
  );
}

/** What members wrote back in their DM with the bot, answering this send: the count, and the list in a dialog. */
function Replies({ receipt }: { receipt: Receipt }) {
  const [open, setOpen] = useState(false);
  const n = receipt.reply_count;
  if (n === 0)
    return (
      <Text fz="sm" c="dimmed">
        0
      </Text>
    );
  const label = `${n} ${n === 1 ? 'reply' : 'replies'}`;
  return (
    <>
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconMessageReply size={14} aria-hidden />}
        aria-label={`${label} to receipt ${receipt.id}`}
        onClick={() => setOpen(true)}
      >
        {n}
      </Button>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={`Replies: ${receipt.description}`}
        size="lg"
        styles={{ title: { fontWeight: 600 } }}
      >
        {open ? (
          <RepliesList
            of={{ receiptId: receipt.id }}
            show="member"
            label={`Replies to receipt ${receipt.id}`}
            emptyText="No replies yet."
          />
        ) : null}
      </Modal>
    </>
  );
}

const COLUMNS: DataColumn<Receipt>[] = [
  { id: 'action_type', header: 'Action Type', value: (r) => r.action_type, nowrap: true },
  { id: 'description', header: 'Description', value: (r) => r.description },
  {
    id: 'total',
    header: 'Total Recipients',
    value: (r) => r.total_recipient_count,
    searchable: false,
    cell: (r) => <Count receipt={r} kind="total" value={r.total_recipient_count} />,
  },
  {
    id: 'successful',
    header: 'Success Count',
    value: (r) => r.successful_recipient_count,
    searchable: false,
    cell: (r) => <Count receipt={r} kind="successful" value={r.successful_recipient_count} />,
  },
  {
    id: 'failed',
    header: 'Failed Count',
    value: (r) => r.failed_recipient_count,
    searchable: false,
    cell: (r) => <Count receipt={r} kind="failed" value={r.failed_recipient_count} />,
  },
  {
    id: 'status',
    header: 'Status',
    value: (r) => statusOf(r),
    cell: (r) => <Status receipt={r} />,
    nowrap: true,
  },
  {
    id: 'replies',
    header: 'Replies',
    value: (r) => r.reply_count,
    cell: (r) => <Replies receipt={r} />,
    sortable: true,
    searchable: false,
  },
  {
    // When the send was made, in the browser's timezone ('16 Nov 2026, 14:05'); sorts by the instant.
    id: 'sent',
    header: 'Sent',
    value: (r) => Date.parse(r.created_at) || 0,
    cell: (r) => formatDateTime(r.created_at),
    sortable: true,
    searchable: false,
    nowrap: true,
  },
  { id: 'retry', header: 'Retry', cell: (r) => <Retry receipt={r} /> },
];

/** /dashboard/receipts: every send's receipt, with per-count CSVs, live progress and Retry. */
export function ReceiptsPage() {
  const q = useReceipts();
  // ?receipt=ID (a notification's link): that receipt's row is marked.
  const linked = useSearchParams()[0].get('receipt');
  const rows = useMemo(() => (q.data ? [...q.data].sort(newestFirst) : undefined), [q.data]);
  return (
    <>
      <PageHeader title="Receipts" description="Proof of delivery for every bulk action." />
      <Card withBorder radius="md" padding="lg">
        <Stack gap="md">
          <Text fw={600} fz="lg" component="h2">
            Receipts Data
          </Text>
          <DataTable
            label="Receipts Data"
            columns={COLUMNS}
            rows={rows}
            rowId={(r) => String(r.id)}
            rowProps={(r): Record<string, string> =>
              String(r.id) === linked
                ? { 'data-receipt-id': String(r.id), 'data-linked': 'true', 'aria-current': 'true' }
                : { 'data-receipt-id': String(r.id) }
            }
            loading={q.isPending && q.fetchStatus !== 'idle'}
            error={q.error ? errorMessage(q.error) : null}
            emptyText={NO_RECEIPTS}
            search={{ label: 'Search receipts', placeholder: 'Search action or description' }}
            defaultSort={{ id: 'sent', desc: true }}
            pageSize={RECEIPTS_PAGE_SIZE}
            countLabel={(n) => `${n} receipt${n === 1 ? '' : 's'}`}
            minWidth={900}
            highlightOnHover
            verticalSpacing="sm"
          />
        </Stack>
      </Card>
    </>
  );
}
