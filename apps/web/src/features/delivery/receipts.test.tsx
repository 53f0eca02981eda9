import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  DELIVERY_TEXTS,
  dmRepliesResponse,
  receiptsResponse,
  retryBody,
  retryResponse,
  type Receipt,
} from '@flywheel/shared/delivery';
import { reply } from '../../testing/fixture.ts';
import { captureDownloads } from '../../testing/downloads.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { formatDateTime } from '../../lib/format-date.ts';
import { NO_RECEIPTS, NOT_RETRYABLE } from './ReceiptsPage.tsx';

const me = { body: { ...loginResponse(), token: undefined } };

const receipt = (id: number, extra: Partial<Receipt>): Receipt => ({
  id,
  action_type: 'Send Message',
  description: `Receipt ${id}`,
  sender: 'bot' as const,
  created_at: `2026-11-${String(10 + id).padStart(2, '0')}T10:00:00.000Z`,
  total_recipient_count: 3,
  successful_recipient_count: 3,
  failed_recipient_count: 0,
  retryable_recipient_count: 0,
  error: null,
  reply_count: 0,
  ...extra,
});

const RECEIPTS = reply(receiptsResponse, {
  data: [
    receipt(10, { description: 'Welcome DM' }),
    receipt(12, {
      action_type: 'Bulk DM',
      description: 'Spring update',
      total_recipient_count: 5,
      successful_recipient_count: 3,
      failed_recipient_count: 2,
      retryable_recipient_count: 2,
    }),
    receipt(11, {
      description: 'Still running',
      total_recipient_count: 4,
      successful_recipient_count: 1,
      failed_recipient_count: 0,
    }),
    receipt(9, {
      description: 'Gone for good',
      total_recipient_count: 2,
      successful_recipient_count: 0,
      failed_recipient_count: 2,
      retryable_recipient_count: 0,
    }),
  ],
});

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /receipts/getallreceipts/T001': RECEIPTS,
    ...extra,
  });
}

const rowOf = (table: HTMLElement, description: string) =>
  within(table).getByText(description).closest('tr')!;
const cells = (row: HTMLElement) =>
  within(row)
    .getAllByRole('cell')
    .map((c) => c.textContent);

afterEach(() => vi.unstubAllGlobals());

describe('Receipts page', () => {
  it('shows the columns, newest first, counts and status from the shared receipt fixture', async () => {
    setup();
    renderApp('/dashboard/receipts');
    const table = await screen.findByRole('table', { name: 'Receipts Data' }, { timeout: 8000 });
    await within(table).findByText('Spring update');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual([
      'Action Type',
      'Description',
      'Total Recipients',
      'Success Count',
      'Failed Count',
      'Status',
      'Replies',
      'Sent',
      'Retry',
    ]);
    const order = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    expect(order).toEqual(['Spring update', 'Still running', 'Welcome DM', 'Gone for good']);
    expect(cells(rowOf(table, 'Spring update')).slice(0, 6)).toEqual([
      'Bulk DM',
      'Spring update',
      '5',
      '3',
      '2',
      'Processed',
    ]);
    const running = rowOf(table, 'Still running');
    expect(within(running).getByText('25% Processed')).toBeInTheDocument();
    expect(within(running).getByRole('progressbar', { name: 'Receipt 11 progress' })).toBeInTheDocument();
    // Retry only when Processed with failures.
    expect(within(running).queryByRole('button', { name: /Retry/ })).toBeNull();
    expect(within(rowOf(table, 'Welcome DM')).queryByRole('button', { name: /Retry/ })).toBeNull();
  });

  it("'Sent' shows each receipt's date and time and sorts by it", async () => {
    setup();
    const { user } = renderApp('/dashboard/receipts');
    const table = await screen.findByRole('table', { name: 'Receipts Data' }, { timeout: 8000 });
    await within(table).findByText('Spring update');
    expect(
      within(rowOf(table, 'Spring update')).getByText(formatDateTime('2026-11-22T10:00:00.000Z')),
    ).toBeInTheDocument();
    expect(within(table).getByRole('columnheader', { name: 'Sent' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    const order = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => within(r).getAllByRole('cell')[1]!.textContent);
    await user.click(within(table).getByRole('button', { name: 'Sent' }));
    expect(order()).toEqual(['Gone for good', 'Welcome DM', 'Still running', 'Spring update']);
  });

  it('a scheduled send the daily budget refused reads "Not sent" with why', async () => {
    const why = "Not sent: this needs 493 messages but the workspace's daily budget has 12 of 1,479 left";
    setup({
      'GET /receipts/getallreceipts/T001': reply(receiptsResponse, {
        data: [
          receipt(20, {
            action_type: 'Scheduled Message',
            description: 'Weekly digest',
            total_recipient_count: 0,
            successful_recipient_count: 0,
            error: why,
          }),
        ],
      }),
    });
    renderApp('/dashboard/receipts');
    const table = await screen.findByRole('table', { name: 'Receipts Data' }, { timeout: 8000 });
    const row = await within(table).findByText('Weekly digest');
    const tr = row.closest('tr')!;
    expect(within(tr).getByText('Not sent')).toHaveAttribute('aria-label', `Not sent: ${why}`);
    expect(within(tr).queryByText('Processed')).toBeNull();
  });

  it('a download icon only for non-zero counts; it fetches that CSV through the API client', async () => {
    const api = setup({
      'GET /receipts/exportrecipients/T001/12/failed': { body: 'RecipientName' },
    });
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/receipts');
    const table = await screen.findByRole('table', { name: 'Receipts Data' }, { timeout: 8000 });
    await within(table).findByText('Spring update');
    const names = (description: string) =>
      within(rowOf(table, description))
        .queryAllByRole('button', { name: /^Download/ })
        .map((b) => b.getAttribute('aria-label'));
    expect(names('Spring update')).toEqual([
      'Download total recipients of receipt 12',
      'Download successful recipients of receipt 12',
      'Download failed recipients of receipt 12',
    ]);
    expect(names('Welcome DM')).toEqual([
      'Download total recipients of receipt 10',
      'Download successful recipients of receipt 10',
    ]);
    expect(names('Gone for good')).toEqual([
      'Download total recipients of receipt 9',
      'Download failed recipients of receipt 9',
    ]);
    await user.click(screen.getByRole('button', { name: 'Download failed recipients of receipt 12' }));
    await waitFor(() => expect(dl.saved.map((f) => f.name)).toEqual(['Failed Recipients 12.csv']));
    const [call] = api.callsTo('GET', '/receipts/exportrecipients/T001/12/failed');
    expect(call!.headers.authorization).toMatch(/^Bearer /);
  });

  it("Retry posts {team_id, id}, toasts 'Action initiated' and reads the receipts again", async () => {
    const api = setup({
      'POST /receipts/retry': reply(retryResponse, {
        message: DELIVERY_TEXTS.actionInitiated,
        data: { requeued: 2 },
      }),
    });
    const { user } = renderApp('/dashboard/receipts');
    const table = await screen.findByRole('table', { name: 'Receipts Data' }, { timeout: 8000 });
    await within(table).findByText('Spring update');
    const before = api.callsTo('GET', '/receipts/getallreceipts/T001').length;
    await user.click(within(rowOf(table, 'Spring update')).getByRole('button', { name: 'Retry receipt 12' }));
    expect(await screen.findByText(DELIVERY_TEXTS.actionInitiated)).toBeInTheDocument();
    const [call] = api.callsTo('POST', '/receipts/retry');
    expect(retryBody.parse(call!.body)).toEqual({ team_id: 'T001', id: 12 });
    await waitFor(() =>
      expect(api.callsTo('GET', '/receipts/getallreceipts/T001').length).toBeGreaterThan(before),
    );
  });

  it('failures that cannot be retried: Retry is disabled and says why', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/receipts');
    const table = await screen.findByRole('table', { name: 'Receipts Data' }, { timeout: 8000 });
    await within(table).findByText('Gone for good');
    const retry = await within(rowOf(table, 'Gone for good')).findByRole('button', {
      name: 'Retry receipt 9',
    });
    expect(retry).toBeDisabled();
    await user.hover(retry.parentElement!);
    expect(await screen.findByText(NOT_RETRYABLE)).toBeInTheDocument();
    expect(api.callsTo('POST', '/receipts/retry')).toEqual([]);
  });

  it('no receipts: the empty text', async () => {
    setup({ 'GET /receipts/getallreceipts/T001': reply(receiptsResponse, { data: [] }) });
    renderApp('/dashboard/receipts');
    expect(await screen.findByText(NO_RECEIPTS, {}, { timeout: 8000 })).toBeInTheDocument();
  });

  it('Replies: the count, and a dialog listing what members wrote back, as text, newest first', async () => {
    let answers = 0;
    const api = setup({
      'GET /receipts/getallreceipts/T001': reply(receiptsResponse, {
        data: [
          receipt(30, { action_type: 'Bulk DM', description: 'Welcome aboard', reply_count: 2 }),
          receipt(31, {}),
        ],
      }),
      'GET /receipts/getreplies/T001': (_body, { url }) => {
        answers++;
        expect(new URL(url, 'http://localhost').searchParams.get('receipt_id')).toBe('30');
        return reply(dmRepliesResponse, {
          data: [
            {
              id: 2,
              receipt_id: 30,
              receipt_description: 'Welcome aboard',
              action_type: 'Bulk DM',
              member_id: 'U002',
              member_name: 'Grace Hopper',
              text: '<img src=x onerror=alert(1)> thanks!',
              files: 1,
              ts: '1700000100.000200',
              channel_id: 'D002',
              in_thread: true,
              sent_at: '2026-11-20T10:05:00.000Z',
              edited: true,
            },
            {
              id: 1,
              receipt_id: 30,
              receipt_description: 'Welcome aboard',
              action_type: 'Bulk DM',
              member_id: 'U001',
              member_name: 'Ada Lovelace',
              text: 'Hi! Glad to be here',
              files: 0,
              ts: '1700000000.000100',
              channel_id: 'D001',
              in_thread: false,
              sent_at: '2026-11-20T10:00:00.000Z',
              edited: false,
            },
          ],
        });
      },
    });
    const { user } = renderApp('/dashboard/receipts');
    const table = await screen.findByRole('table', { name: 'Receipts Data' }, { timeout: 8000 });
    await within(table).findByText('Welcome aboard');
    expect(
      within(rowOf(table, 'Receipt 31')).queryByRole('button', { name: /replies? to receipt/ }),
    ).toBeNull();
    await user.click(within(table).getByRole('button', { name: '2 replies to receipt 30' }));
    const list = await screen.findByRole('list', { name: 'Replies to receipt 30' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.getAttribute('aria-label'))).toEqual([
      'Reply from Grace Hopper',
      'Reply from Ada Lovelace',
    ]);
    // User content is text: the markup shows as typed, nothing is rendered from it.
    expect(within(items[0]!).getByText(/<img src=x onerror=alert\(1\)> thanks!/)).toBeInTheDocument();
    expect(list.querySelector('img')).toBeNull();
    expect(within(items[0]!).getByText('in the thread')).toBeInTheDocument();
    expect(within(items[0]!).getByText('edited')).toBeInTheDocument();
    expect(within(items[0]!).getByText('1 file (in Slack)')).toBeInTheDocument();
    expect(within(items[1]!).getByRole('link', { name: 'Ada Lovelace' })).toHaveAttribute(
      'href',
      '/dashboard/members/U001',
    );
    expect(api.callsTo('GET', '/receipts/getreplies/T001')[0]!.headers.authorization).toMatch(/^Bearer /);
    expect(answers).toBeGreaterThanOrEqual(1);
  });
});
