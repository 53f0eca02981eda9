import { useMemo, useState } from 'react';
import { ActionIcon, Button, Group, Stack, Table, Text } from '@mantine/core';
import { IconChartPie, IconRepeat, IconTrash } from '@tabler/icons-react';
import type { RecurringPoll } from '@flywheel/shared/polls';
import { truncateText } from '@flywheel/shared/text';
import { ActGate } from '../../components/ActGate.tsx';
import { ConfirmDeleteModal } from '../../components/ConfirmDeleteModal.tsx';
import { DataTable, type DataColumn } from '../../components/DataTable.tsx';
import { LazyModal } from '../../components/LazyModal.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { formatPollTime, PollStatusBadge } from './poll-status.tsx';
import { useDeleteRecurringPoll, useRecurringPolls } from './recurring-api.ts';

const oneLine = (text: string) => truncateText(text.replace(/\s+/g, ' ').trim(), 80);
/** How each occurrence is voted on: emoji reactions, or buttons with their settings. */
const votingOf = (p: RecurringPoll) =>
  p.voting === 'buttons'
    ? ['buttons', p.anonymous ? 'anonymous' : null, p.multiple ? 'multiple choice' : null]
        .filter(Boolean)
        .join(', ')
    : 'emoji reactions';

/** The polls a recurring poll posted, newest first, each with its state, votes and its Details. */
function InstancesModal({
  poll,
  timeZone,
  onClose,
  onDetails,
}: {
  poll: RecurringPoll;
  timeZone: string;
  onClose(): void;
  onDetails(pollId: number): void;
}) {
  return (
    <LazyModal opened onClose={onClose} title={`Polls posted: ${oneLine(poll.question)}`} size="lg">
      {poll.instances.length === 0 ? (
        <Text fz="sm" c="dimmed">
          {poll.next_run
            ? `Nothing posted yet: the first poll goes out ${formatPollTime(poll.next_run, timeZone)}.`
            : 'Nothing posted.'}
        </Text>
      ) : (
        <Table striped aria-label="Polls posted" verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Posted</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Votes</Table.Th>
              <Table.Th>Details</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {poll.instances.map((i) => (
              <Table.Tr key={i.poll_id}>
                <Table.Td>{formatPollTime(i.post_at, timeZone)}</Table.Td>
                <Table.Td>
                  <PollStatusBadge state={i.state} />
                </Table.Td>
                <Table.Td>{i.total_votes}</Table.Td>
                <Table.Td>
                  <Button
                    variant="light"
                    size="xs"
                    leftSection={<IconChartPie size={14} />}
                    aria-label={`Details of poll ${i.poll_id}`}
                    onClick={() => onDetails(i.poll_id)}
                  >
                    Details
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </LazyModal>
  );
}

/**
 * The Polls tab's recurring polls (shown once there is one): the question, its schedule and next run in the
 * workspace's timezone, the polls it posted (each with its own results) and Delete, which stops the next ones.
 */
export function RecurringPolls({
  timeZone,
  onDetails,
}: {
  timeZone: string;
  onDetails(pollId: number): void;
}) {
  const q = useRecurringPolls();
  const { mutate: remove, isPending: deleting } = useDeleteRecurringPoll();
  const [asked, setAsked] = useState<RecurringPoll | null>(null);
  const [shown, setShown] = useState<number | null>(null);

  const columns = useMemo<DataColumn<RecurringPoll>[]>(
    () => [
      {
        id: 'question',
        header: 'Poll Question',
        value: (p) => p.question,
        cell: (p) => (
          <Stack gap={2} maw={380}>
            <Text fz="sm">{oneLine(p.question)}</Text>
            <Text fz="xs" c="dimmed">
              {p.channels.map((c) => `#${c}`).join(', ')} · open {p.duration_hours} h · {votingOf(p)}
            </Text>
          </Stack>
        ),
      },
      { id: 'schedule', header: 'Schedule', value: (p) => p.schedule, nowrap: true },
      {
        id: 'next',
        header: 'Next run',
        value: (p) => p.next_run ?? '',
        cell: (p) => (
          <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
            {p.next_run ? formatPollTime(p.next_run, timeZone) : '—'}
          </Text>
        ),
        searchable: false,
      },
      {
        id: 'instances',
        header: 'Polls posted',
        value: (p) => p.instances.length,
        cell: (p) => (
          <Button
            variant="subtle"
            size="xs"
            onClick={() => setShown(p.id)}
            aria-label={`${p.instances.length} polls posted by recurring poll ${p.id}`}
          >
            {`${p.instances.length} poll${p.instances.length === 1 ? '' : 's'}`}
          </Button>
        ),
        searchable: false,
      },
      {
        id: 'delete',
        header: 'Delete',
        cell: (p) => (
          <ActGate>
            {(viewer) => (
              <ActionIcon
                variant="subtle"
                color="red"
                aria-label={`Delete recurring poll ${p.id}`}
                disabled={deleting || viewer}
                onClick={() => setAsked(p)}
              >
                <IconTrash size={18} />
              </ActionIcon>
            )}
          </ActGate>
        ),
        width: 70,
      },
    ],
    [timeZone, deleting],
  );

  if (!q.data?.length) return null;
  const open = q.data.find((p) => p.id === shown);
  return (
    <Stack gap="sm" mt="md">
      <Group gap={6}>
        <IconRepeat size={18} aria-hidden />
        <Text fw={600} fz="md" component="h3" m={0}>
          Recurring polls
        </Text>
      </Group>
      <DataTable
        label="Recurring Polls"
        columns={columns}
        rows={q.data}
        rowId={(p) => String(p.id)}
        loading={false}
        error={q.error ? errorMessage(q.error) : null}
        emptyText="No recurring polls"
        countLabel={(n) => `${n} recurring poll${n === 1 ? '' : 's'}`}
        pageSize={10}
        minWidth={760}
        verticalSpacing="sm"
      />
      {open ? (
        <InstancesModal
          poll={open}
          timeZone={timeZone}
          onClose={() => setShown(null)}
          onDetails={(id) => {
            setShown(null);
            onDetails(id);
          }}
        />
      ) : null}
      <ConfirmDeleteModal
        opened={asked !== null}
        title="Delete recurring poll?"
        what={asked ? `The recurring poll "${oneLine(asked.question)}" will be deleted.` : ''}
        consequences={['No more polls will be posted. The polls it already posted stay, with their votes.']}
        confirmLabel="Delete recurring poll"
        busy={deleting}
        onConfirm={() =>
          asked &&
          remove(asked.id, {
            onSuccess: (res) => {
              notifySuccess(res.message);
              setAsked(null);
            },
            onError: (err) => notifyFailure(errorMessage(err)),
          })
        }
        onCancel={() => setAsked(null)}
      />
    </Stack>
  );
}
