import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../testing/editor-layout.ts';
import { messageResponse } from '@flywheel/shared/http';
import {
  createRecurringPollBody,
  pollInfoResponse,
  pollsResponse,
  RECURRING_POLL_TEXTS,
  recurringPollResponse,
  recurringPollsResponse,
  votersResponse,
  type RecurringPoll,
} from '@flywheel/shared/polls';
import { fixture, reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

afterEach(() => vi.unstubAllGlobals());

const me = { body: { ...loginResponse(), token: undefined } };

const instancePoll = {
  id: 41,
  created_by: 'Bot',
  expiry_ts: '2030-01-08T09:00:00.000Z',
  question: 'Standup or async?',
  htmlquestion: '',
  status: false,
  state: 'expired' as const,
  poll_options: [{ emoji: '👍', emoji_code: 'thumbsup', value: 'Standup', count: 3 }],
  total_votes: 3,
  sender: 'bot' as const,
  admin_user: null,
  type: 'scheduled' as const,
  post_at: '2030-01-07T09:00:00.000Z',
  images: [],
  channel_ids: ['C001'],
  channels: ['general'],
  receipt_id: 5,
  created_at: '2030-01-07T09:00:00.000Z',
  voting: 'emoji' as const,
  anonymous: false,
  multiple: false,
  max_choices: null,
  allow_add: false,
  results: 'live' as const,
  closed: true,
  voter_count: 3,
};

const recurring = (extra: Partial<RecurringPoll> = {}): RecurringPoll =>
  fixture(recurringPollResponse.shape.data, {
    id: 3,
    question: 'Standup or async?',
    htmlquestion: '<p>Standup or async?</p>',
    created_by: 'Bot',
    sender: 'bot',
    admin_user: null,
    channel_ids: ['C001'],
    channels: ['general'],
    options: [{ emoji: '👍', emoji_code: 'thumbsup', value: 'Standup' }],
    voting: 'emoji',
    anonymous: false,
    multiple: false,
    max_choices: null,
    allow_add: false,
    results: 'live',
    frequency: 'Weekly',
    days: ['mon'],
    time: '09:00',
    schedule: 'Weekly (mon) at 09:00',
    duration_hours: 24,
    next_run: '2030-01-14T09:00:00.000Z',
    instances: [{ poll_id: 41, post_at: '2030-01-07T09:00:00.000Z', state: 'expired', total_votes: 3 }],
    created_at: '2030-01-01T10:00:00.000Z',
    ...extra,
  });

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /poll/getpolls/T001': reply(pollsResponse, { data: [instancePoll] }),
    'GET /poll/getrecurringpolls/T001': reply(recurringPollsResponse, { data: [recurring()] }),
    'GET /poll/getpollinfo/41/T001': reply(pollInfoResponse, { data: instancePoll }),
    'GET /poll/memberpollinfo/41/T001': reply(votersResponse, { data: [] }),
    ...extra,
  });
}

describe('Polls tab: recurring polls', () => {
  it('lists each with its schedule, next run and the polls it posted; an instance opens its own details', async () => {
    setup();
    const { user } = renderApp('/dashboard/actions/polls');
    const table = await screen.findByRole('table', { name: 'Recurring Polls' }, { timeout: 8000 });
    const row = await within(table).findByText('Weekly (mon) at 09:00');
    expect(row).toBeInTheDocument();
    expect(within(table).getByText(/open 24 h · emoji reactions/)).toBeInTheDocument();
    // The next run in the workspace's timezone (Europe/Berlin in the fixtures).
    expect(within(table).getByText('Mon, 14 Jan 2030, 10:00')).toBeInTheDocument();
    await user.click(within(table).getByRole('button', { name: '1 polls posted by recurring poll 3' }));
    const posted = await screen.findByRole('dialog', { name: 'Polls posted: Standup or async?' });
    expect(within(posted).getByText('Expired')).toBeInTheDocument();
    await user.click(within(posted).getByRole('button', { name: 'Details of poll 41' }));
    expect(await screen.findByRole('dialog', { name: 'Poll Details' })).toBeInTheDocument();
  }, 30_000);

  it('delete asks first, then stops it: the row goes', async () => {
    let gone = false;
    const api = setup({
      'GET /poll/getrecurringpolls/T001': () =>
        reply(recurringPollsResponse, { data: gone ? [] : [recurring()] }),
      'DELETE /poll/deleterecurringpoll/3/T001': () => {
        gone = true;
        return reply(messageResponse, { message: RECURRING_POLL_TEXTS.deleted });
      },
    });
    const { user } = renderApp('/dashboard/actions/polls');
    const table = await screen.findByRole('table', { name: 'Recurring Polls' }, { timeout: 8000 });
    await user.click(within(table).getByRole('button', { name: 'Delete recurring poll 3' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete recurring poll?' });
    expect(dialog).toHaveTextContent('No more polls will be posted.');
    await user.click(within(dialog).getByRole('button', { name: 'Delete recurring poll' }));
    expect(await screen.findByText(RECURRING_POLL_TEXTS.deleted)).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/poll/deleterecurringpoll/3/T001')).toHaveLength(1);
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Recurring Polls' })).toBeNull());
  }, 30_000);

  it('the wizard offers Recurring: frequency, days and time, then the hours each poll stays open', async () => {
    const api = setup({
      'GET /poll/getrecurringpolls/T001': reply(recurringPollsResponse, { data: [] }),
      'POST /poll/createrecurringpoll': {
        status: 201,
        body: fixture(recurringPollResponse, { message: RECURRING_POLL_TEXTS.created, data: recurring() }),
      },
    });
    const { user } = renderApp('/dashboard/actions/polls');
    await screen.findByRole('table', { name: 'Poll Table' }, { timeout: 8000 });
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create Poll' });
    await user.click(within(dialog).getByLabelText('Channels', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '#general' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Bot' }));
    await user.click(within(dialog).getByText('Recurring'));
    const next = within(dialog).getByRole('button', { name: 'Next' });
    await user.click(next);
    expect(await within(dialog).findByText(RECURRING_POLL_TEXTS.schedule)).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Frequency', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Weekly' }));
    await user.click(within(dialog).getByText('Mon'));
    await user.type(within(dialog).getByLabelText(/^Time/), '09:00');
    await user.click(next);
    dialog = await screen.findByRole('dialog', { name: 'Poll Question and Options' });
    expect(within(dialog).queryByLabelText(/End time/)).toBeNull();
    await user.click(
      await within(dialog).findByRole('textbox', { name: 'Poll question' }, { timeout: 10_000 }),
    );
    await user.paste('Standup or async?');
    await user.click(within(dialog).getByRole('button', { name: 'Choose an emoji for option 1' }));
    await user.click(await screen.findByRole('button', { name: ':thumbsup:' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Option 1' }), 'Standup');
    const hours = within(dialog).getByLabelText(/Open for/);
    await user.clear(hours);
    await user.type(hours, '48');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.callsTo('POST', '/poll/createrecurringpoll')).toHaveLength(1));
    const body = createRecurringPollBody.parse(api.callsTo('POST', '/poll/createrecurringpoll')[0]!.body);
    expect(body).toMatchObject({
      team_id: 'T001',
      channel_ids: ['C001'],
      poll_question: 'Standup or async?',
      frequency: 'Weekly',
      days: ['mon'],
      time: '09:00',
      duration_hours: 48,
      options: [{ emoji: '👍', emoji_code: 'thumbsup', value: 'Standup' }],
    });
    expect(api.callsTo('POST', '/poll/createpoll')).toEqual([]);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  }, 40_000);

  it("a recurring poll keeps the wizard's Voting choice: buttons with their settings in the body", async () => {
    const api = setup({
      'GET /poll/getrecurringpolls/T001': reply(recurringPollsResponse, { data: [] }),
      'POST /poll/createrecurringpoll': {
        status: 201,
        body: fixture(recurringPollResponse, {
          message: RECURRING_POLL_TEXTS.created,
          data: recurring({ voting: 'buttons', anonymous: true, multiple: true }),
        }),
      },
    });
    const { user } = renderApp('/dashboard/actions/polls');
    await screen.findByRole('table', { name: 'Poll Table' }, { timeout: 8000 });
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create Poll' });
    await user.click(within(dialog).getByLabelText('Channels', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '#general' }));
    await user.click(within(dialog).getByRole('radio', { name: 'Bot' }));
    await user.click(within(dialog).getByText('Recurring'));
    await user.click(within(dialog).getByLabelText('Frequency', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: 'Every Day' }));
    await user.type(within(dialog).getByLabelText(/^Time/), '10:30');
    await user.click(within(dialog).getByText('Buttons'));
    await user.click(within(dialog).getByRole('switch', { name: /Anonymous/ }));
    await user.click(within(dialog).getByRole('switch', { name: /Multiple choice/ }));
    await user.type(within(dialog).getByRole('textbox', { name: /Max choices/ }), '2');
    await user.click(within(dialog).getByText('Hidden until close'));
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    dialog = await screen.findByRole('dialog', { name: 'Poll Question and Options' });
    await user.click(
      await within(dialog).findByRole('textbox', { name: 'Poll question' }, { timeout: 10_000 }),
    );
    await user.paste('Which topics?');
    // Button options need no emoji.
    await user.type(within(dialog).getByRole('textbox', { name: 'Option 1' }), 'Roadmap');
    await user.click(within(dialog).getByRole('button', { name: 'Add option' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Option 2' }), 'Hiring');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.callsTo('POST', '/poll/createrecurringpoll')).toHaveLength(1));
    const body = createRecurringPollBody.parse(api.callsTo('POST', '/poll/createrecurringpoll')[0]!.body);
    expect(body).toMatchObject({
      frequency: 'Everyday',
      time: '10:30',
      voting: 'buttons',
      anonymous: true,
      multiple: true,
      max_choices: 2,
      allow_add: false,
      results: 'closed',
    });
    expect(body.options.map((o) => o.value)).toEqual(['Roadmap', 'Hiring']);
    expect(api.callsTo('POST', '/poll/createpoll')).toEqual([]);
  }, 40_000);
});
