import { useEffect, useId, useState } from 'react';
import {
  ActionIcon,
  Box,
  Button,
  Divider,
  Group,
  Loader,
  Popover,
  ScrollArea,
  Stack,
  Text,
  ThemeIcon,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconBell,
  IconBellOff,
  IconChartBar,
  IconDatabaseImport,
  IconForms,
  IconPlugConnectedX,
  IconRoute,
  IconSend,
} from '@tabler/icons-react';
import { useIsFetching } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import {
  bellLabel,
  NOTIFICATIONS_EMPTY_TEXT,
  type Notification,
  type NotificationKind,
} from '@flywheel/shared/notifications';
import { errorMessage } from '../../lib/api-client.ts';
import { formatDateTime, formatDayMonth } from '../../lib/format-date.ts';
import { currentWorkspace, setCurrentWorkspace, useSession } from '../../lib/session.ts';
import { useMarkRead, useNotificationsList, useUnreadCount } from './api.ts';
import classes from './NotificationsMenu.module.css';

const TONE_COLOR: Record<Notification['tone'], string> = {
  info: 'blue',
  success: 'teal',
  warning: 'orange',
  error: 'red',
};

const KIND_ICON: Record<NotificationKind, typeof IconSend> = {
  'send.finished': IconSend,
  'form.responses': IconForms,
  'poll.closed': IconChartBar,
  'workflow.step_failed': IconRoute,
  'import.finished': IconDatabaseImport,
  'workspace.disconnected': IconPlugConnectedX,
};

/** '2 min ago', '3 h ago', 'Yesterday', '16 Nov'. */
export function whenText(at: string, now = Date.now()): string {
  const ms = now - Date.parse(at);
  if (!Number.isFinite(ms)) return '';
  const min = Math.floor(ms / 60_000);
  if (min < 1) return 'Just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 24) return `${h} h ago`;
  return h < 48 ? 'Yesterday' : formatDayMonth(at);
}

/**
 * The count waits until the page's own first data is in (it is not part of the first render, and the cold start
 * asks for nothing else: app/warm-start.ts), then follows every minute and on window focus.
 */
function useStartWhenIdle(delayMs: number): boolean {
  const busy = useIsFetching();
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready || busy > 0) return;
    const t = setTimeout(() => setReady(true), delayMs);
    return () => clearTimeout(t);
  }, [busy, ready, delayMs]);
  return ready;
}

function Item({ n, onOpen }: { n: Notification; onOpen(n: Notification): void }) {
  const Icon = KIND_ICON[n.kind];
  return (
    <li>
      <UnstyledButton
        component="a"
        href={n.link}
        className={classes.item}
        data-unread={n.read ? undefined : true}
        onClick={(e: React.MouseEvent) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          onOpen(n);
        }}
      >
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <ThemeIcon variant="light" color={TONE_COLOR[n.tone]} radius="xl" size={32} aria-hidden>
            <Icon size={18} />
          </ThemeIcon>
          <Box style={{ flex: 1, minWidth: 0 }}>
            {n.read ? null : <VisuallyHidden>Unread: </VisuallyHidden>}
            <Text
              fz="sm"
              fw={n.read ? 400 : 600}
              lh={1.35}
              lineClamp={2}
              style={{ overflowWrap: 'anywhere' }}
            >
              {n.text}
            </Text>
            <Text fz="xs" c="dimmed" mt={2} truncate>
              {n.workspace_name} ·{' '}
              <time dateTime={n.at} title={formatDateTime(n.at)}>
                {whenText(n.at)}
              </time>
            </Text>
          </Box>
          {n.read ? null : <Box className={classes.dot} aria-hidden />}
        </Group>
      </UnstyledButton>
    </li>
  );
}

/**
 * The top bar's bell: the unread count on it, and a panel (a dialog) with the newest 20 notifications (unread ones marked),
 * each opening its page and marking it read, and 'Mark all as read'. A notification of another workspace
 * switches to it first (the page reloads, as picking it in the workspace menu does).
 */
export function NotificationsMenu({ startAfterMs = 300 }: { startAfterMs?: number }) {
  const [open, setOpen] = useState(false);
  const started = useStartWhenIdle(startAfterMs);
  const session = useSession();
  // Someone who administers no workspace yet has nothing to be told.
  const unread = useUnreadCount(started && (session?.workspace.length ?? 0) > 0).data ?? 0;
  const list = useNotificationsList(open);
  const mark = useMarkRead();
  const navigate = useNavigate();
  const current = currentWorkspace(session)?.team_id;
  const items = list.data?.data ?? [];
  const headingId = useId();

  const openOne = (n: Notification) => {
    setOpen(false);
    const go = () => {
      if (n.team_id !== current) {
        setCurrentWorkspace(n.team_id);
        window.location.assign(n.link);
      } else void navigate(n.link);
    };
    if (n.read) return go();
    // Marked read before leaving (a reload would cancel the call); the page opens whatever the answer.
    mark.one
      .mutateAsync(n.id)
      .catch(() => {})
      .finally(go);
  };

  return (
    <Popover
      opened={open}
      onChange={setOpen}
      position="bottom-end"
      width={384}
      shadow="lg"
      radius="md"
      withinPortal
      trapFocus
      returnFocus
    >
      <Popover.Target>
        <ActionIcon
          variant="default"
          size={36}
          radius="md"
          aria-label={bellLabel(unread)}
          className={classes.bell}
          // A controlled Popover leaves the target's click to us.
          onClick={() => setOpen((o) => !o)}
        >
          <IconBell size={18} />
          {unread > 0 ? (
            <span className={classes.badge} aria-hidden>
              {unread > 99 ? '99+' : unread}
            </span>
          ) : null}
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0} aria-labelledby={headingId}>
        <Group justify="space-between" px="md" py={10} wrap="nowrap">
          <Text fw={600} fz="sm" component="h2" m={0} id={headingId}>
            Notifications
          </Text>
          {items.some((n) => !n.read) ? (
            <Button
              variant="subtle"
              size="compact-xs"
              loading={mark.all.isPending}
              onClick={() => mark.all.mutate()}
            >
              Mark all as read
            </Button>
          ) : null}
        </Group>
        <Divider />
        {list.isPending ? (
          <Group justify="center" py="lg">
            <Loader size="sm" aria-label="Loading notifications" />
          </Group>
        ) : list.error ? (
          <Text fz="sm" c="red" px="md" py="md">
            {errorMessage(list.error)}
          </Text>
        ) : items.length === 0 ? (
          <Stack align="center" gap={6} py="xl" px="sm">
            <ThemeIcon variant="light" color="gray" radius="xl" size={40} aria-hidden>
              <IconBellOff size={20} />
            </ThemeIcon>
            <Text fz="sm" fw={500}>
              You&apos;re all caught up
            </Text>
            <Text fz="xs" c="dimmed" ta="center">
              {NOTIFICATIONS_EMPTY_TEXT}
            </Text>
          </Stack>
        ) : (
          <ScrollArea.Autosize mah={440} type="auto">
            <ul className={classes.list} aria-label="Latest notifications">
              {items.map((n) => (
                <Item key={n.id} n={n} onOpen={openOne} />
              ))}
            </ul>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
