import { useMemo, useState } from 'react';
import { ActionIcon, Badge, Group, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { ACTION_TEXTS, type ActionRow } from '@flywheel/shared/actions';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal.tsx';
import { DataTable, type DataColumn } from '../../../components/DataTable.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useMentionNames } from '../../../entities/members/index.ts';
import { useDeleteAction } from './api/delete-action.ts';
import { DAY_LABEL, FREQUENCY_LABEL } from '../../../lib/schedule-time.ts';
import { MessagePreview } from '../../../components/MessagePreview.tsx';

/** The Users column shows at most 10 names, '...' when there are 10 or more. */
export const USERS_SHOWN = 10;

/** The Users cell's text: the DM'd members (first 10) and who else the message reaches. */
export function usersText(r: ActionRow): string {
  const names = r.users.slice(0, USERS_SHOWN).join(', ');
  return r.user_ids.length >= USERS_SHOWN ? `${names}, ...` : names;
}

function Audience({ row }: { row: ActionRow }) {
  const extra = [
    row.send_dm ? 'New member' : null,
    row.sendtoworkspace ? 'All members' : null,
    row.dms.tags.length ? `${row.dms.tags.length} tag${row.dms.tags.length === 1 ? '' : 's'}` : null,
    row.dms.channels.length
      ? `Members of ${row.dms.channels.length} channel${row.dms.channels.length === 1 ? '' : 's'}`
      : null,
  ].filter((x): x is string => x !== null);
  const names = usersText(row);
  if (!names && extra.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Group gap={4} maw={260}>
      {extra.map((x) => (
        <Badge key={x} variant="light" size="sm" radius="sm" tt="none">
          {x}
        </Badge>
      ))}
      {names ? <Text fz="sm">{names}</Text> : null}
    </Group>
  );
}

function Channels({ row }: { row: ActionRow }) {
  if (row.channels.length === 0)
    return (
      <Text fz="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Text fz="sm" maw={200}>
      {row.channels.map((c) => `#${c}`).join(', ')}
    </Text>
  );
}

/** When a schedule runs next, in the workspace's timezone ('Mon, 23 Nov, 09:00 GMT+1'). */
export function formatNextRun(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', {
    timeZone,
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
  }).format(new Date(iso));
}

/** The next run on one line and the workspace's timezone under it. */
function NextRun({ row }: { row: ActionRow }) {
  if (!row.next_run) return <Text fz="sm">{nextRunText(row)}</Text>;
  return (
    <div>
      <Text fz="sm" style={{ whiteSpace: 'nowrap' }}>
        {formatNextRun(row.next_run, row.timezone).replace(/ [^ ]+$/, '')}
      </Text>
      <Text fz="xs" c="dimmed">
        {row.timezone}
      </Text>
    </div>
  );
}

const nextRunText = (r: ActionRow) =>
  r.next_run ? formatNextRun(r.next_run, r.timezone) : r.last_run ? 'Sent' : '—';

const daysDate = (r: ActionRow) =>
  r.frequency === 'Weekly'
    ? r.days.map((d) => DAY_LABEL[d]).join(', ')
    : r.frequency === 'Everyday'
      ? 'Every day'
      : r.days_date;

/** What deleting a trigger or a schedule stops (what it already sent stays in Slack). */
export function actionDeleteConsequences(r: ActionRow): string[] {
  const stays = 'Messages it already sent stay in Slack.';
  if (r.kind === 'automation') return [`Members who join from now on will not get its message. ${stays}`];
  return [
    r.next_run
      ? `Its next send (${formatNextRun(r.next_run, r.timezone)}) and every later one will not go out. ${stays}`
      : `It will not send again. ${stays}`,
  ];
}

type ActionsTableProps = {
  kind: ActionRow['kind'];
  rows: ActionRow[] | undefined;
  loading: boolean;
  error: string | null;
  onEdit(row: ActionRow): void;
};

/** The Automate ('Triggers') and Schedule ('Schedule Table') tables, newest first, with edit and delete. */
export function ActionsTable({ kind, rows, loading, error, onEdit }: ActionsTableProps) {
  const { mutate: remove, isPending: deleting, variables: deletingId } = useDeleteAction();
  const [asked, setAsked] = useState<ActionRow | null>(null);
  const busy = loading || deleting;
  const names = useMentionNames();

  const columns = useMemo<DataColumn<ActionRow>[]>(() => {
    const editCell = (r: ActionRow) => {
      const button = (
        <ActionIcon
          variant="subtle"
          aria-label={`Edit ${r.trigger_name}`}
          disabled={r.bulkdm || busy}
          onClick={() => onEdit(r)}
        >
          <IconPencil size={18} />
        </ActionIcon>
      );
      if (!r.bulkdm) return button;
      return (
        <Tooltip label={ACTION_TEXTS.bulkDmEdit} withArrow>
          {/* A disabled button gets no pointer events: the wrapper carries the tooltip. */}
          <span tabIndex={0} style={{ display: 'inline-block' }}>
            {button}
          </span>
        </Tooltip>
      );
    };
    const deleteCell = (r: ActionRow) => (
      <ActionIcon
        variant="subtle"
        color="red"
        aria-label={`Delete ${r.trigger_name}`}
        disabled={busy}
        loading={deleting && deletingId === r.id}
        onClick={() => setAsked(r)}
      >
        <IconTrash size={18} />
      </ActionIcon>
    );
    const name: DataColumn<ActionRow> = {
      id: 'name',
      header: kind === 'automation' ? 'Trigger Name' : 'Schedule',
      value: (r) => r.trigger_name,
      fw: 500,
    };
    const sender: DataColumn<ActionRow> = {
      id: 'sender',
      header: 'Sender',
      value: (r) => r.sender_label,
      nowrap: true,
      searchable: false,
    };
    const message: DataColumn<ActionRow> = {
      id: 'message',
      header: 'Message',
      value: (r) => r.message,
      cell: (r) => <MessagePreview html={r.htmlmessage} text={r.message} names={names} />,
    };
    const users: DataColumn<ActionRow> = {
      id: 'users',
      header: 'Users',
      value: usersText,
      cell: (r) => <Audience row={r} />,
    };
    const channels: DataColumn<ActionRow> = {
      id: 'channels',
      header: 'Channels',
      value: (r) => r.channels.join(', '),
      cell: (r) => <Channels row={r} />,
    };
    const edit: DataColumn<ActionRow> = { id: 'edit', header: 'Edit', cell: editCell, width: 60 };
    const del: DataColumn<ActionRow> = { id: 'delete', header: 'Delete', cell: deleteCell, width: 60 };
    if (kind === 'automation') return [name, sender, message, users, channels, edit, del];
    return [
      name,
      sender,
      message,
      {
        id: 'frequency',
        header: 'Frequency',
        value: (r) => (r.frequency ? FREQUENCY_LABEL[r.frequency] : ''),
        nowrap: true,
        searchable: false,
      },
      { id: 'time', header: 'Time', value: (r) => r.time ?? '', nowrap: true, searchable: false },
      { id: 'days', header: 'Days/Date', value: daysDate, searchable: false },
      {
        id: 'next',
        header: 'Next Run',
        value: nextRunText,
        cell: (r) => <NextRun row={r} />,
        searchable: false,
      },
      users,
      channels,
      edit,
      del,
    ];
  }, [kind, busy, onEdit, deleting, deletingId, names]);

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
  const noun = kind === 'automation' ? 'trigger' : 'schedule';

  const sorted = useMemo(() => (rows ? [...rows].sort((a, b) => b.id - a.id) : undefined), [rows]);
  const label = kind === 'automation' ? 'Triggers' : 'Schedule Table';

  return (
    <>
      <DataTable
        label={label}
        columns={columns}
        rows={sorted}
        rowId={(r) => String(r.id)}
        rowProps={(r) => ({ 'data-action-id': String(r.id) })}
        loading={loading}
        error={error}
        emptyText={
          kind === 'automation'
            ? 'No triggers yet: create one to welcome new members automatically'
            : 'No scheduled messages yet'
        }
        search={{
          label: kind === 'automation' ? 'Search triggers' : 'Search schedules',
          width: 320,
        }}
        countLabel={(n) =>
          kind === 'automation' ? `${n} trigger${n === 1 ? '' : 's'}` : `${n} schedule${n === 1 ? '' : 's'}`
        }
        minWidth={kind === 'automation' ? 900 : 1040}
        highlightOnHover
        verticalSpacing="sm"
      />
      <ConfirmDeleteModal
        opened={asked !== null}
        title={`Delete ${noun}?`}
        what={asked ? `The ${noun} "${asked.trigger_name}" will be deleted.` : ''}
        consequences={asked ? actionDeleteConsequences(asked) : []}
        confirmLabel={`Delete ${noun}`}
        busy={deleting}
        onConfirm={confirmDelete}
        onCancel={() => setAsked(null)}
      />
    </>
  );
}
