import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  activityRowsResponse,
  BOT_NAME_MESSAGES,
  botDetailsResponse,
  channelActivityResponse,
  memberActivityResponse,
  summaryCardsResponse,
  taskResponse,
  tasksResponse,
  userAdminResponse,
} from '@flywheel/shared/analytics';
import { messageResponse } from '@flywheel/shared/http';
import { reply } from '../../testing/fixture.ts';
import { deferred, mockApi, type MockHandler, type MockReply } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { EMPTY_CONTENT, workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { moveTask } from './api/task-mutations.ts';

const me = { body: { ...loginResponse(), token: undefined } };
const ROWS = [
  { date_of_data: '2026-03-01', messages: 5, replies: 2, reactions: 7 },
  { date_of_data: '2026-03-02', messages: 3, replies: 1, reactions: 0 },
];
const CHANNELS = [
  { channel_id: 'C1', channel_name: 'general', messages: 10, replies: 3, reactions: 4, activity: 17 },
  {
    channel_id: 'C2',
    channel_name: 'announcements-and-news',
    messages: 30,
    replies: 0,
    reactions: 9,
    activity: 39,
  },
];
const MEMBERS = [
  {
    member_id: 'U1',
    real_name: 'Ada Lovelace',
    display_name: 'ada',
    first_name: 'Ada',
    email: 'ada@x.io',
    messages: 1,
    replies: 1,
    reactions: 1,
    activity: 3,
  },
  {
    member_id: 'U2',
    real_name: 'Grace Hopper',
    display_name: 'grace',
    first_name: 'Grace',
    email: 'g@x.io',
    messages: 9,
    replies: 4,
    reactions: 2,
    activity: 15,
  },
];
const TASKS = [
  { id: 1, title: 'Plan meetup', description: 'Book a room', status: 'todo' as const, position: 0 },
  { id: 2, title: 'Write newsletter', description: '', status: 'todo' as const, position: 1 },
  { id: 3, title: 'Welcome new members', description: '', status: 'doing' as const, position: 0 },
];

function homeMocks(over: Record<string, MockReply | MockHandler> = {}) {
  return {
    'GET /homepage/getcardsdata/T001': reply(summaryCardsResponse, {
      data: [
        { name: 'Messages', val: 120, percent: 12.5, sign: '+' },
        { name: 'New Members', val: 3, percent: 40, sign: '-' },
      ],
    }),
    'GET /homepage/workspacehighlights/T001': reply(activityRowsResponse, { data: ROWS }),
    'GET /homepage/getchanneldata/T001': reply(channelActivityResponse, { data: CHANNELS }),
    'POST /homepage/getuseradmindata': reply(userAdminResponse, {
      data: { admin: 25, members: 75, admin_percent: 25, members_percent: 75 },
    }),
    'POST /homepage/getmostactivemembers': reply(memberActivityResponse, { data: MEMBERS }),
    'GET /alterbot/getbotdetails/T001': reply(botDetailsResponse, {
      data: { bot_name: 'flywheel', bot_image: null, use_custom: true },
    }),
    'GET /homepage/gettasks/T001': reply(tasksResponse, { data: TASKS }),
    ...over,
  };
}

function setup(over: Parameters<typeof homeMocks>[0] = {}) {
  seedSession();
  return mockApi({ 'GET /auth/me': me, ...workspaceDataMocks('T001'), ...homeMocks(over) });
}

const card = (name: string) => screen.findByRole('region', { name }, { timeout: 8000 });
const fail = { status: 500, body: { statusCode: 500, code: 'X', message: 'boom' } };
const empty = { body: { data: [] } };

// The dashboard is a lazy chunk: compile it once before the tests, so their timeouts measure the page.
beforeAll(() => import('./HomeDashboard.tsx'), 60_000);

describe('Home page', () => {
  it('shows every card with data: summary cards with signs, charts, Top Channels, members sorted by total', async () => {
    const api = setup();
    renderApp('/dashboard/home');
    const messages = await screen.findByRole('group', { name: 'Messages' }, { timeout: 8000 });
    expect(within(messages).getByText('120')).toBeInTheDocument();
    expect(within(messages).getByText('+12.5%')).toBeInTheDocument();
    expect(within(screen.getByRole('group', { name: 'New Members' })).getByText('-40%')).toBeInTheDocument();

    expect(within(await card('Workspace Highlights')).getByTestId('highlights-chart')).toBeInTheDocument();
    expect(within(await card('Activity')).getByTestId('channel-activity-chart')).toBeInTheDocument();
    expect(
      within(await card('Reactions & Messages')).getByTestId('reactions-messages-chart'),
    ).toBeInTheDocument();
    const top = await card('Top Channels');
    // Busiest first, names cut to 12 characters with an ellipsis; the title keeps the whole name.
    const names = within(top)
      .getAllByTitle(/^#/)
      .map((e) => [e.textContent, e.getAttribute('title')]);
    expect(names).toEqual([
      ['#announceme…', '#announcements-and-news'],
      ['#general', '#general'],
    ]);
    expect(within(top).getByRole('link', { name: /More Channels/ })).toHaveAttribute(
      'href',
      '/dashboard/analytics#channel',
    );
    const content = await card('Content Generation');
    expect(within(content).getByText('Admin 25%')).toBeInTheDocument();
    expect(within(content).getByText('Members 75%')).toBeInTheDocument();

    const table = await screen.findByRole('table', { name: 'Top Performing Members' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Display name', 'First name', 'Messages', 'Replies', 'Reactions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[0]!.textContent)).toEqual(['grace', 'ada']);

    // Default time filter: last 7 days, as a query string or a static time_filter.
    expect(api.calls.find((c) => c.path === '/homepage/workspacehighlights/T001')).toBeDefined();
    expect(
      api.fetchMock.mock.calls.some(([u]) => String(u).includes('workspacehighlights/T001?days=7')),
    ).toBe(true);
    expect(api.callsTo('POST', '/homepage/getmostactivemembers')[0]?.body).toEqual({
      team_id: 'T001',
      time_filter: { type: 'static', days: 7 },
    });
  });

  it("shows loading states, then 'No Data Found' everywhere on an empty workspace", async () => {
    setup({
      'GET /homepage/getcardsdata/T001': empty,
      'GET /homepage/workspacehighlights/T001': { ...empty, delayMs: 300 },
      'GET /homepage/getchanneldata/T001': empty,
      'POST /homepage/getuseradmindata': reply(userAdminResponse, { data: EMPTY_CONTENT }),
      'POST /homepage/getmostactivemembers': empty,
      'GET /homepage/gettasks/T001': empty,
    });
    renderApp('/dashboard/home');
    expect(
      await screen.findByRole('status', { name: 'Loading Workspace Highlights' }, { timeout: 8000 }),
    ).toBeInTheDocument();
    for (const name of [
      'Workspace Highlights',
      'Activity',
      'Top Channels',
      'Reactions & Messages',
      'Content Generation',
      'Top Performing Members',
    ]) {
      const c = await card(name);
      expect(await within(c).findByText('No Data Found')).toBeInTheDocument();
    }
    expect(within(await card('Tasks')).getAllByText('Nothing here')).toHaveLength(3);
  });

  it("toasts 'Failed to get data!' when a card fails, and again when its time filter fails", async () => {
    setup({ 'GET /homepage/getchanneldata/T001': fail });
    renderApp('/dashboard/home');
    expect((await screen.findAllByText('Failed to get data!', {}, { timeout: 8000 })).length).toBeGreaterThan(
      0,
    );
    const activity = await card('Activity');
    await within(activity).findByText('Failed to get data!');
    expect(within(activity).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('lets the time filter pick a custom range, refusing a start after the end or a day in the future', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/home');
    const highlights = await card('Workspace Highlights');
    await within(highlights).findByTestId('highlights-chart');
    await user.click(within(highlights).getByRole('combobox', { name: 'Workspace Highlights time filter' }));
    await user.click(await screen.findByRole('option', { name: 'Last 90 days' }));
    await waitFor(() =>
      expect(
        api.fetchMock.mock.calls.some(([u]) => String(u).includes('workspacehighlights/T001?days=90')),
      ).toBe(true),
    );
    await user.click(within(highlights).getByRole('combobox', { name: 'Workspace Highlights time filter' }));
    await user.click(await screen.findByRole('option', { name: 'Custom range…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose Start and End Dates' });
    const submit = within(dialog).getByRole('button', { name: 'Submit' });
    fireEvent.change(within(dialog).getByLabelText('Start date'), { target: { value: '2026-02-10' } });
    fireEvent.change(within(dialog).getByLabelText('End date'), { target: { value: '2026-02-01' } });
    expect(submit).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText('End date'), { target: { value: '2999-01-01' } });
    expect(submit).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText('End date'), { target: { value: '2026-02-20' } });
    expect(submit).toBeEnabled();
    await user.click(submit);
    await waitFor(() =>
      expect(
        api.fetchMock.mock.calls.some(([u]) =>
          String(u).includes('workspacehighlights/T001?start_date=2026-02-10&end_date=2026-02-20'),
        ),
      ).toBe(true),
    );
  });
});

describe('Customise Bot', () => {
  it('checks the name 200 ms after typing stops and on blur, and keeps Submit disabled while invalid', async () => {
    setup();
    renderApp('/dashboard/home');
    const bot = await card('Customise Bot');
    const input = await within(bot).findByRole('textbox', { name: 'Bot name' });
    const submit = within(bot).getByRole('button', { name: 'Submit' });
    expect(submit).toBeEnabled();
    expect(within(bot).getByRole('radio', { name: 'Use Flywheel Image' })).toBeChecked();

    const cases: [string, string][] = [
      ['a', BOT_NAME_MESSAGES.length],
      ['a'.repeat(21), BOT_NAME_MESSAGES.length],
      ['-bot', BOT_NAME_MESSAGES.edges],
      ['bot.', BOT_NAME_MESSAGES.edges],
      ['my--bot', BOT_NAME_MESSAGES.doubles],
      ['my._bot', BOT_NAME_MESSAGES.doubles],
      ['my bot!', BOT_NAME_MESSAGES.charset],
    ];
    for (const [name, message] of cases) {
      fireEvent.change(input, { target: { value: name } });
      expect(submit).toBeDisabled();
      expect(await within(bot).findByText(message)).toBeInTheDocument();
    }
    // Empty: Submit disabled, no message.
    fireEvent.change(input, { target: { value: '' } });
    expect(submit).toBeDisabled();
    await waitFor(() => expect(within(bot).queryByText(/Username should/)).toBeNull());

    // No message before 200 ms; at once on blur.
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.change(input, { target: { value: 'x' } });
    act(() => vi.advanceTimersByTime(100));
    expect(within(bot).queryByText(BOT_NAME_MESSAGES.length)).toBeNull();
    act(() => vi.advanceTimersByTime(150));
    expect(within(bot).getByText(BOT_NAME_MESSAGES.length)).toBeInTheDocument();
    fireEvent.change(input, { target: { value: 'ok.bot_1' } });
    fireEvent.change(input, { target: { value: 'ok..' } });
    fireEvent.blur(input);
    expect(within(bot).getByText(BOT_NAME_MESSAGES.edges)).toBeInTheDocument();
    vi.useRealTimers();

    fireEvent.change(input, { target: { value: 'team.bot-1' } });
    expect(submit).toBeEnabled();
    await waitFor(() => expect(within(bot).queryByText(/Username should/)).toBeNull());

    // Reset goes back to the saved values.
    fireEvent.click(within(bot).getByRole('radio', { name: 'Use Workspace Image' }));
    fireEvent.click(within(bot).getByRole('button', { name: 'Reset' }));
    expect(input).toHaveValue('flywheel');
    expect(within(bot).getByRole('radio', { name: 'Use Flywheel Image' })).toBeChecked();
  });

  it("uploads {botName, team_id, use_custom} and says 'Bot Details Uploaded Successfully!'", async () => {
    const api = setup({
      'POST /alterbot/uploadinfo': reply(botDetailsResponse, {
        data: { bot_name: 'community-bot', bot_image: null, use_custom: false },
        message: 'Bot Details Uploaded Successfully!',
      }),
    });
    const { user } = renderApp('/dashboard/home');
    const bot = await card('Customise Bot');
    const input = await within(bot).findByRole('textbox', { name: 'Bot name' });
    await user.clear(input);
    await user.type(input, 'community-bot');
    await user.click(within(bot).getByRole('radio', { name: 'Use Workspace Image' }));
    await user.click(within(bot).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Bot Details Uploaded Successfully!')).toBeInTheDocument();
    expect(api.callsTo('POST', '/alterbot/uploadinfo')[0]?.body).toEqual({
      botName: 'community-bot',
      team_id: 'T001',
      use_custom: false,
    });
    expect(within(bot).getByDisplayValue('community-bot')).toBeInTheDocument();
  });

  it("shows the bot image at the address the server gives (the origin the page is on), and the upload's answer after", async () => {
    // The server names the image on the origin the browser asked from (127.0.0.1 here, not localhost).
    const onPageOrigin = 'http://127.0.0.1:5173/api/v0/public/flywheel-bot.png';
    const icon = 'https://avatars.slack-edge.com/2026-01-01/team_132.png';
    const saved = { bot_name: 'flywheel', bot_image: icon, use_custom: false };
    // The reload after saving waits: what the card shows meanwhile is the upload's own answer.
    const reload = deferred<MockReply>();
    let uploaded = false;
    setup({
      'GET /alterbot/getbotdetails/T001': () =>
        uploaded
          ? reload.promise
          : reply(botDetailsResponse, {
              data: { bot_name: 'flywheel', bot_image: onPageOrigin, use_custom: true },
            }),
      'POST /alterbot/uploadinfo': () => {
        uploaded = true;
        return reply(botDetailsResponse, { data: saved, message: 'Bot Details Uploaded Successfully!' });
      },
    });
    const { user } = renderApp('/dashboard/home');
    const bot = await card('Customise Bot');
    await waitFor(() =>
      expect(within(bot).getByRole('img', { name: 'Bot image' })).toHaveAttribute('src', onPageOrigin),
    );
    // Choosing the other image shows no stale picture until it is saved; saved, the server's new address.
    await user.click(within(bot).getByRole('radio', { name: 'Use Workspace Image' }));
    expect(within(bot).queryByRole('img', { name: 'Bot image' })).toBeNull();
    await user.click(within(bot).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Bot Details Uploaded Successfully!')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(bot).getByRole('img', { name: 'Bot image' })).toHaveAttribute('src', icon),
    );
    expect(document.querySelector('img[src*="localhost"]')).toBeNull();
    reload.release(reply(botDetailsResponse, { data: saved }));
  });

  it("reverts to the saved values and says 'Failed to upload bot details!' when the upload fails", async () => {
    setup({ 'POST /alterbot/uploadinfo': fail });
    const { user } = renderApp('/dashboard/home');
    const bot = await card('Customise Bot');
    const input = await within(bot).findByRole('textbox', { name: 'Bot name' });
    await user.clear(input);
    await user.type(input, 'renamed');
    await user.click(within(bot).getByRole('radio', { name: 'Use Workspace Image' }));
    await user.click(within(bot).getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Failed to upload bot details!')).toBeInTheDocument();
    expect(input).toHaveValue('flywheel');
    expect(within(bot).getByRole('radio', { name: 'Use Flywheel Image' })).toBeChecked();
  });
});

describe('Task board', () => {
  it('creates, edits, deletes and moves tasks with the keyboard', async () => {
    const api = setup({
      'POST /homepage/createtasks': reply(taskResponse, {
        data: { id: 9, title: 'New', description: '', status: 'todo', position: 2 },
      }),
      'PATCH /homepage/edittask': reply(taskResponse, { data: TASKS[0]! }),
      'PATCH /homepage/droptask': reply(tasksResponse, { data: TASKS }),
      'DELETE /homepage/deletetask/2/T001': reply(messageResponse, { message: 'ok' }),
    });
    const { user } = renderApp('/dashboard/home');
    const board = await card('Tasks');
    const todo = await within(board).findByRole('list', { name: 'To do' });
    expect(
      within(todo)
        .getAllByRole('listitem')
        .map((i) => i.getAttribute('aria-label')),
    ).toEqual(['Plan meetup', 'Write newsletter']);

    await user.click(within(board).getByRole('button', { name: 'New task' }));
    const dialog = await screen.findByRole('dialog', { name: 'New task' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Host AMA');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/homepage/createtasks')[0]?.body).toEqual({
        team_id: 'T001',
        title: 'Host AMA',
        description: '',
        status: 'todo',
      }),
    );

    await user.click(within(board).getByRole('button', { name: 'Edit Plan meetup' }));
    const edit = await screen.findByRole('dialog', { name: 'Edit task' });
    const title = within(edit).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.type(title, 'Plan the meetup');
    await user.click(within(edit).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.callsTo('PATCH', '/homepage/edittask')[0]?.body).toEqual({
        team_id: 'T001',
        id: 1,
        title: 'Plan the meetup',
        description: 'Book a room',
      }),
    );

    // Keyboard: ArrowRight moves a task to the next column (top), ArrowDown one place down.
    fireEvent.keyDown(within(board).getByRole('listitem', { name: 'Write newsletter' }), {
      key: 'ArrowRight',
    });
    await waitFor(() =>
      expect(api.callsTo('PATCH', '/homepage/droptask')[0]?.body).toEqual({
        team_id: 'T001',
        id: 2,
        status: 'doing',
        position: 0,
      }),
    );
    fireEvent.click(within(board).getByRole('button', { name: 'Delete Write newsletter' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/homepage/deletetask/2/T001')).toHaveLength(1));
  });

  it('moves a task dropped on another column (drag and drop) to the end of that column', async () => {
    const api = setup({ 'PATCH /homepage/droptask': reply(tasksResponse, { data: TASKS }) });
    renderApp('/dashboard/home');
    const board = await card('Tasks');
    const task = await within(board).findByRole('listitem', { name: 'Plan meetup' });
    const store = new Map<string, string>();
    const dataTransfer = {
      setData: (k: string, v: string) => store.set(k, v),
      getData: (k: string) => store.get(k) ?? '',
      effectAllowed: 'all',
    };
    fireEvent.dragStart(task, { dataTransfer });
    fireEvent.dragOver(within(board).getByRole('list', { name: 'Done' }), { dataTransfer });
    fireEvent.drop(within(board).getByRole('list', { name: 'Done' }), { dataTransfer });
    await waitFor(() =>
      expect(api.callsTo('PATCH', '/homepage/droptask')[0]?.body).toEqual({
        team_id: 'T001',
        id: 1,
        status: 'done',
        position: 0,
      }),
    );
  });

  it('renumbers columns when a task moves', () => {
    const tasks = TASKS as Parameters<typeof moveTask>[0];
    const moved = moveTask(tasks, 1, 'doing', 1);
    const col = (s: string) =>
      moved
        .filter((t) => t.status === s)
        .sort((a, b) => a.position - b.position)
        .map((t) => [t.id, t.position]);
    expect(col('todo')).toEqual([[2, 0]]);
    expect(col('doing')).toEqual([
      [3, 0],
      [1, 1],
    ]);
    expect(col('done')).toEqual([]);
  });
});
