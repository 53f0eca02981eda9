import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '../../testing/editor-layout.ts';
import {
  ACTION_TEXTS,
  actionResponse,
  actionsListResponse,
  createAutomationBody,
  createScheduledBody,
  updateActionBody,
  type ActionRow,
} from '@flywheel/shared/actions';
import {
  receiptResponse,
  sendResponse,
  testMessageBody,
  uploadImageResponse,
} from '@flywheel/shared/delivery';
import { messageResponse } from '@flywheel/shared/http';
import { fixture, reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { fakeFile, mockUploads } from '../../testing/mock-upload.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { formatNextRun } from './action-messages/ActionsTable.tsx';

const me = { body: { ...loginResponse(), token: undefined } };

const row = (id: number, extra: Partial<ActionRow> = {}): ActionRow => ({
  id,
  kind: 'automation',
  trigger_name: 'Member Join',
  message_sender: 'b',
  sender_label: 'Bot',
  admin_user: null,
  message: `Welcome ${id}`,
  htmlmessage: `<p>Welcome <strong>${id}</strong></p>`,
  images: [],
  channel_ids: ['C001'],
  channels: ['general'],
  user_ids: ['U001'],
  users: ['Ada Lovelace'],
  dms: { members: ['U001'], tags: [], channels: [] },
  sendtoworkspace: false,
  send_dm: true,
  bulkdm: false,
  frequency: null,
  days: [],
  time: null,
  days_date: '',
  timezone: 'Europe/Berlin',
  next_run: null,
  last_run: null,
  active: true,
  ...extra,
});

const many = Array.from({ length: 12 }, (_, i) => `U${100 + i}`);
const AUTOMATIONS = [
  row(3, {
    trigger_name: 'Welcome wagon',
    message: 'Hi <script>alert(1)</script>',
    htmlmessage: '<p>Hi <img src=x onerror="alert(1)"><a href="javascript:alert(1)">click</a></p>',
    user_ids: many,
    users: many.slice(0, 10).map((u) => `Member ${u}`),
    dms: { members: many, tags: [], channels: [] },
  }),
  row(7, { trigger_name: 'Everyone hello', sendtoworkspace: true, bulkdm: true, user_ids: [], users: [] }),
  row(5, { trigger_name: 'Channel note', send_dm: false }),
  row(4, {
    trigger_name: 'From the API',
    message: 'Hi <@U002> &amp; welcome to <#C001>',
    htmlmessage: '',
  }),
];

const SCHEDULED = [
  row(9, {
    kind: 'schedule',
    trigger_name: 'Monday digest',
    frequency: 'Weekly',
    days: ['mon', 'thurs'],
    time: '09:00',
    days_date: 'mon, thurs',
    next_run: '2026-11-23T08:00:00.000Z',
    send_dm: false,
  }),
];

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /actions/getautomations/T001': reply(actionsListResponse, { data: AUTOMATIONS }),
    'GET /actions/getscheduled/T001': reply(actionsListResponse, { data: SCHEDULED }),
    ...extra,
  });
}

/** 'Send a test to me': accepted (202), and its receipt says Slack delivered it. */
const TEST_SENT = {
  'POST /quickaction/sendtest': {
    status: 202,
    body: sendResponse.parse({
      message: 'Sending the test to you: it arrives as a DM in Slack',
      data: { receipt_id: 3, total: 1 },
    }),
  },
  'GET /receipts/getreceipt/T001/3': reply(receiptResponse, {
    data: {
      id: 3,
      action_type: 'Direct Message',
      description: 'Test to you: Welcome',
      sender: 'bot',
      created_at: '2026-01-01T10:00:00.000Z',
      total_recipient_count: 1,
      successful_recipient_count: 1,
      failed_recipient_count: 0,
      retryable_recipient_count: 0,
      error: null,
      failures: [],
    },
  }),
};

const rowOf = (table: HTMLElement, name: string) => within(table).getByText(name).closest('tr')!;
const names = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);

async function openTable(path: string, name: string) {
  const view = renderApp(path);
  const table = await screen.findByRole('table', { name }, { timeout: 8000 });
  await waitFor(() => expect(within(table).getAllByRole('row').length).toBeGreaterThan(1));
  return { ...view, table };
}

async function write(user: ReturnType<typeof renderApp>['user'], text: string) {
  await user.click(await screen.findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
  await user.paste(text);
}

async function chooseOption(user: ReturnType<typeof renderApp>['user'], label: string, option: string) {
  await user.click(screen.getByLabelText(label, { selector: 'input' }));
  await user.click(await screen.findByRole('option', { name: option }));
}

afterEach(() => vi.unstubAllGlobals());

describe('Automate tab', () => {
  it('lists triggers newest first with the documented columns; the stored html is shown as text, never run', async () => {
    const api = setup();
    const { table, container } = await openTable('/dashboard/actions/automate', 'Triggers');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Trigger Name', 'Sender', 'Message', 'Users', 'Channels', 'Edit', 'Delete']);
    expect(names(table)).toEqual(['Everyone hello', 'Channel note', 'From the API', 'Welcome wagon']);
    // Stored without html: the chat text with readable mentions, the names looked up for the ids on screen
    // in one batched call (the member directory is never loaded whole).
    expect(
      await within(rowOf(table, 'From the API')).findByText('Hi @Alan Turing & welcome to #general'),
    ).toBeInTheDocument();
    expect(api.callsTo('POST', '/members/lookup')).toHaveLength(1);
    expect(api.callsTo('POST', '/members/lookup')[0]?.body).toMatchObject({ member_ids: ['U002'] });
    expect(api.callsTo('GET', '/members/getmembers/T001')).toHaveLength(0);

    const welcome = rowOf(table, 'Welcome wagon');
    // The first 10 users and '...' when there are 10 or more.
    expect(within(welcome).getByText(/Member U100, .*Member U109, \.\.\./)).toBeInTheDocument();
    expect(within(welcome).queryByText(/U110/)).toBeNull();
    // No <img>, no javascript: link, no script: the html was read, not injected.
    expect(container.querySelector('img[src="x"]')).toBeNull();
    expect(within(welcome).getByText('Hi click').tagName).toBe('P');
    expect(container.querySelector('a[href^="javascript"]')).toBeNull();
    expect(within(rowOf(table, 'Channel note')).getByText('5').tagName).toBe('STRONG');
    expect(within(rowOf(table, 'Channel note')).getByText('#general')).toBeInTheDocument();
  });

  it('the search box filters the rows', async () => {
    setup();
    const { table, user } = await openTable('/dashboard/actions/automate', 'Triggers');
    await user.type(screen.getByRole('textbox', { name: 'Search triggers' }), 'channel');
    await waitFor(() => expect(names(table)).toEqual(['Channel note']));
  });

  it("edit is disabled for a bulk-DM row, with the product's tooltip", async () => {
    setup();
    const { table, user } = await openTable('/dashboard/actions/automate', 'Triggers');
    const edit = within(rowOf(table, 'Everyone hello')).getByRole('button', { name: 'Edit Everyone hello' });
    expect(edit).toBeDisabled();
    expect(
      within(rowOf(table, 'Channel note')).getByRole('button', { name: 'Edit Channel note' }),
    ).toBeEnabled();
    await user.hover(edit.parentElement!);
    expect(await screen.findByText('Edit option is not availble for bulk DM')).toBeInTheDocument();
  });

  it('no triggers: the empty text', async () => {
    setup({ 'GET /actions/getautomations/T001': reply(actionsListResponse, { data: [] }) });
    renderApp('/dashboard/actions/automate');
    expect(await screen.findByText(/No triggers yet/, {}, { timeout: 8000 })).toBeInTheDocument();
  });

  it('delete asks first (Cancel keeps the trigger), then removes the row and toasts the server message', async () => {
    const api = setup({
      'DELETE /actions/deleteaction/T001/5': reply(messageResponse, { message: 'Deleted successfully' }),
    });
    const { table, user } = await openTable('/dashboard/actions/automate', 'Triggers');
    const ask = () =>
      user.click(within(rowOf(table, 'Channel note')).getByRole('button', { name: 'Delete Channel note' }));
    await ask();
    let dialog = await screen.findByRole('dialog', { name: 'Delete trigger?' });
    expect(dialog).toHaveTextContent('The trigger "Channel note" will be deleted.');
    expect(dialog).toHaveTextContent('Members who join from now on will not get its message.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Delete trigger?' })).toBeNull());
    expect(api.callsTo('DELETE', '/actions/deleteaction/T001/5')).toEqual([]);
    expect(names(table)).toContain('Channel note');

    await ask();
    dialog = await screen.findByRole('dialog', { name: 'Delete trigger?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete trigger' }));
    expect(await screen.findByText('Deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(names(table)).toEqual(['Everyone hello', 'From the API', 'Welcome wagon']));
    expect(api.callsTo('DELETE', '/actions/deleteaction/T001/5')).toHaveLength(1);
  });

  it('edit: members, channels and message are sent; the row changes in place', async () => {
    const edited = row(5, {
      trigger_name: 'Channel note',
      send_dm: false,
      message: 'Updated hello',
      htmlmessage: '<p>Updated hello</p>',
      user_ids: ['U001', 'U002'],
      users: ['Ada Lovelace', 'Alan Turing'],
      dms: { members: ['U001', 'U002'], tags: [], channels: [] },
    });
    const api = setup({
      'PATCH /actions/updateactions': reply(actionResponse, {
        message: 'Updated successfully',
        data: edited,
      }),
    });
    const { table, user } = await openTable('/dashboard/actions/automate', 'Triggers');
    await user.click(within(rowOf(table, 'Channel note')).getByRole('button', { name: 'Edit Channel note' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Trigger' });
    // The picker searches the server as you type (at most 10 hits); the chosen ids' names are looked up.
    await user.type(
      within(dialog).getByLabelText('Send Direct Message to members', { selector: 'input' }),
      'tur',
    );
    await user.click(await screen.findByRole('option', { name: /^Alan Turing/ }, { timeout: 3000 }));
    expect(api.callsTo('GET', '/members/search/T001').at(-1)?.headers).toBeDefined();
    await user.click(await within(dialog).findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    await user.keyboard('{Control>}a{/Control}');
    await user.paste('Updated hello');
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByText('Updated successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Trigger' })).toBeNull());
    const body = updateActionBody.parse(api.callsTo('PATCH', '/actions/updateactions')[0]!.body);
    expect(body).toMatchObject({
      team_id: 'T001',
      id: 5,
      user_ids: ['U001', 'U002'],
      channel_ids: ['C001'],
      message: 'Updated hello',
    });
    const updated = rowOf(table, 'Channel note');
    expect(within(updated).getByText('Updated hello')).toBeInTheDocument();
    expect(within(updated).getByText('Ada Lovelace, Alan Turing')).toBeInTheDocument();
    expect(names(table)).toEqual(['Everyone hello', 'Channel note', 'From the API', 'Welcome wagon']);
  });
});

describe('Create Trigger wizard', () => {
  it('Next waits for a trigger and a sender; closing step 2 returns to step 1, closing step 1 closes', async () => {
    setup();
    const { user } = await openTable('/dashboard/actions/automate', 'Triggers');
    await user.click(screen.getByRole('button', { name: 'Create Trigger' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create Trigger' });
    const next = within(dialog).getByRole('button', { name: 'Next' });
    expect(next).toBeDisabled();
    await chooseOption(user, 'Choose Trigger', 'Member Join');
    expect(next).toBeDisabled();
    await user.click(within(dialog).getByRole('radio', { name: 'Admin' }));
    // Admin: the first authorized admin is chosen by default.
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    expect(await screen.findByRole('dialog', { name: 'Compose Message' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close Compose Message' }));
    expect(await screen.findByRole('dialog', { name: 'Create Trigger' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  async function toCompose() {
    const { user, table } = await openTable('/dashboard/actions/automate', 'Triggers');
    await user.click(screen.getByRole('button', { name: 'Create Trigger' }));
    await screen.findByRole('dialog', { name: 'Create Trigger' });
    await chooseOption(user, 'Choose Trigger', 'Member Join');
    await user.click(screen.getByRole('radio', { name: 'Bot' }));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    const dialog = await screen.findByRole('dialog', { name: 'Compose Message' });
    return { user, table, dialog };
  }

  it('no target and no text: the documented texts, nothing sent', async () => {
    const api = setup();
    const { user, dialog } = await toCompose();
    await within(dialog).findByRole('textbox', { name: 'Message' }, { timeout: 10_000 });
    await user.click(within(dialog).getByRole('button', { name: 'create Trigger' }));
    expect(await within(dialog).findByText(ACTION_TEXTS.automationTarget)).toBeInTheDocument();
    expect(within(dialog).getByText(ACTION_TEXTS.emptyMessage)).toBeInTheDocument();
    expect(api.callsTo('POST', '/actions/createautomation')).toEqual([]);
  });

  it('creates: the body the shared schema accepts, the new row first, both steps closed', async () => {
    const created = row(11, {
      trigger_name: 'Member Join',
      message: 'Welcome aboard',
      htmlmessage: '<p>Welcome aboard</p>',
      user_ids: [],
      users: [],
      channels: [],
      channel_ids: [],
    });
    const api = setup({
      'POST /actions/createautomation': {
        status: 201,
        body: fixture(actionResponse, { message: 'Trigger created successfully', data: created }),
      },
    });
    const { user, dialog, table } = await toCompose();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Send DM to new user' }));
    await write(user, 'Welcome aboard');
    await user.click(within(dialog).getByRole('button', { name: 'create Trigger' }));
    expect(await screen.findByText('Trigger created successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const body = createAutomationBody.parse(api.callsTo('POST', '/actions/createautomation')[0]!.body);
    expect(body).toMatchObject({
      team_id: 'T001',
      trigger_name: 'Member Join',
      message_sender: 'bot',
      admin_user: null,
      message: 'Welcome aboard',
      send_dm: true,
      sendtoworkspace: false,
      channel_ids: [],
      dms: { members: [], tags: [], channels: [] },
      images: [],
    });
    expect(names(table)[0]).toBe('Member Join');
    expect(within(rowOf(table, 'Welcome aboard')).getByText('New member')).toBeInTheDocument();
  });

  it('images are uploaded first (progress to 100%), their ids go into the trigger', async () => {
    const created = row(12, { trigger_name: 'Member Join', message: 'With a picture', images: ['F001'] });
    const api = setup({
      'POST /actions/createautomation': {
        status: 201,
        body: fixture(actionResponse, { message: 'Trigger created successfully', data: created }),
      },
    });
    const { user, dialog } = await toCompose();
    const { uploads } = mockUploads(() => ({
      status: 201,
      body: uploadImageResponse.parse({
        message: 'Image uploaded',
        data: { file_id: 'F001', url: 'https://files.example/F001', name: 'pic.png' },
      }),
    }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Send DM to new user' }));
    await write(user, 'With a picture');
    await userEvent
      .setup({ applyAccept: false })
      .upload(
        dialog.querySelector<HTMLInputElement>('input[type="file"]')!,
        fakeFile('pic.png', 'image/png'),
      );
    expect(await within(dialog).findByRole('img', { name: 'pic.png' })).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'create Trigger' }));
    await waitFor(() => expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100'));
    expect(await screen.findByText('Trigger created successfully')).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.form.get('team_id')).toBe('T001');
    const body = createAutomationBody.parse(api.callsTo('POST', '/actions/createautomation')[0]!.body);
    expect(body.images).toEqual(['F001']);
  });

  it('the preview shows the message as Slack will; "Send a test to me" sends the draft to you, nothing is created', async () => {
    const api = setup(TEST_SENT);
    const { user, dialog } = await toCompose();
    const preview = within(dialog).getByRole('group', { name: 'Preview' });
    const testButton = within(dialog).getByRole('button', { name: 'Send a test to me' });
    expect(preview).toHaveTextContent('Your message shows here as it will look in Slack.');
    // Nothing written: nothing to test.
    await within(dialog).findByRole('textbox', { name: 'Message' }, { timeout: 10_000 });
    expect(testButton).toBeDisabled();
    await write(user, 'Welcome @ada :tada:');
    // @ada becomes Ada's mention token (looked up on the server), shown as @Ada Lovelace; the emoji as 🎉.
    await waitFor(() => expect(preview).toHaveTextContent('Welcome @Ada Lovelace 🎉'), { timeout: 5000 });
    expect(within(preview).getByRole('img', { name: 'tada' })).toHaveTextContent('🎉');
    // From the sender chosen in step 1: the bot, marked APP.
    expect(within(preview).getByText('Flywheel')).toBeInTheDocument();
    expect(within(preview).getByText('APP')).toBeInTheDocument();

    expect(testButton).toBeEnabled();
    await user.click(testButton);
    expect(
      await screen.findByText('Look for it in your DMs in Slack.', {}, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Test sent')).toBeInTheDocument();
    const [call, ...more] = api.callsTo('POST', '/quickaction/sendtest');
    expect(more).toEqual([]);
    expect(testMessageBody.parse(call!.body)).toEqual({
      team_id: 'T001',
      sender: 'bot',
      admin_user: null,
      text: 'Welcome <@U001> :tada:',
      htmlmessage: '<p>Welcome @ada :tada:</p>',
      images: [],
    });
    expect(call!.headers['idempotency-key']).toBeTruthy();
    // A test is not the trigger: nothing created, the step stays open.
    expect(api.callsTo('POST', '/actions/createautomation')).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Compose Message' })).toBeInTheDocument();

    // Emptied again: the button is disabled again.
    await user.click(within(dialog).getByRole('textbox', { name: 'Message' }));
    await user.keyboard('{Control>}a{/Control}{Backspace}');
    await waitFor(() => expect(testButton).toBeDisabled());
    expect(preview).toHaveTextContent('Your message shows here as it will look in Slack.');
  });

  it("a refusal shows the server's message in a red 'Failure' toast and the step stays open", async () => {
    setup({
      'POST /actions/createautomation': {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_ERROR', message: 'Unknown member: U404' },
      },
    });
    const { user, dialog } = await toCompose();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Send DM to new user' }));
    await write(user, 'hello');
    await user.click(within(dialog).getByRole('button', { name: 'create Trigger' }));
    const toast = (await screen.findByText('Unknown member: U404')).closest('.mantine-Notification-root');
    expect(within(toast as HTMLElement).getByText('Failure')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Compose Message' })).toBeInTheDocument();
  });
});

describe('Schedule tab', () => {
  it("shows the product's columns and the next run in the workspace's timezone", async () => {
    setup();
    const { table } = await openTable('/dashboard/actions/schedule', 'Schedule Table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Schedule',
      'Sender',
      'Message',
      'Frequency',
      'Time',
      'Days/Date',
      'Next Run',
      'Users',
      'Channels',
      'Edit',
      'Delete',
    ]);
    const digest = rowOf(table, 'Monday digest');
    const cells = within(digest)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells.slice(3, 6)).toEqual(['Weekly', '09:00', 'Mon, Thu']);
    // 08:00 UTC is 09:00 in Berlin: the run in the workspace's clock, its timezone under it.
    expect(formatNextRun('2026-11-23T08:00:00.000Z', 'Europe/Berlin')).toMatch(/^Mon 23 Nov.* 09:00 /);
    expect(cells[6]).toBe(
      `${formatNextRun('2026-11-23T08:00:00.000Z', 'Europe/Berlin').replace(/ [^ ]+$/, '')}Europe/Berlin`,
    );
  });

  it('delete asks first, naming the next send that will not go out', async () => {
    const api = setup({
      'DELETE /actions/deleteaction/T001/9': reply(messageResponse, { message: 'Deleted successfully' }),
    });
    const { table, user } = await openTable('/dashboard/actions/schedule', 'Schedule Table');
    await user.click(
      within(rowOf(table, 'Monday digest')).getByRole('button', { name: 'Delete Monday digest' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Delete schedule?' });
    expect(dialog).toHaveTextContent(
      `Its next send (${formatNextRun('2026-11-23T08:00:00.000Z', 'Europe/Berlin')}) and every later one will not go out.`,
    );
    expect(api.callsTo('DELETE', '/actions/deleteaction/T001/9')).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete schedule' }));
    expect(await screen.findByText('Deleted successfully')).toBeInTheDocument();
    expect(api.callsTo('DELETE', '/actions/deleteaction/T001/9')).toHaveLength(1);
  });

  async function openWizard() {
    const view = await openTable('/dashboard/actions/schedule', 'Schedule Table');
    await view.user.click(screen.getByRole('button', { name: 'Schedule Message' }));
    const dialog = await screen.findByRole('dialog', { name: 'Enter Message Heading' });
    return { ...view, dialog };
  }

  it('Next only with heading, sender and frequency; a weekly schedule without a day says "No field Can be empty"', async () => {
    setup();
    const { user, dialog } = await openWizard();
    const next = within(dialog).getByRole('button', { name: 'Next' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Message Heading' }), 'Digest');
    await user.click(within(dialog).getByRole('radio', { name: 'Bot' }));
    expect(next).toBeDisabled();
    await chooseOption(user, 'Frequency', 'Weekly');
    expect(next).toBeEnabled();
    await user.click(next);
    expect(await within(dialog).findByText(ACTION_TEXTS.noFieldEmpty)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Mon' }));
    await user.click(next);
    expect(await within(dialog).findByText(ACTION_TEXTS.scheduleTime)).toBeInTheDocument();
  });

  it('one time: past and too-near times are refused with the documented texts; a valid one is sent as post_at in the workspace clock', async () => {
    const created = row(13, {
      kind: 'schedule',
      trigger_name: 'Launch',
      frequency: 'onetime',
      send_dm: false,
      sendtoworkspace: true,
      bulkdm: true,
    });
    const api = setup({
      'POST /actions/createscheduled': {
        status: 201,
        body: fixture(actionResponse, { message: 'Message scheduled successfully', data: created }),
      },
    });
    const { user, dialog } = await openWizard();
    await user.type(within(dialog).getByRole('textbox', { name: 'Message Heading' }), 'Launch');
    await user.click(within(dialog).getByRole('radio', { name: 'Bot' }));
    await chooseOption(user, 'Frequency', 'One Time');
    const picker = within(dialog).getByLabelText('Date and time');
    const next = within(dialog).getByRole('button', { name: 'Next' });
    fireEvent.change(picker, { target: { value: '2020-01-01T10:00' } });
    await user.click(next);
    expect(await within(dialog).findByText(ACTION_TEXTS.pastTime)).toBeInTheDocument();
    const berlin = (at: number) =>
      new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'Europe/Berlin',
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
      })
        .format(new Date(at))
        .replace(' ', 'T');
    fireEvent.change(picker, { target: { value: berlin(Date.now() + 5 * 60_000) } });
    await user.click(next);
    expect(await within(dialog).findByText(ACTION_TEXTS.invalidRange)).toBeInTheDocument();
    fireEvent.change(picker, { target: { value: berlin(Date.now() + 31 * 86_400_000) } });
    await user.click(next);
    expect(await within(dialog).findByText(ACTION_TEXTS.invalidRange)).toBeInTheDocument();

    const local = berlin(Date.now() + 2 * 86_400_000);
    fireEvent.change(picker, { target: { value: local } });
    await user.click(next);
    const compose = await screen.findByRole('dialog', { name: 'Compose Message' });
    await write(user, 'We launch today');
    await user.click(within(compose).getByRole('checkbox', { name: 'Send DM to all members of workspace' }));
    await user.click(within(compose).getByRole('button', { name: 'create Trigger' }));
    expect(await screen.findByText('Message scheduled successfully')).toBeInTheDocument();
    const body = createScheduledBody.parse(api.callsTo('POST', '/actions/createscheduled')[0]!.body);
    const [, y, mo, d, h, mi] = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)!;
    expect(body).toMatchObject({
      frequency: 'onetime',
      post_at: { date: `${d}/${mo}/${y}`, time: `${h}:${mi}` },
      sendtoworkspace: true,
    });
  });

  it("'Send a test to me' sends the draft with its images from the chosen admin; a refusal shows the server's message", async () => {
    const refusal =
      'Flywheel does not know your own Slack user in this workspace: use Add as Admin to link it, then send the test again';
    const api = setup({
      'POST /quickaction/sendtest': {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_ERROR', message: refusal },
      },
    });
    const { user, dialog } = await openWizard();
    await user.type(within(dialog).getByRole('textbox', { name: 'Message Heading' }), 'Digest');
    await user.click(within(dialog).getByRole('radio', { name: 'Admin' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Which admin', { selector: 'input' })).toHaveValue('Ada Lovelace'),
    );
    await chooseOption(user, 'Frequency', 'Every Day');
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '08:30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    const compose = await screen.findByRole('dialog', { name: 'Compose Message' });
    const { uploads } = mockUploads(() => ({
      status: 201,
      body: uploadImageResponse.parse({
        message: 'Image uploaded',
        data: { file_id: 'F001', url: 'https://files.example/F001', name: 'pic.png' },
      }),
    }));
    await write(user, 'This week :wave:');
    await userEvent
      .setup({ applyAccept: false })
      .upload(
        compose.querySelector<HTMLInputElement>('input[type="file"]')!,
        fakeFile('pic.png', 'image/png'),
      );
    const preview = within(compose).getByRole('group', { name: 'Preview' });
    // The admin's name, not the bot's; the image under the text.
    await waitFor(() => expect(within(preview).getByText('Ada Lovelace')).toBeInTheDocument());
    expect(within(preview).queryByText('APP')).toBeNull();
    expect(await within(preview).findByRole('img', { name: 'Image 1: pic.png' })).toBeInTheDocument();
    expect(within(preview).getByRole('img', { name: 'wave' })).toHaveTextContent('👋');

    await user.click(within(compose).getByRole('button', { name: 'Send a test to me' }));
    const toast = (await screen.findByText(refusal, {}, { timeout: 5000 })).closest(
      '.mantine-Notification-root',
    );
    expect(within(toast as HTMLElement).getByText('Failure')).toBeInTheDocument();
    expect(screen.queryByText('Test sent')).toBeNull();
    expect(uploads).toHaveLength(1);
    const body = testMessageBody.parse(api.callsTo('POST', '/quickaction/sendtest')[0]!.body);
    expect(body).toMatchObject({
      sender: 'admin',
      admin_user: 'U001',
      text: 'This week :wave:',
      images: ['F001'],
    });
    expect(api.callsTo('POST', '/actions/createscheduled')).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Compose Message' })).toBeInTheDocument();
    // The button is back once the answer came.
    await waitFor(() =>
      expect(within(compose).getByRole('button', { name: 'Send a test to me' })).toBeEnabled(),
    );
  });

  it("creates an every-day schedule; the server's 400 is shown, then a success adds the row", async () => {
    const created = row(12, {
      kind: 'schedule',
      trigger_name: 'Daily standup',
      frequency: 'Everyday',
      time: '08:30',
      days_date: '',
      message: 'Standup time',
      htmlmessage: '<p>Standup time</p>',
      send_dm: false,
      next_run: '2026-11-23T07:30:00.000Z',
    });
    let calls = 0;
    const api = setup({
      'POST /actions/createscheduled': () =>
        ++calls === 1
          ? {
              status: 400,
              body: { statusCode: 400, code: 'VALIDATION_ERROR', message: ACTION_TEXTS.invalidDateTime },
            }
          : {
              status: 201,
              body: fixture(actionResponse, { message: 'Message scheduled successfully', data: created }),
            },
    });
    const { user, dialog, table } = await openWizard();
    await user.type(within(dialog).getByRole('textbox', { name: 'Message Heading' }), 'Daily standup');
    await user.click(within(dialog).getByRole('radio', { name: 'Bot' }));
    await chooseOption(user, 'Frequency', 'Every Day');
    fireEvent.change(within(dialog).getByLabelText('Time'), { target: { value: '08:30' } });
    await user.click(within(dialog).getByRole('button', { name: 'Next' }));
    const compose = await screen.findByRole('dialog', { name: 'Compose Message' });
    expect(within(compose).queryByRole('checkbox', { name: 'Send DM to new user' })).toBeNull();
    await write(user, 'Standup time');
    await user.click(within(compose).getByRole('button', { name: 'create Trigger' }));
    expect(await within(compose).findByText(ACTION_TEXTS.scheduleTarget)).toBeInTheDocument();
    await user.click(within(compose).getByRole('checkbox', { name: 'Send DM to all members of workspace' }));
    await user.click(within(compose).getByRole('button', { name: 'create Trigger' }));
    const toast = (await screen.findByText(ACTION_TEXTS.invalidDateTime)).closest(
      '.mantine-Notification-root',
    );
    expect(within(toast as HTMLElement).getByText('Failure')).toBeInTheDocument();
    await user.click(within(compose).getByRole('button', { name: 'create Trigger' }));
    expect(await screen.findByText('Message scheduled successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const body = createScheduledBody.parse(api.callsTo('POST', '/actions/createscheduled')[1]!.body);
    expect(body).toMatchObject({
      trigger_name: 'Daily standup',
      frequency: 'Everyday',
      time: '08:30',
      sendtoworkspace: true,
      message: 'Standup time',
    });
    expect(names(table)[0]).toBe('Daily standup');
  });
});
