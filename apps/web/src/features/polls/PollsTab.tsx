import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ActionIcon, Button, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import { IconChartPie, IconPlus, IconTrash } from '@tabler/icons-react';
import type { Poll } from '@flywheel/shared/polls';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { currentWorkspace, useSession } from '../../lib/session.ts';
import { useMentionNames } from '../../entities/members/index.ts';
import { truncateText } from '@flywheel/shared/text';
import { MessagePreview } from '../../components/MessagePreview.tsx';
import type { PollSlots } from './slots.ts';
import { useDeletePoll, usePolls } from './api.ts';
import { CreatePollWizard } from './CreatePollWizard.tsx';
import { PollDetailsModal } from './PollDetailsModal.tsx';
import { RecurringPolls } from './RecurringPolls.tsx';
import { formatPollTime, PollStatusBadge, STATUS_LABEL } from './poll-status.tsx';
import { ActGate } from '../../components/ActGate.tsx';

/** What else a poll's delete removes: its messages in Slack (posted), or its post (scheduled). */
export function pollDeleteConsequences(p: Poll): string[] {
  const where = p.channels.map((c) => `#${c}`).join(', ');
  if (p.state === 'scheduled') return [`It will not be posted${where ? ` in ${where}` : ''}.`];
  return [
    `This also deletes the poll's message in Slack${where ? ` (${where})` : ''}: members will no longer see it or vote.`,
  ];
}

/** The Polls tab: the Poll Table ('+Create Poll', search, details and delete per row). */
export function PollsTab({ SendDm }: PollSlots) {
  const q = usePolls();
  const session = useSession();
  const timeZone = currentWorkspace(session)?.timezone || 'UTC';
  const [creating, setCreating] = useState(false);
  const [details, setDetails] = useState<number | null>(null);
  // ?poll=ID (a notification's link): that poll's details open.
  const [search, setSearch] = useSearchParams();
  const linked = search.get('poll');
  useEffect(() => {
    if (linked && /^\d{1,10}$/.test(linked)) setDetails(Number(linked));
  }, [linked]);
  const { mutate: remove, isPending: deleting, variables: deletingId } = useDeletePoll();
  const [asked, setAsked] = useState<Poll | null>(null);
  const names = useMentionNames();

  const columns = useMemo<DataColumn<Poll>[]>(
    () => [
      { id: 'created_by', header: 'Create By', value: (p) => p.created_by, nowrap: true, fw: 500 },
      {
        id: 'expiry',
        header: 'Expiry Time',
        value: (p) => p.expiry_ts,
        cell: (p) => (
          <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
            {formatPollTime(p.expiry_ts, timeZone)}
          </Text>
        ),
        sortable: true,
        searchable: false,
      },
      {
        id: 'question',
        header: 'Poll Question',
        value: (p) => p.question,
        cell: (p) => (
          <Stack gap={2} maw={420}>
            <MessagePreview html={p.htmlquestion} text={p.question} names={names} />
            <Text fz="xs" c="dimmed">
              {p.channels.map((c) => `#${c}`).join(', ')} · {p.total_votes} vote
              {p.total_votes === 1 ? '' : 's'}
            </Text>
          </Stack>
        ),
      },
      {
        id: 'status',
        header: 'Status',
        value: (p) => STATUS_LABEL[p.state],
        cell: (p) => (
          <Tooltip
            label={p.state === 'scheduled' ? `Posts ${formatPollTime(p.post_at, timeZone)}` : null}
            disabled={p.state !== 'scheduled'}
          >
            <PollStatusBadge state={p.state} />
          </Tooltip>
        ),
        searchable: false,
      },
      {
        id: 'details',
        header: 'Details',
        cell: (p) => (
          <Button
            variant="light"
            size="xs"
            leftSection={<IconChartPie size={14} />}
            onClick={() => setDetails(p.id)}
            aria-label={`Details of poll ${p.id}`}
          >
            Details
          </Button>
        ),
        width: 110,
      },
      {
        id: 'delete',
        header: 'Delete',
        cell: (p) => (
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Delete poll ${p.id}`}
            disabled={deleting}
            loading={deleting && deletingId === p.id}
            onClick={() => setAsked(p)}
          >
            <IconTrash size={18} />
          </ActionIcon>
        ),
        width: 70,
      },
    ],
    [timeZone, names, deleting, deletingId],
  );

  const confirmDelete = () => {
    if (!asked) return;
    remove(asked.id, {
      onSuccess: (res) => {
        notifySuccess(res.message);
        setAsked(null);
      },
      onError: (err) => notifyFailure(errorMessage(err)),
    });
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <div>
            <Text fw={600} fz="lg" component="h2" m={0}>
              Poll Table
            </Text>
            <Text fz="sm" c="dimmed">
              Ask channels a question; members vote by reacting with an option&apos;s emoji.
            </Text>
          </div>
          <ActGate>
            {(viewer) => (
              <Button
                leftSection={<IconPlus size={16} />}
                onClick={() => setCreating(true)}
                disabled={viewer}
              >
                Create Poll
              </Button>
            )}
          </ActGate>
        </Group>
        <DataTable
          label="Poll Table"
          columns={columns}
          rows={q.data}
          rowId={(p) => String(p.id)}
          rowProps={(p) => ({ 'data-poll-id': String(p.id) })}
          loading={q.isPending && q.fetchStatus !== 'idle'}
          error={q.error ? errorMessage(q.error) : null}
          emptyText="No polls yet: create one to ask your channels a question"
          search={{ label: 'Search polls', width: 320 }}
          countLabel={(n) => `${n} poll${n === 1 ? '' : 's'}`}
          pageSize={10}
          minWidth={860}
          highlightOnHover
          verticalSpacing="sm"
        />
        <RecurringPolls timeZone={timeZone} onDetails={setDetails} />
      </Stack>
      {creating ? (
        <CreatePollWizard
          opened
          onClose={() => setCreating(false)}
          timeZone={timeZone}
          createdBy={session?.username}
        />
      ) : null}
      <ConfirmDeleteModal
        opened={asked !== null}
        title="Delete poll?"
        what={
          asked
            ? `The poll "${truncateText(asked.question.replace(/\s+/g, ' ').trim(), 80)}" will be deleted, with its votes.`
            : ''
        }
        consequences={asked ? pollDeleteConsequences(asked) : []}
        confirmLabel="Delete poll"
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setAsked(null)}
      />
      {details !== null ? (
        <PollDetailsModal
          pollId={details}
          onClose={() => {
            setDetails(null);
            if (linked) setSearch({}, { replace: true });
          }}
          timeZone={timeZone}
          SendDm={SendDm}
        />
      ) : null}
    </Card>
  );
}
