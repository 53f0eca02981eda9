import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  notificationsListResponse,
  notificationsUnreadResponse,
  type Notification,
} from '@flywheel/shared/notifications';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedSession } from '../../testing/session-fixtures.ts';
import { NotificationsMenu, whenText } from './NotificationsMenu.tsx';

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();

const ROWS: Notification[] = [
  {
    id: 3,
    team_id: 'T001',
    workspace_name: 'Acme Community',
    kind: 'send.finished',
    text: 'Sent, 1 of 12 failed: <b>Launch</b> news',
    tone: 'warning',
    count: 1,
    link: '/dashboard/receipts?receipt=41',
    at: minutesAgo(2),
    read: false,
  },
  {
    id: 2,
    team_id: 'T001',
    workspace_name: 'Acme Community',
    kind: 'form.responses',
    text: '3 new responses to Weekly check-in',
    tone: 'info',
    count: 3,
    link: '/dashboard/actions/form-instances/1/2/responses?name=Weekly%20check-in',
    at: minutesAgo(90),
    read: true,
  },
];

const routes = [
  { path: '/dashboard/home', element: <NotificationsMenu startAfterMs={0} /> },
  { path: '/dashboard/receipts', element: <p>Receipts page</p> },
];

describe('the notifications bell', () => {
  it('shows the unread count on the bell, the list with unread ones marked, and opens one (marking it read)', async () => {
    seedSession();
    let unread = 1;
    const api = mockApi({
      'GET /notifications/unread': () => reply(notificationsUnreadResponse, { unread }),
      'GET /notifications': reply(notificationsListResponse, { data: ROWS, next_cursor: null, unread: 1 }),
      'POST /notifications/3/read': () => {
        unread = 0;
        return reply(notificationsUnreadResponse, { unread: 0 });
      },
    });
    const { user, location } = renderApp('/dashboard/home', { routes });
    const bell = await screen.findByRole('button', { name: 'Notifications, 1 unread' });
    await user.click(bell);
    const menu = await screen.findByRole('dialog', { name: 'Notifications' });
    const items = await within(menu).findAllByRole('link');
    expect(items.map((i) => i.textContent)).toEqual([
      'Unread: Sent, 1 of 12 failed: <b>Launch</b> newsAcme Community · 2 min ago',
      '3 new responses to Weekly check-inAcme Community · 1 h ago',
    ]);
    // User content is text, never HTML.
    expect(menu.querySelector('b')).toBeNull();
    expect(items[0]).toHaveAttribute('href', '/dashboard/receipts?receipt=41');
    expect(api.callsTo('GET', '/notifications')[0]?.query.get('limit')).toBe('20');

    await user.click(items[0]!);
    await waitFor(() => expect(location().pathname).toBe('/dashboard/receipts'));
    expect(location().search).toBe('?receipt=41');
    expect(api.callsTo('POST', '/notifications/3/read')).toHaveLength(1);
    expect(await screen.findByText('Receipts page')).toBeInTheDocument();
  });

  it('"Mark all as read" clears the count and the marks', async () => {
    seedSession();
    const api = mockApi({
      'GET /notifications/unread': reply(notificationsUnreadResponse, { unread: 1 }),
      'GET /notifications': reply(notificationsListResponse, { data: ROWS, next_cursor: null, unread: 1 }),
      'POST /notifications/readall': reply(notificationsUnreadResponse, { unread: 0 }),
    });
    const { user } = renderApp('/dashboard/home', { routes });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 1 unread' }));
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('button', { name: 'Notifications, 0 unread' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/notifications/readall')).toHaveLength(1);
    expect(screen.queryByText(/^Unread:/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('says "No notifications yet." when there are none', async () => {
    seedSession();
    mockApi({
      'GET /notifications/unread': reply(notificationsUnreadResponse, { unread: 0 }),
      'GET /notifications': reply(notificationsListResponse, { data: [], next_cursor: null, unread: 0 }),
    });
    const { user } = renderApp('/dashboard/home', { routes });
    await user.click(await screen.findByRole('button', { name: 'Notifications, 0 unread' }));
    expect(await screen.findByText('No notifications yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).toBeNull();
  });

  it('tells the time shortly', () => {
    const now = Date.parse('2026-11-16T12:00:00Z');
    expect(whenText('2026-11-16T11:59:40Z', now)).toBe('Just now');
    expect(whenText('2026-11-16T11:15:00Z', now)).toBe('45 min ago');
    expect(whenText('2026-11-16T07:00:00Z', now)).toBe('5 h ago');
    expect(whenText('2026-11-15T10:00:00Z', now)).toBe('Yesterday');
    expect(whenText('2026-11-01T10:00:00Z', now)).toBe('1 Nov');
  });
});
