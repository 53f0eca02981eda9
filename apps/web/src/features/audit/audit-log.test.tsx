import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditListResponse, type AuditEvent } from '@flywheel/shared/audit';
import { formatDateTime } from '../../lib/format-date.ts';
import { reply } from '../../testing/fixture.ts';
import { captureDownloads } from '../../testing/downloads.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { AUDIT_CSV_NAME } from './api.ts';
import { AUDIT_EMPTY, AUDIT_RANGE_ORDER } from './components/AuditLogPanel.tsx';

const me = { body: { ...loginResponse(), token: undefined } };

const event = (id: number, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  id,
  at: `2026-11-${String(10 + id).padStart(2, '0')}T10:00:00.000Z`,
  actor_kind: 'user',
  actor_user_id: 'u-ada',
  actor_email: 'ada@example.com',
  actor_label: null,
  action: 'send.message',
  method: 'POST',
  route: '/api/v0/quickaction/sendmessage',
  objects: { receipt_id: 40 + id },
  status: 202,
  summary: `Sent a message · receipt_id ${40 + id}`,
  ...extra,
});

const EVENTS = [
  event(3, { action: 'tag.add', summary: 'Added tags to members', objects: { users_count: 3 }, status: 200 }),
  event(2, {
    actor_kind: 'api_key',
    actor_user_id: 'u-bob',
    actor_email: 'bob@example.com',
    actor_label: 'Zapier',
    summary: 'Sent a message · “<img src=x onerror=alert(1)> *bold*”',
  }),
  event(1, { action: 'auth.login', summary: 'Signed in', objects: {}, status: 200 }),
];

const page = (data: AuditEvent[], total = data.length) =>
  reply(auditListResponse, {
    data,
    total,
    page: 1,
    page_size: 50,
    people: [
      { user_id: 'u-ada', email: 'ada@example.com' },
      { user_id: 'u-bob', email: 'bob@example.com' },
    ],
    kinds: ['auth.login', 'send.message', 'tag.add'],
  });

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /audit/T001/events': page(EVENTS, 120),
    ...extra,
  });
}

const open = async () => {
  const r = renderApp('/dashboard/settings/audit-log');
  const table = await screen.findByRole('table', { name: 'Audit log' }, { timeout: 8000 });
  await within(table).findByText('Added tags to members');
  return { ...r, table };
};

afterEach(() => vi.unstubAllGlobals());

describe('Audit log page', () => {
  it('shows who did what and when, newest first, as plain text', async () => {
    setup();
    const { table } = await open();
    expect(screen.getByRole('heading', { name: 'Audit log' })).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time', 'Person', 'Action', 'Summary', 'Objects', 'Status']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.getAttribute('data-action'))).toEqual(['tag.add', 'send.message', 'auth.login']);
    const cells = within(rows[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual([
      formatDateTime('2026-11-13T10:00:00.000Z'),
      'ada@example.com',
      'tag.add',
      'Added tags to members',
      'users_count=3',
      '200',
    ]);
    // An API key's call names the key; markup in a summary stays text.
    expect(within(rows[1]!).getByText('API key: Zapier')).toBeInTheDocument();
    expect(
      within(rows[1]!).getByText('Sent a message · “<img src=x onerror=alert(1)> *bold*”'),
    ).toBeInTheDocument();
    expect(table.querySelector('img')).toBeNull();
    expect(table.querySelector('b, strong')).toBeNull();
  });

  it('filters by person, kind and dates, and pages; each change asks the server again from page 1', async () => {
    const api = setup();
    const { user } = await open();
    const last = () => api.callsTo('GET', '/audit/T001/events').at(-1)!.query;

    await user.click(screen.getByRole('combobox', { name: 'Person' }));
    await user.click(await screen.findByRole('option', { name: 'bob@example.com' }));
    await waitFor(() => expect(last().get('actor')).toBe('u-bob'));

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'tag.add' }));
    await waitFor(() => expect(last().get('kind')).toBe('tag.add'));

    await user.type(screen.getByLabelText('From'), '2026-11-01');
    await user.type(screen.getByLabelText('To'), '2026-11-20');
    await waitFor(() => expect(last().get('to')).toBe('2026-11-20'));
    expect(last().get('from')).toBe('2026-11-01');
    expect(last().get('page')).toBe('1');

    const pager = screen.getByRole('navigation', { name: 'Audit log pages' });
    await user.click(within(pager).getByRole('button', { name: '2' }));
    await waitFor(() => expect(last().get('page')).toBe('2'));
    expect(last().get('actor')).toBe('u-bob');
  });

  it('a start after the end is shown and not sent', async () => {
    const api = setup();
    const { user } = await open();
    await user.type(screen.getByLabelText('From'), '2026-11-20');
    await user.type(screen.getByLabelText('To'), '2026-11-01');
    expect(await screen.findByText(AUDIT_RANGE_ORDER)).toBeInTheDocument();
    const calls = api.callsTo('GET', '/audit/T001/events');
    expect(calls.filter((c) => c.query.get('to'))).toEqual([]);
  });

  it('says when nothing is recorded', async () => {
    setup({ 'GET /audit/T001/events': page([]) });
    renderApp('/dashboard/settings/audit-log');
    expect(await screen.findByText(AUDIT_EMPTY, {}, { timeout: 8000 })).toBeInTheDocument();
  });

  it('downloads the filtered log as CSV from the server', async () => {
    const api = setup({ 'GET /audit/T001/events.csv': { body: '"Time (UTC)"' } });
    const dl = captureDownloads();
    const { user } = await open();
    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(await screen.findByRole('option', { name: 'send.message' }));
    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(dl.saved.map((f) => f.name)).toEqual([AUDIT_CSV_NAME]));
    const [call] = api.callsTo('GET', '/audit/T001/events.csv');
    expect(call!.query.get('kind')).toBe('send.message');
    expect(call!.headers.authorization).toMatch(/^Bearer /);
  });
});
