import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { NOTIFICATIONS_MENU_SIZE, type NotificationsListResponse } from '@flywheel/shared/notifications';
import {
  listNotifications,
  markAllNotificationsRead,
  markNotificationRead,
  unreadNotifications,
} from '@flywheel/shared/endpoints/notifications';
import { callEndpoint } from '../../lib/endpoint-client.ts';

/** The signed-in person's notifications (across their workspaces): the unread count and the menu's list. */
export const notificationsKey = ['notifications'] as const;
const unreadKey = [...notificationsKey, 'unread'] as const;
const listKey = [...notificationsKey, 'list'] as const;

/** The bell's count is asked for again this often (and when the window regains focus). */
export const NOTIFICATIONS_POLL_MS = 60_000;

export const unreadQuery = () =>
  queryOptions({
    queryKey: unreadKey,
    queryFn: ({ signal }) => callEndpoint(unreadNotifications, {}, { signal }).then((r) => r.unread),
  });

/** GET /notifications/unread, every minute and on window focus, once `enabled`. */
export function useUnreadCount(enabled: boolean) {
  return useQuery({
    ...unreadQuery(),
    enabled,
    refetchInterval: NOTIFICATIONS_POLL_MS,
    refetchOnWindowFocus: true,
  });
}

/** GET /notifications: the newest 20, while the menu is open (asked again each time it opens). */
export function useNotificationsList(open: boolean) {
  return useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) =>
      callEndpoint(listNotifications, { query: { limit: NOTIFICATIONS_MENU_SIZE } }, { signal }),
    enabled: open,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

/** Marks one read (on open) or all read; the count and the list follow the server's answer. */
export function useMarkRead() {
  const qc = useQueryClient();
  const settle = (unread: number, readIds: number[] | 'all') => {
    qc.setQueryData(unreadKey, unread);
    qc.setQueryData<NotificationsListResponse>(listKey, (old) =>
      old
        ? {
            ...old,
            unread,
            data: old.data.map((n) =>
              readIds === 'all' || readIds.includes(n.id) ? { ...n, read: true } : n,
            ),
          }
        : old,
    );
  };
  const one = useMutation({
    mutationFn: (id: number) => callEndpoint(markNotificationRead, { params: { id } }),
    onSuccess: (r, id) => settle(r.unread, [id]),
  });
  const all = useMutation({
    mutationFn: () => callEndpoint(markAllNotificationsRead, {}),
    onSuccess: (r) => settle(r.unread, 'all'),
  });
  return { one, all };
}
