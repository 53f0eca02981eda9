import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../testing/editor-layout.ts';
import { DELIVERY_TEXTS } from '@flywheel/shared/delivery';
import { FORM_TEXTS, formsListResponse } from '@flywheel/shared/forms';
import { messageResponse } from '@flywheel/shared/http';
import {
  createPollBody,
  pollInfoResponse,
  pollResponse,
  pollsResponse,
  POLL_TEXTS,
  pollExportResponse,
  votersResponse,
  type Poll,
} from '@flywheel/shared/polls';
import { captureDownloads } from '../../testing/downloads.ts';
import { fixture, reply } from '../../testing/fixture.ts';
import { formRow, formSent } from '../../testing/form-fixtures.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { defaultEnd, EMPTY_POLL_START, localInput, pollDraftProblems, pollStartProblems } from './draft.ts';
import { pollDeleteConsequences } from './PollsTab.tsx';

const me = { body: { ...loginResponse(), token: undefined } };

const poll = (id: number, extra: Partial<Poll> = {}): Poll => ({
  id,
  created_by: 'Ada',
  expiry_ts: '2030-01-02T10:00:00.000Z',
  question: `Question ${id}?`,
  htmlquestion: `<p>Question <strong>${id}</strong>?</p>`,
  status: true,
  state: 'active',
  poll_options: [
    { emoji: '👍', emoji_code: 'thumbsup', value: 'Yes', count: 2 },
    { emoji: '🎉', emoji_code: 'tada', value: 'No', count: 1 },
  ],
  total_votes: 3,
  sender: 'bot',
  admin_user: null,
  type: 'instant',
  post_at: '2030-01-01T10:00:00.000Z',
  images: [],
  channel_ids: ['C001'],
  channels: ['general'],
  receipt_id: 1,
  created_at: '2030-01-01T10:00:00.000Z',
  voting: 'emoji',
  anonymous: false,
  multiple: false,
  max_choices: null,
  allow_add: false,
  results: 'live',
  closed: false,
  voter_count: 3,
  ...extra,
});

const FORM = formRow(7, 'Pulse');

const POLLS = [
  poll(2, { question: 'Lunch <script>alert(1)</script>?', htmlquestion: '' }),
  poll(1, { state: 'expired', status: false }),
];

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /poll/getpolls/T001': reply(pollsResponse, { data: POLLS }),
    ...extra,
  });
}

afterEach(() => vi.unstubAllGlobals());

async function openTable() {
  const view = renderApp('/dashboard/actions/polls');
  const table = await screen.findByRole('table', { name: 'Poll Table' }, { timeout: 8000 });
  await waitFor(() => expect(within(table).getAllByRole('row').length).toBeGreaterThan(1));
  return { ...view, table };
}

async function toStep2(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Create Poll' }));
  const dialog = await screen.findByRole('dialog', { name: 'Create Poll' });
  const next = within(dialog).getByRole('button', { name: 'Next' });
  expect(next).toBeDisabled();
  await user.click(within(dialog).getByLabelText('Channels', { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: '#general' }));
  expect(next).toBeDisabled(); // a channel, but no sender yet
  await user.click(within(dialog).getByRole('radio', { name: 'Bot' }));
  await waitFor(() => expect(next).toBeEnabled());
  await user.click(next);
  return screen.findByRole('dialog', { name: 'Poll Question and Options' });
}

describe('Poll Table', () => {
  it('lists polls with the documented columns; a question is shown as text, never run', async () => {
    setup();
    const { table, container } = await openTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Create By', 'Expiry Time', 'Poll Question', 'Status', 'Details', 'Delete']);
    expect(within(table).getByText('Lunch <script>alert(1)</script>?')).toBeInTheDocument();
    expect(container.querySelector('script')).toBeNull();
    expect(within(table).getByText('Active')).toBeInTheDocument();
    expect(within(table).getByText('Expired')).toBeInTheDocument();
  });

  it('a workspace without polls says so, and how to make one', async () => {
    setup({ 'GET /poll/getpolls/T001': reply(pollsResponse, { data: [] }) });
    renderApp('/dashboard/actions/polls');
    await screen.findByRole('table', { name: 'Poll Table' }, { timeout: 8000 });
    expect(
      await screen.findByText('No polls yet: create one to ask your channels a question'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create Poll' })).toBeInTheDocument();
  });

  it('delete removes the row when the answer comes back; a failure is a red Failure toast', async () => {
    const api = setup({
      'DELETE /poll/deletepoll/2/T001': reply(messageResponse, { message: POLL_TEXTS.deleted }),
      'DELETE /poll/deletepoll/1/T001': {
        status: 502,
        body: { statusCode: 502, code: 'SLACK_ERROR', message: 'Slack did not answer' },
      },
    });
    const { table, user } = await openTable();
    const confirm = async () => {
      const dialog = await screen.findByRole('dialog', { name: 'Delete poll?' });
      await user.click(within(dialog).getByRole('button', { name: 'Delete poll' }));
    };
    await user.click(within(table).getByRole('button', { name: 'Delete poll 1' }));
    await confirm();
    expect(await screen.findByText('Slack did not answer')).toBeInTheDocument();
    expect(screen.getByText('Failure')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(within(table).getByRole('button', { name: 'Delete poll 2' }));
    await confirm();
    expect(await screen.findByText(POLL_TEXTS.deleted)).toBeInTheDocument();
    await waitFor(() => expect(within(table).queryByText(/Lunch/)).toBeNull());
    expect(api.callsTo('DELETE', '/poll/deletepoll/2/T001')).toHaveLength(1);
  });
});

describe('Deleting a poll asks first', () => {
  it("says it also deletes the poll's message in Slack; Cancel keeps the poll and sends nothing", async () => {
    const api = setup({
      'DELETE /poll/deletepoll/1/T001': reply(messageResponse, { message: POLL_TEXTS.deleted }),
    });
    const { table, user } = await openTable();
    await user.click(within(table).getByRole('button', { name: 'Delete poll 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete poll?' });
    expect(dialog).toHaveTextContent('The poll "Question 1?" will be deleted, with its votes.');
    expect(dialog).toHaveTextContent("This also deletes the poll's message in Slack (#general)");
    expect(dialog).toHaveTextContent('This cannot be undone.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete poll?' })).toBeNull());
    expect(api.callsTo('DELETE', '/poll/deletepoll/1/T001')).toEqual([]);
    expect(within(table).getByRole('button', { name: 'Delete poll 1' })).toBeInTheDocument();
  });

  it('a scheduled poll: it will not be posted', () => {
    expect(pollDeleteConsequences(poll(3, { state: 'scheduled', channels: ['general', 'random'] }))).toEqual([
      'It will not be posted in #general, #random.',
    ]);
  });
});

describe('Create Poll: validation', () => {
  it('step 1: Next waits for a channel and a sender; a scheduled time in the past or too soon is refused', () => {
    const tz = 'Europe/London';
    const now = Date.parse('2030-01-01T10:00:00Z');
    const sender = { sender: 'bot' as const, adminUser: null };
    expect(pollStartProblems(EMPTY_POLL_START, tz, now).basic).toBe(POLL_TEXTS.chooseChannel);
    expect(pollStartProblems({ ...EMPTY_POLL_START, channels: ['C001'] }, tz, now).basic).toBe(
      'Choose a Sender',
    );
    const scheduled = { ...EMPTY_POLL_START, channels: ['C001'], sender, type: 'scheduled' as const };
    expect(pollStartProblems(scheduled, tz, now).detail).toBe(POLL_TEXTS.scheduleTime);
    expect(pollStartProblems({ ...scheduled, at: localInput(now - 60_000, tz) }, tz, now).detail).toBe(
      POLL_TEXTS.pastTime,
    );
    expect(pollStartProblems({ ...scheduled, at: localInput(now + 5 * 60_000, tz) }, tz, now).detail).toBe(
      POLL_TEXTS.invalidRange,
    );
    expect(pollStartProblems({ ...scheduled, at: localInput(now + 3_600_000, tz) }, tz, now)).toEqual({
      basic: null,
      detail: null,
    });
  });

  it('the end time defaults to one day after the scheduled date, or after now', () => {
    const tz = 'UTC';
    const now = Date.parse('2030-01-01T10:00:00Z');
    expect(defaultEnd(EMPTY_POLL_START, tz, now)).toBe('2030-01-02T10:00');
    expect(defaultEnd({ ...EMPTY_POLL_START, type: 'scheduled', at: '2030-01-05T08:30' }, tz, now)).toBe(
      '2030-01-06T08:30',
    );
    const start = { ...EMPTY_POLL_START, channels: ['C001'] };
    const draft = {
      question: { html: '<p>Q</p>', mrkdwn: 'Q', text: 'Q' },
      files: [],
      options: [{ emoji: '👍', emoji_code: 'thumbsup', value: 'Yes' }],
      end: '2030-01-01T09:00',
    };
    expect(pollDraftProblems(start, draft, tz, now).end).toBe(POLL_TEXTS.endAfterStart);
    expect(pollDraftProblems(start, { ...draft, end: '2030-01-01T11:00' }, tz, now)).toEqual({
      question: null,
      options: null,
      end: null,
    });
  });

  it("options: the first cannot be deleted, add stops at 5, and an option without emoji or value gets the product's text", async () => {
    const api = setup();
    const { user } = await openTable();
    const dialog = await toStep2(user);
    expect(within(dialog).getByRole('button', { name: 'Delete option 1' })).toBeDisabled();
    const add = within(dialog).getByRole('button', { name: 'Add option' });
    for (let i = 0; i < 4; i++) await user.click(add);
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(5);
    expect(within(dialog).getByRole('button', { name: '5 options at most' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Delete option 5' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: 'Delete option 5' }));
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(4);
    // The end time is already there: a day after now.
    const end = within(dialog).getByLabelText(/End time/) as HTMLInputElement;
    expect(end.value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/);

    await user.click(
      await within(dialog).findByRole('textbox', { name: 'Poll question' }, { timeout: 10_000 }),
    );
    await user.paste('Lunch?');
    await user.type(within(dialog).getByRole('textbox', { name: 'Option 1' }), 'Pizza');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(POLL_TEXTS.fillOptions)).toBeInTheDocument();
    expect(api.callsTo('POST', '/poll/createpoll')).toEqual([]);
  }, 40_000);

  it('an empty question has its text; nothing is sent', async () => {
    const api = setup();
    const { user } = await openTable();
    const dialog = await toStep2(user);
    await within(dialog).findByRole('textbox', { name: 'Poll question' }, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText(POLL_TEXTS.emptyQuestion)).toBeInTheDocument();
    expect(api.callsTo('POST', '/poll/createpoll')).toEqual([]);
  });

  it('creates: the body the shared schema accepts, emoji names included; the row joins the table', async () => {
    const created = poll(7, { question: 'Pizza or pasta?', htmlquestion: '<p>Pizza or pasta?</p>' });
    const api = setup({
      'POST /poll/createpoll': {
        status: 201,
        body: fixture(pollResponse, { message: POLL_TEXTS.created, data: created }),
      },
    });
    const { user, table } = await openTable();
    const dialog = await toStep2(user);
    await user.click(
      await within(dialog).findByRole('textbox', { name: 'Poll question' }, { timeout: 10_000 }),
    );
    await user.paste('Pizza or pasta?');
    await user.click(within(dialog).getByRole('button', { name: 'Choose an emoji for option 1' }));
    await user.click(await screen.findByRole('button', { name: ':thumbsup:' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Option 1' }), 'Pizza');
    await user.click(within(dialog).getByRole('button', { name: 'Add option' }));
    await user.click(within(dialog).getByRole('button', { name: 'Choose an emoji for option 2' }));
    await user.click(await screen.findByRole('button', { name: ':tada:' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Option 2' }), 'Pasta');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(POLL_TEXTS.created)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const body = createPollBody.parse(api.callsTo('POST', '/poll/createpoll')[0]!.body);
    expect(body).toMatchObject({
      team_id: 'T001',
      channel_ids: ['C001'],
      poll_question: 'Pizza or pasta?',
      sender: 'bot',
      type: 'instant',
      options: [
        { emoji: '👍', emoji_code: 'thumbsup', value: 'Pizza' },
        { emoji: '🎉', emoji_code: 'tada', value: 'Pasta' },
      ],
    });
    expect(Date.parse(body.expiry_ts!) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect(within(table).getByText('Pizza or pasta?')).toBeInTheDocument();
  }, 30_000);

  it('a refused create is a red Failure toast with the server message; the wizard stays open', async () => {
    setup({
      'POST /poll/createpoll': {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_ERROR', message: DELIVERY_TEXTS.tooManyImages },
      },
    });
    const { user } = await openTable();
    const dialog = await toStep2(user);
    await user.click(
      await within(dialog).findByRole('textbox', { name: 'Poll question' }, { timeout: 10_000 }),
    );
    await user.paste('Q?');
    await user.click(within(dialog).getByRole('button', { name: 'Choose an emoji for option 1' }));
    await user.click(await screen.findByRole('button', { name: ':thumbsup:' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Option 1' }), 'Yes');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(DELIVERY_TEXTS.tooManyImages)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Poll Question and Options' })).toBeInTheDocument();
  });
});

describe('Poll Details', () => {
  it("?poll=ID (a notification's link) opens that poll's details; closing them leaves the plain tab", async () => {
    setup({
      'GET /poll/getpollinfo/2/T001': reply(pollInfoResponse, { data: POLLS[0]! }),
      'GET /poll/memberpollinfo/2/T001': reply(votersResponse, { data: [] }),
    });
    const { user, location } = renderApp('/dashboard/actions/polls?poll=2');
    const dialog = await screen.findByRole('dialog', { name: 'Poll Details' }, { timeout: 8000 });
    expect(await within(dialog).findByText(/Lunch/)).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Poll Details' })).toBeNull());
    expect(location().search).toBe('');
  });

  it('Export Details saves PollDetails.csv with a formula in a name or option as text, not run', async () => {
    setup({
      'GET /poll/getpollinfo/2/T001': reply(pollInfoResponse, { data: POLLS[0]! }),
      'GET /poll/memberpollinfo/2/T001': reply(votersResponse, { data: [] }),
      'GET /poll/exportpollinfo/2/T001': reply(pollExportResponse, {
        data: [
          { email: 'ada@example.com', value: '=1+1', name: '=HYPERLINK("http://evil.example","Ada")' },
          { email: 'bob@example.com', value: 'Yes', name: 'Bob "B" Smith' },
        ],
      }),
    });
    const dl = captureDownloads();
    const { table, user } = await openTable();
    await user.click(within(table).getByRole('button', { name: 'Details of poll 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Poll Details' });
    await user.click(within(dialog).getByRole('button', { name: 'Export Details' }));
    await waitFor(() => expect(dl.saved).toHaveLength(1));
    expect(dl.saved[0]!.name).toBe('PollDetails.csv');
    expect(dl.saved[0]!.text).toBe(
      '\uFEFF"email","value","name"\r\n' +
        `"ada@example.com","'=1+1","'=HYPERLINK(""http://evil.example"",""Ada"")"\r\n` +
        '"bob@example.com","Yes","Bob ""B"" Smith"\r\n',
    );
  });

  it('shows the options (5 per page) and voters (15 per page); Send Form sends a chosen form to the selected voters', async () => {
    const many = Array.from({ length: 17 }, (_, i) => ({
      user_id: `U${100 + i}`,
      email: `m${i}@example.com`,
      name: `Member ${i}`,
      value: 'Yes',
      emoji: '👍',
      voted_at: '2030-01-01T11:00:00.000Z',
    }));
    const api = setup({
      'GET /poll/getpollinfo/2/T001': reply(pollInfoResponse, { data: POLLS[0]! }),
      'GET /poll/memberpollinfo/2/T001': reply(votersResponse, { data: many }),
      'GET /actions/getforms/T001': reply(formsListResponse, { data: [FORM] }),
      'POST /actions/executeform': formSent(7),
    });
    const { table, user } = await openTable();
    await user.click(within(table).getByRole('button', { name: 'Details of poll 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Poll Details' });
    const voters = await within(dialog).findByRole('table', { name: 'Poll voters' });
    await waitFor(() => expect(within(voters).getAllByRole('row')).toHaveLength(16));
    const options = within(dialog).getByRole('table', { name: 'Poll options' });
    expect(
      within(options)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Emoji', 'Option', 'Count']);
    // The options table is the pie's key: each option's swatch has its slice's colour.
    const fills = [...within(dialog).getByTestId('poll-pie').querySelectorAll('path')].map((p) =>
      p.getAttribute('fill'),
    );
    const swatches = within(options)
      .getAllByTestId(/^option-swatch-/)
      .map((s) => s.getAttribute('data-color'));
    expect(fills.length).toBeGreaterThan(0);
    for (const fill of fills) expect(swatches).toContain(fill);
    expect(
      within(voters)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toContain('Voted For');
    expect(within(dialog).getByRole('button', { name: 'Export Details' })).toBeEnabled();

    // Send Form: the selected voters, exactly; the selection is cleared after.
    const sendForm = within(dialog).getByRole('button', { name: 'Send Form' });
    expect(sendForm).toBeDisabled();
    await user.click(within(voters).getByRole('checkbox', { name: 'Select Member 0' }));
    await user.click(within(voters).getByRole('checkbox', { name: 'Select Member 3' }));
    await user.click(sendForm);
    const popup = await screen.findByRole('dialog', { name: 'Send Form' });
    expect(within(popup).getByText(/^To 2 members/)).toBeInTheDocument();
    await user.click(within(popup).getByRole('combobox', { name: 'Form' }));
    await user.click(await screen.findByRole('option', { name: 'Pulse' }));
    await user.click(within(popup).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(FORM_TEXTS.sent)).toBeInTheDocument();
    expect(api.callsTo('POST', '/actions/executeform').map((c) => c.body)).toEqual([
      { team_id: 'T001', master_form_id: 7, send_ids: { members: ['U100', 'U103'], channels: [], tags: [] } },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Send Form' })).toBeNull());
    expect(sendForm).toBeDisabled();
  });
});

describe('button polls', () => {
  it("the wizard's Voting choice: Buttons with its settings, up to 10 options without emoji; the body the schema accepts", async () => {
    const created = poll(8, { question: 'Talks?', voting: 'buttons', anonymous: true });
    const api = setup({
      'POST /poll/createpoll': {
        status: 201,
        body: fixture(pollResponse, { message: POLL_TEXTS.created, data: created }),
      },
    });
    const { user } = await openTable();
    await user.click(screen.getByRole('button', { name: 'Create Poll' }));
    const start = await screen.findByRole('dialog', { name: 'Create Poll' });
    await user.click(within(start).getByLabelText('Channels', { selector: 'input' }));
    await user.click(await screen.findByRole('option', { name: '#general' }));
    await user.click(within(start).getByRole('radio', { name: 'Bot' }));
    // Emoji reactions by default: no button settings.
    expect(within(start).queryByRole('switch', { name: /Anonymous/ })).toBeNull();
    await user.click(within(start).getByText('Buttons'));
    await user.click(within(start).getByRole('switch', { name: /Anonymous/ }));
    await user.click(within(start).getByRole('switch', { name: /Multiple choice/ }));
    await user.type(within(start).getByRole('textbox', { name: /Max choices/ }), '2');
    await user.click(within(start).getByRole('switch', { name: /Voters may add an option/ }));
    await user.click(within(start).getByText('Hidden until close'));
    await user.click(within(start).getByRole('button', { name: 'Next' }));
    const dialog = await screen.findByRole('dialog', { name: 'Poll Question and Options' });
    await user.click(
      await within(dialog).findByRole('textbox', { name: 'Poll question' }, { timeout: 10_000 }),
    );
    await user.paste('Talks?');
    const add = within(dialog).getByRole('button', { name: 'Add option' });
    for (let i = 0; i < 5; i++) await user.click(add);
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(6);
    expect(within(dialog).getByRole('button', { name: 'Add option' })).toBeEnabled();
    for (let i = 0; i < 6; i++)
      await user.type(within(dialog).getByRole('textbox', { name: `Option ${i + 1}` }), `Talk ${i + 1}`);
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(POLL_TEXTS.created)).toBeInTheDocument();
    const body = createPollBody.parse(api.callsTo('POST', '/poll/createpoll')[0]!.body);
    expect(body).toMatchObject({
      voting: 'buttons',
      anonymous: true,
      multiple: true,
      max_choices: 2,
      allow_add: true,
      results: 'closed',
    });
    expect(body.options.map((o) => o.value)).toEqual([
      'Talk 1',
      'Talk 2',
      'Talk 3',
      'Talk 4',
      'Talk 5',
      'Talk 6',
    ]);
  }, 40_000);

  it('a max choices above the options is refused before sending', () => {
    const start = {
      ...EMPTY_POLL_START,
      voting: 'buttons' as const,
      ballot: { ...EMPTY_POLL_START.ballot, multiple: true, maxChoices: 3 },
    };
    const draft = {
      question: { html: '<p>Q</p>', text: 'Q', mrkdwn: 'Q' },
      files: [],
      options: [
        { emoji: '', emoji_code: '', value: 'A' },
        { emoji: '', emoji_code: '', value: 'B' },
      ],
      end: localInput(Date.now() + 86_400_000, 'UTC'),
    };
    expect(pollDraftProblems(start, draft, 'UTC').options).toBe(POLL_TEXTS.maxChoices);
    expect(
      pollDraftProblems({ ...start, ballot: { ...start.ballot, maxChoices: 2 } }, draft, 'UTC').options,
    ).toBe(null);
  });

  it("an anonymous button poll's details: a bar chart of the counts, no voters, the anonymity line; Close, then Reopen; the CSV has counts only", async () => {
    const anonymous = poll(2, {
      voting: 'buttons',
      anonymous: true,
      multiple: true,
      max_choices: 2,
      poll_options: [
        { emoji: '', emoji_code: '', value: 'Pizza', count: 4 },
        { emoji: '', emoji_code: '', value: '=Sushi', count: 1 },
      ],
      total_votes: 5,
      voter_count: 3,
    });
    const api = setup({
      'GET /poll/getpollinfo/2/T001': reply(pollInfoResponse, { data: anonymous }),
      'GET /poll/memberpollinfo/2/T001': reply(votersResponse, { data: [] }),
      'GET /poll/exportpollinfo/2/T001': reply(pollExportResponse, {
        data: [
          { email: '', name: '', value: 'Pizza', votes: 4 },
          { email: '', name: '', value: '=Sushi', votes: 1 },
        ],
      }),
      'POST /poll/closepoll/2/T001': reply(pollResponse, {
        message: POLL_TEXTS.closed,
        data: { ...anonymous, closed: true, state: 'expired', status: false },
      }),
      'POST /poll/reopenpoll/2/T001': reply(pollResponse, { message: POLL_TEXTS.reopened, data: anonymous }),
    });
    const dl = captureDownloads();
    const { table, user } = await openTable();
    await user.click(within(table).getByRole('button', { name: 'Details of poll 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Poll Details' });
    expect(await within(dialog).findByText(POLL_TEXTS.anonymous)).toBeInTheDocument();
    expect(within(dialog).getByTestId('poll-bars')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('poll-pie')).toBeNull();
    expect(within(dialog).queryByRole('table', { name: 'Poll voters' })).toBeNull();
    expect(within(dialog).getByText(/5 votes from 3 voters/)).toBeInTheDocument();
    expect(within(dialog).getByText(/anonymous · up to 2 choices/)).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Export Details' }));
    await waitFor(() => expect(dl.saved).toHaveLength(1));
    expect(dl.saved[0]!.text).toBe('\uFEFF"value","votes"\r\n"Pizza",4\r\n"\'=Sushi",1\r\n');

    await user.click(within(dialog).getByRole('button', { name: 'Close poll' }));
    expect(await within(dialog).findByRole('button', { name: 'Reopen poll' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/poll/closepoll/2/T001')).toHaveLength(1);
    await user.click(within(dialog).getByRole('button', { name: 'Reopen poll' }));
    expect(await within(dialog).findByRole('button', { name: 'Close poll' })).toBeInTheDocument();
    expect(api.callsTo('POST', '/poll/reopenpoll/2/T001')).toHaveLength(1);
  });

  it('a named button poll shows who voted for what', async () => {
    setup({
      'GET /poll/getpollinfo/2/T001': reply(pollInfoResponse, { data: poll(2, { voting: 'buttons' }) }),
      'GET /poll/memberpollinfo/2/T001': reply(votersResponse, {
        data: [
          {
            user_id: 'U100',
            email: 'ada@example.com',
            name: 'Ada',
            value: 'Yes',
            emoji: '',
            voted_at: '2030-01-01T11:00:00.000Z',
          },
        ],
      }),
    });
    const { table, user } = await openTable();
    await user.click(within(table).getByRole('button', { name: 'Details of poll 2' }));
    const dialog = await screen.findByRole('dialog', { name: 'Poll Details' });
    const voters = await within(dialog).findByRole('table', { name: 'Poll voters' });
    expect(await within(voters).findByText('Ada')).toBeInTheDocument();
    expect(within(dialog).queryByText(POLL_TEXTS.anonymous)).toBeNull();
  });
});
