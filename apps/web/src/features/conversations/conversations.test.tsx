import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CONVERSATION_TEXTS,
  mentionsResponse,
  searchResponse,
  summaryResponse,
  threadsResponse,
  uniqueReactionsResponse,
  uniqueRepliesResponse,
  type Thread,
} from '@flywheel/shared/conversations';
import { FORM_TEXTS, formsListResponse } from '@flywheel/shared/forms';
import { messageResponse } from '@flywheel/shared/http';
import { reply } from '../../testing/fixture.ts';
import { formRow, formSent } from '../../testing/form-fixtures.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

const me = { body: { ...loginResponse(), token: undefined } };
const T0 = Date.parse('2026-11-20T10:00:00Z');

const thread = (ts: string, extra: Partial<Thread> = {}): Thread => ({
  ts,
  channel_id: 'C001',
  channel_name: 'general',
  sender: 'Ada Lovelace',
  sender_id: 'U001',
  content: `Launch plan ${ts} <script>alert(1)</script> for @Alan Turing`,
  posted_at: T0,
  edited: false,
  replies: 3,
  reactions: 2,
  is_pinned: false,
  permalink: `https://acme.slack.com/archives/C001/p${ts.replace('.', '')}`,
  ...extra,
});
const THREADS = [
  thread('1763632800.000100'),
  thread('1763632700.000100', { sender: 'Grace Hopper', replies: 0 }),
];

function setup(extra: Parameters<typeof mockApi>[0] = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /actions/getthreads/T001/*': reply(threadsResponse, { data: THREADS, next_cursor: null }),
    'GET /actions/getuniquereplies/T001/1763632800.000100': reply(uniqueRepliesResponse, {
      data: {
        total_replies: 3,
        unique_replies: 2,
        replies: [
          {
            user_id: 'U002',
            name: 'Alan Turing',
            reply: 'On it',
            ts: '1763632801.000100',
            posted_at: T0 + 1000,
          },
          {
            user_id: 'U003',
            name: 'Grace Hopper',
            reply: 'Me too',
            ts: '1763632802.000100',
            posted_at: T0 + 2000,
          },
          {
            user_id: 'U002',
            name: 'Alan Turing',
            reply: 'Done',
            ts: '1763632803.000100',
            posted_at: T0 + 3000,
          },
        ],
      },
    }),
    'GET /actions/getuniquereactions/T001/1763632800.000100': reply(uniqueReactionsResponse, {
      data: {
        total_reactions: 2,
        unique_reactions: 1,
        reactions: [
          { user_id: 'U004', name: 'Katherine Johnson', reaction: 'tada' },
          { user_id: 'U004', name: 'Katherine Johnson', reaction: 'eyes' },
        ],
      },
    }),
    'GET /actions/getforms/T001': reply(formsListResponse, { data: [formRow(7, 'Pulse')] }),
    'POST /actions/executeform': formSent(7),
    ...extra,
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('Threads tab', () => {
  it('lists threads with readable content as text, opens the detail with its numbers and people', async () => {
    const api = setup();
    const { user, container } = renderApp('/dashboard/actions/threads');
    const table = await screen.findByRole('table', { name: 'Threads' }, { timeout: 8000 });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    expect(
      within(table).getByText(/Launch plan 1763632800.000100 <script>alert\(1\)<\/script> for @Alan Turing/),
    ).toBeInTheDocument();
    expect(container.querySelector('script')).toBeNull();
    // The default window is 7 days, the workspace.
    const [call] = api.callsTo('GET', api.calls.find((c) => c.path.startsWith('/actions/getthreads/'))!.path);
    const [, , , , start, end, scope] = call!.path.split('/');
    expect(Date.parse(decodeURIComponent(end!)) - Date.parse(decodeURIComponent(start!))).toBe(
      7 * 86_400_000,
    );
    expect(scope).toBe('workspace');

    await user.click(within(table).getByRole('button', { name: "Details of Ada Lovelace's thread" }));
    const dialog = await screen.findByRole('dialog', { name: 'Thread details' });
    await waitFor(() => expect(within(dialog).getByTestId('# of replies')).toHaveTextContent('3'));
    expect(within(dialog).getByTestId('# of unique people replies')).toHaveTextContent('2');
    const sendDm = within(dialog).getByRole('button', { name: 'Send DM' });
    expect(sendDm).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Select Alan Turing: On it' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Select Grace Hopper: Me too' }));
    expect(sendDm).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Add Tag' })).toBeEnabled();
    expect(within(dialog).getByRole('button', { name: 'Send Form' })).toBeEnabled();

    await user.click(within(dialog).getByRole('tab', { name: 'Reactions' }));
    await waitFor(() => expect(within(dialog).getByTestId('# of reaction')).toHaveTextContent('2'));
    expect(within(dialog).getByTestId('# of unique people reaction')).toHaveTextContent('1');

    // Send Form to the people of the selected reactions (each person once); the selection is cleared after.
    const sendForm = within(dialog).getByRole('button', { name: 'Send Form' });
    expect(sendForm).toBeDisabled();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Select Katherine Johnson :tada:' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Select Katherine Johnson :eyes:' }));
    await user.click(sendForm);
    const popup = await screen.findByRole('dialog', { name: 'Send Form' });
    expect(within(popup).getByText('To 1 member: Katherine Johnson')).toBeInTheDocument();
    await user.click(within(popup).getByRole('combobox', { name: 'Form' }));
    await user.click(await screen.findByRole('option', { name: 'Pulse' }));
    await user.click(within(popup).getByRole('button', { name: 'Confirm' }));
    expect(await screen.findByText(FORM_TEXTS.sent)).toBeInTheDocument();
    expect(api.callsTo('POST', '/actions/executeform').map((c) => c.body)).toEqual([
      { team_id: 'T001', master_form_id: 7, send_ids: { members: ['U004'], channels: [], tags: [] } },
    ]);
    await waitFor(() => expect(sendForm).toBeDisabled());
  });

  /** A search hit: Ada's thread that says 'zebracorn'. */
  const zebracornHit = {
    objectID: 'C001-1763632800.000100',
    ts: '1763632800.000100',
    thread_ts: '1763632800.000100',
    user_name: 'Ada Lovelace',
    channel_name: 'general',
    channel_id: 'C001',
    content: 'Zebracorn launch plan',
    is_thread: true,
    posted_at: T0,
    permalink: 'https://acme.slack.com/archives/C001/p1763632800000100',
  };

  it('sorting by Replies asks the server over the whole window and keeps its order across pages', async () => {
    // Newest first, the 50 loaded hold few replies; the server's order by replies starts with older threads.
    const newest = thread('1763632900.000100', { replies: 1 });
    const most = thread('1763000000.000100', { replies: 40, sender: 'Alan Turing', posted_at: T0 - 7e8 });
    const second = thread('1763100000.000100', { replies: 12, sender: 'Grace Hopper', posted_at: T0 - 6e8 });
    const third = thread('1763200000.000100', {
      replies: 12,
      sender: 'Katherine Johnson',
      posted_at: T0 - 5e8,
    });
    const asked: URLSearchParams[] = [];
    setup({
      'GET /actions/getthreads/T001/*': (_body, { url }) => {
        const q = new URL(url, 'http://localhost').searchParams;
        asked.push(q);
        if (q.get('sort') !== 'replies')
          return reply(threadsResponse, { data: [newest, ...THREADS], next_cursor: 'older' });
        return q.get('cursor') === 'by-replies-2'
          ? reply(threadsResponse, { data: [third], next_cursor: null })
          : reply(threadsResponse, { data: [most, second], next_cursor: 'by-replies-2' });
      },
    });
    const { user } = renderApp('/dashboard/actions/threads');
    const table = await screen.findByRole('table', { name: 'Threads' }, { timeout: 8000 });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    expect(screen.getByRole('button', { name: 'Load older threads' })).toBeInTheDocument();

    await user.click(within(table).getByRole('button', { name: 'Replies' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    const order = () =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.textContent?.match(/Launch plan (\S+)/)?.[1]);
    expect(order()).toEqual([most.ts, second.ts]);
    expect(within(table).getByRole('columnheader', { name: 'Replies' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(Object.fromEntries(asked.at(-1)!)).toEqual({ sort: 'replies', direction: 'desc' });

    // The next page continues the server's order (its cursor with the same sort), not re-sorted here.
    await user.click(screen.getByRole('button', { name: 'Load more threads' }));
    await waitFor(() => expect(order()).toEqual([most.ts, second.ts, third.ts]));
    expect(Object.fromEntries(asked.at(-1)!)).toEqual({
      sort: 'replies',
      direction: 'desc',
      cursor: 'by-replies-2',
    });
    expect(screen.queryByRole('button', { name: 'Load more threads' })).toBeNull();
  });

  it("search shows the spinner, then 'No results found' or the hits", async () => {
    setup({
      'GET /actions/searchthreads/T001': (_b, { url }) =>
        new URL(url, 'http://x').searchParams.get('q') === 'nothing'
          ? reply(searchResponse, { data: [] })
          : reply(searchResponse, { data: [zebracornHit] }),
    });
    const { user } = renderApp('/dashboard/actions/threads');
    const box = await screen.findByRole('textbox', { name: 'Search threads' }, { timeout: 8000 });
    await user.type(box, 'nothing{Enter}');
    const results = await screen.findByLabelText('Search results');
    expect(within(results).getByLabelText('Searching')).toBeInTheDocument();
    expect(
      await within(results).findByText(CONVERSATION_TEXTS.noResults, {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    await user.clear(box);
    await user.type(box, 'zebracorn{Enter}');
    expect(
      await within(results).findByText('Zebracorn launch plan', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
  });

  it('pressing Search again with the same word searches again (a message that came in since is found)', async () => {
    let calls = 0;
    setup({
      'GET /actions/searchthreads/T001': () => {
        calls += 1;
        return reply(searchResponse, { data: calls === 1 ? [] : [zebracornHit] });
      },
    });
    const { user } = renderApp('/dashboard/actions/threads');
    const box = await screen.findByRole('textbox', { name: 'Search threads' }, { timeout: 8000 });
    await user.type(box, 'zebracorn{Enter}');
    const results = await screen.findByLabelText('Search results');
    expect(
      await within(results).findByText(CONVERSATION_TEXTS.noResults, {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(within(results).getByLabelText('Searching')).toBeInTheDocument();
    expect(
      await within(results).findByText('Zebracorn launch plan', {}, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it("summarize and copy: 'Summary copied' for 3 s", async () => {
    const api = setup({
      'POST /actions/summarizeThread': reply(summaryResponse, {
        data: {
          summary: 'Extractive summary (no AI model is configured): ...',
          kind: 'extractive',
          model: null,
        },
      }),
    });
    const { user } = renderApp('/dashboard/actions/threads');
    // user-event puts its clipboard on navigator.
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    const table = await screen.findByRole('table', { name: 'Threads' }, { timeout: 8000 });
    await user.click(await within(table).findByRole('button', { name: "Summarize Ada Lovelace's thread" }));
    const dialog = await screen.findByRole('dialog', { name: 'Thread Summary' });
    expect(await within(dialog).findByTestId('thread-summary')).toHaveTextContent('Extractive summary');
    expect(api.callsTo('POST', '/actions/summarizeThread')[0]!.body).toEqual({
      team_id: 'T001',
      threadParentTs: '1763632800.000100',
      channel_id: 'C001',
    });
    await user.click(within(dialog).getByRole('button', { name: CONVERSATION_TEXTS.copySummary }));
    expect(writeText).toHaveBeenCalledWith('Extractive summary (no AI model is configured): ...');
    expect(await within(dialog).findByText(CONVERSATION_TEXTS.summaryCopied)).toBeInTheDocument();
    await waitFor(() => expect(within(dialog).queryByText(CONVERSATION_TEXTS.summaryCopied)).toBeNull(), {
      timeout: 4000,
    });
  });

  it("an extractive summary reads as the server words it: 'no replies yet', '1 reply from 1 person', line by line", async () => {
    // As apps/server's extractiveSummary writes them (conversations.test.ts checks the wording there).
    const note =
      'Extractive summary (no AI model is configured): the replies most representative of the thread, picked from its own words.';
    const summaries: Record<string, string> = {
      '1763632700.000100': [
        note,
        'Grace Hopper started it in #general; no replies yet.',
        'Started with: "Launch plan"',
        'Open questions: none.',
      ].join('\n'),
      '1763632800.000100': [
        note,
        'Ada Lovelace started it in #general; 1 reply from 1 person (Alan Turing).',
        'Started with: "Launch plan"',
        'Most representative replies:',
        '- Alan Turing: "On it"',
        'Open questions: none.',
      ].join('\n'),
    };
    setup({
      'POST /actions/summarizeThread': (body) =>
        reply(summaryResponse, {
          data: {
            summary: summaries[(body as { threadParentTs: string }).threadParentTs]!,
            kind: 'extractive',
            model: null,
          },
        }),
    });
    const { user } = renderApp('/dashboard/actions/threads');
    const table = await screen.findByRole('table', { name: 'Threads' }, { timeout: 8000 });
    const shown = async (who: string) => {
      await user.click(await within(table).findByRole('button', { name: `Summarize ${who}'s thread` }));
      const dialog = await screen.findByRole('dialog', { name: 'Thread Summary' });
      expect(within(dialog).getByText('Extractive summary')).toBeInTheDocument();
      const text = await within(dialog).findByTestId('thread-summary');
      // The lines stay lines (pre-wrap), whole.
      expect(text).toHaveStyle({ whiteSpace: 'pre-wrap' });
      const lines = text.textContent!.split('\n');
      await user.click(within(dialog).getByRole('button', { name: 'Close' }));
      await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Thread Summary' })).toBeNull());
      return lines;
    };
    const none = await shown('Grace Hopper');
    expect(none[1]).toBe('Grace Hopper started it in #general; no replies yet.');
    expect(none.join('\n')).not.toMatch(/\b0 repl/);
    const one = await shown('Ada Lovelace');
    expect(one[1]).toBe('Ada Lovelace started it in #general; 1 reply from 1 person (Alan Turing).');
    expect(one.join('\n')).not.toMatch(/1 replies|1 people/);
  });
});

describe('Posts tab', () => {
  it('pin toggles: pin when not pinned, then unpin', async () => {
    const api = setup({
      'POST /quickaction/pinpost': reply(messageResponse, { message: 'Message pinned' }),
      'POST /quickaction/unpinpost': reply(messageResponse, { message: 'Message unpinned' }),
    });
    const { user } = renderApp('/dashboard/actions/posts');
    const pin = await screen.findByRole('button', { name: "Pin Ada Lovelace's post" }, { timeout: 8000 });
    await user.click(pin);
    const unpin = await screen.findByRole('button', { name: "Unpin Ada Lovelace's post" });
    expect(api.callsTo('POST', '/quickaction/pinpost')[0]!.body).toEqual({
      team_id: 'T001',
      channel_id: 'C001',
      ts: '1763632800.000100',
    });
    await user.click(unpin);
    await waitFor(() => expect(api.callsTo('POST', '/quickaction/unpinpost')).toHaveLength(1));
    expect(screen.getAllByRole('link', { name: /in Slack/ })[0]).toHaveAttribute(
      'href',
      'https://acme.slack.com/archives/C001/p1763632800000100',
    );
  });
});

describe('Mentions tab', () => {
  it("a reaction replaces the reply button with 'Seen'; filters go to the server and clear", async () => {
    const api = setup({
      'GET /mentions/getmentions/T001': reply(mentionsResponse, {
        data: [
          {
            mention_id: 'C001-1763632900.000100',
            ts: '1763632900.000100',
            thread_ts: '1763632900.000100',
            channel_id: 'C001',
            channel_name: 'general',
            user_id: 'U002',
            user_name: 'Alan Turing',
            content: '@Ada Lovelace can you approve?',
            is_thread: true,
            posted_at: T0,
            permalink: 'https://acme.slack.com/archives/C001/p1763632900000100',
            seen: false,
            mentioned: ['Ada Lovelace'],
          },
        ],
        next_cursor: null,
        users: [{ value: 'U002', label: 'Alan Turing' }],
        channels: [{ value: 'C001', label: 'general' }],
      }),
      'POST /mentions/addreaction': reply(messageResponse, { message: 'Reacted with :thumbsup:' }),
    });
    const { user } = renderApp('/dashboard/actions/mentions');
    const card = await screen.findByTestId('mention-card', {}, { timeout: 8000 });
    expect(within(card).getByRole('button', { name: "Reply to Alan Turing's mention" })).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: "React to Alan Turing's mention" }));
    expect(await within(card).findByText(CONVERSATION_TEXTS.seen)).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: "Reply to Alan Turing's mention" })).toBeNull();
    expect(api.callsTo('POST', '/mentions/addreaction')[0]!.body).toMatchObject({
      mention_id: 'C001-1763632900.000100',
      name: 'thumbsup',
    });

    await user.type(screen.getByRole('textbox', { name: CONVERSATION_TEXTS.searchThread }), 'approve');
    await waitFor(() =>
      expect(api.fetchMock.mock.calls.some(([u]) => String(u).includes('getmentions/T001?q=approve'))).toBe(
        true,
      ),
    );
    const clear = screen.getByRole('button', { name: CONVERSATION_TEXTS.clearFilters });
    expect(clear).toBeEnabled();
    await user.click(clear);
    expect(screen.getByRole('textbox', { name: CONVERSATION_TEXTS.searchThread })).toHaveValue('');
  });
});
