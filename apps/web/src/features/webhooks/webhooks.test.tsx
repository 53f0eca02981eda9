import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageResponse } from '@flywheel/shared/http';
import {
  webhookCreatedResponse,
  webhookDeliveriesResponse,
  webhookDeliveryResponse,
  webhookResponse,
  webhooksListResponse,
  type WebhookDelivery,
  type WebhookSubscription,
} from '@flywheel/shared/webhooks';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

const me = { body: { ...loginResponse(), token: undefined } };

const sub = (id: number, extra: Partial<WebhookSubscription> = {}): WebhookSubscription => ({
  id,
  url: `https://hooks.example.com/${id}`,
  events: ['member.joined', 'form.response'],
  enabled: true,
  created_at: '2026-11-20T10:00:00.000Z',
  pending: 0,
  failed_recently: 0,
  ...extra,
});

const delivery = (id: number, extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id,
  event_id: `evt_${id}`,
  type: 'member.joined',
  status: 'delivered',
  attempts: 1,
  response_code: 200,
  last_error: null,
  duration_ms: 42,
  replay_of: null,
  created_at: '2026-11-26T10:00:00.000Z',
  last_attempt_at: '2026-11-26T10:00:01.000Z',
  next_attempt_at: null,
  finished_at: '2026-11-26T10:00:01.000Z',
  ...extra,
});

function setup(list: WebhookSubscription[], extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /webhooks/T001': reply(webhooksListResponse, { data: list }),
    ...extra,
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('Webhooks panel (/dashboard/settings/webhooks)', () => {
  it('lists subscriptions, newest first, with their events, status and queue', async () => {
    setup([sub(2, { enabled: false, failed_recently: 3, pending: 4 }), sub(1)]);
    renderApp('/dashboard/settings/webhooks');
    expect(await screen.findByRole('heading', { name: 'Webhooks' }, { timeout: 8000 })).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Webhooks' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual([
      'https://hooks.example.com/2',
      'https://hooks.example.com/1',
    ]);
    expect(within(rows[0]!).getByText('Paused')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('4 pending, 3 failed today')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Active')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('member.joined, form.response')).toBeInTheDocument();
  });

  it('create: URL and event checkboxes are sent; the secret is shown once with a copy button', async () => {
    const api = setup([], {
      'POST /webhooks/createwebhook': reply(
        webhookCreatedResponse,
        { message: 'ok', data: { ...sub(7), secret: 'whsec_shown_once' } },
        { status: 201 },
      ),
    });
    renderApp('/dashboard/settings/webhooks');
    const user = userEvent.setup();
    expect(await screen.findByText(/No webhooks yet/, {}, { timeout: 8000 })).toBeInTheDocument();
    // Nothing chosen: the fields say what is missing, and nothing is sent.
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    expect(await screen.findByText('url is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/Target URL/), 'https://hooks.example.com/7');
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    expect(await screen.findByText('events must name at least one event type')).toBeInTheDocument();
    expect(api.callsTo('POST', '/webhooks/createwebhook')).toHaveLength(0);
    await user.click(screen.getByRole('checkbox', { name: /^member\.joined/ }));
    await user.click(screen.getByRole('checkbox', { name: /^poll\.closed/ }));
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Signing secret' });
    expect(within(dialog).getByTestId('webhook-secret')).toHaveTextContent('whsec_shown_once');
    expect(within(dialog).getByRole('button', { name: 'Copy secret' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/webhooks/createwebhook')[0]!.body).toEqual({
      team_id: 'T001',
      url: 'https://hooks.example.com/7',
      events: ['member.joined', 'poll.closed'],
    });
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByText('whsec_shown_once')).not.toBeInTheDocument());
  });

  it("a refused URL shows the server's 400 at the field", async () => {
    setup([], {
      'POST /webhooks/createwebhook': {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_ERROR', message: 'url must be https' },
      },
    });
    renderApp('/dashboard/settings/webhooks');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText(/Target URL/, {}, { timeout: 8000 }), 'http://x.example');
    await user.click(screen.getByRole('checkbox', { name: /^send\.finished/ }));
    await user.click(screen.getByRole('button', { name: 'Create webhook' }));
    expect(await screen.findByText('url must be https')).toBeInTheDocument();
  });

  it('pause, then delete after confirming', async () => {
    const api = setup([sub(3)], {
      'PATCH /webhooks/T001/3': reply(webhookResponse, { message: 'ok', data: sub(3, { enabled: false }) }),
      'DELETE /webhooks/T001/3': reply(messageResponse, { message: 'Webhook deleted' }),
    });
    renderApp('/dashboard/settings/webhooks');
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole('button', { name: 'Pause https://hooks.example.com/3' }, { timeout: 8000 }),
    );
    await waitFor(() => expect(api.callsTo('PATCH', '/webhooks/T001/3')).toHaveLength(1));
    expect(api.callsTo('PATCH', '/webhooks/T001/3')[0]!.body).toEqual({ enabled: false });
    await user.click(screen.getByRole('button', { name: 'Delete https://hooks.example.com/3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete webhook' });
    expect(api.callsTo('DELETE', '/webhooks/T001/3')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/webhooks/T001/3')).toHaveLength(1));
  });

  it('the delivery log shows status, attempts, answer and error as text; Replay queues one again', async () => {
    const api = setup([sub(4)], {
      'GET /webhooks/T001/4/deliveries': reply(webhookDeliveriesResponse, {
        data: [
          delivery(12, {
            status: 'failed',
            attempts: 30,
            response_code: 500,
            last_error: '<b>HTTP 500</b>',
            finished_at: '2026-11-27T10:00:00.000Z',
          }),
          delivery(11),
        ],
      }),
      'POST /webhooks/T001/4/deliveries/12/replay': reply(
        webhookDeliveryResponse,
        { message: 'ok', data: delivery(13, { status: 'pending', attempts: 0, replay_of: 12 }) },
        { status: 201 },
      ),
    });
    renderApp('/dashboard/settings/webhooks');
    const user = userEvent.setup();
    await user.click(
      await screen.findByRole(
        'button',
        { name: 'Deliveries of https://hooks.example.com/4' },
        { timeout: 8000 },
      ),
    );
    const log = await screen.findByRole('table', { name: 'Deliveries of https://hooks.example.com/4' });
    await waitFor(() => expect(within(log).getAllByRole('row')).toHaveLength(3));
    const failed = within(log).getAllByRole('row')[1]!;
    expect(within(failed).getByText('failed')).toBeInTheDocument();
    expect(within(failed).getByText('30')).toBeInTheDocument();
    expect(within(failed).getByText('500')).toBeInTheDocument();
    // The receiver's error is text, never markup.
    expect(within(failed).getByText('<b>HTTP 500</b>')).toBeInTheDocument();
    await user.click(within(failed).getByRole('button', { name: 'Replay delivery 12' }));
    await waitFor(() => expect(api.callsTo('POST', '/webhooks/T001/4/deliveries/12/replay')).toHaveLength(1));
    expect(await screen.findByText('Delivery queued again')).toBeInTheDocument();
  });
});
