import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dmRepliesResponse, pinBody, reactionBody } from '@flywheel/shared/delivery';
import { dataOf, tagSchema } from '@flywheel/shared/directory';
import { messageResponse } from '@flywheel/shared/http';
import {
  createTagResponse,
  actionLogRowSchema,
  channelTotalsSchema,
  dailyActivitySchema,
  memberInfoSchema,
  pieRowSchema,
  type MemberInfo,
} from '@flywheel/shared/members';
import { dataItem } from '../../lib/api-data.ts';
import { reply } from '../../testing/fixture.ts';
import { deferred, mockApi, type MockReply } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

const me = { body: { ...loginResponse(), token: undefined } };

const info = (extra: Partial<MemberInfo> = {}): MemberInfo => ({
  member_id: 'U001',
  real_name: 'Ada Lovelace',
  display_name: 'ada',
  email: 'ada@example.com',
  avatar: null,
  is_admin: false,
  is_owner: false,
  deleted: false,
  messages: 10,
  replies: 4,
  reactions: 6,
  activity: 20,
  last_active: 0,
  join_time: 1_700_000_000_000_000,
  left_at: 0,
  tags: [],
  channels: [{ channel_id: 'C001', channel_name: 'general' }],
  ...extra,
});

function setup(extra: Record<string, unknown> = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /member/memberinfo/T001/U001': reply(dataItem(memberInfoSchema), { data: info() }),
    'GET /receipts/getreplies/T001': reply(dmRepliesResponse, { data: [] }),
    'GET /member/activity/T001/U001/7': reply(dataItem(dailyActivitySchema.array()), {
      data: [{ date_of_data: '2024-05-01', messages: 1, replies: 0, reactions: 2 }],
    }),
    'GET /member/piegraph/T001/U001/7': reply(dataItem(pieRowSchema.array()), { data: [] }),
    'GET /member/channelactivity/T001/U001/7': reply(dataItem(channelTotalsSchema.array()), { data: [] }),
    'GET /member/last7days/T001/U001': reply(dataItem(actionLogRowSchema.array()), {
      data: [
        {
          ts: '1714550000.000100',
          at: 1714550000000,
          real_name: 'Ada Lovelace',
          channel_id: 'C001',
          channel_name: 'general',
          content: 'hello @Alan Turing in #general',
          activity_type: 'message',
          is_pinned: false,
        },
      ],
    }),
    ...(extra as object),
  });
}

// The Analytics tab is a lazy chunk: compile it once before the tests, so their timeouts measure the page.
beforeAll(() => import('./components/MemberAnalytics.tsx'), 60_000);

describe('Member detail page', () => {
  it('goes to /404 when the id is not a member of the workspace', async () => {
    setup({
      'GET /member/memberinfo/T001/UOTHER': {
        status: 404,
        body: { statusCode: 404, code: 'NOT_FOUND', message: 'This member is not in the workspace' },
      },
    });
    const { location } = renderApp('/dashboard/members/UOTHER');
    await waitFor(() => expect(location().pathname).toBe('/404'), { timeout: 8000 });
    expect(await screen.findByText('SORRY!')).toBeInTheDocument();
  });

  it("shows the left panel: mail-to, 'no tags found', channels, 'Not Active', totals", async () => {
    setup();
    renderApp('/dashboard/members/U001');
    expect(
      await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 8000 }),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'E-mail Ada Lovelace' })).toHaveAttribute(
      'href',
      'mailto:ada@example.com',
    );
    expect(screen.getByText('no tags found')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '+ create tag' })).toBeInTheDocument();
    expect(screen.getByText('#general')).toBeInTheDocument();
    expect(screen.getByText('Not Active')).toBeInTheDocument();
    expect(screen.getByLabelText('Total activity')).toHaveTextContent('20');
    expect(screen.getAllByRole('link', { name: 'Members' }).length).toBeGreaterThanOrEqual(2);
  });

  it("Analytics is the default tab ('No Data Found' pie); Actions lists the log with readable mentions", async () => {
    setup();
    const { user } = renderApp('/dashboard/members/U001');
    expect(await screen.findByRole('tab', { name: 'Analytics', selected: true })).toBeInTheDocument();
    expect(await screen.findByText('User Activity Per Channel')).toBeInTheDocument();
    expect((await screen.findAllByText('No Data Found')).length).toBeGreaterThan(0);
    expect(await screen.findByRole('table', { name: 'Recent Messages' })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Actions' }));
    const table = await screen.findByRole('table', { name: 'Actions' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time', 'Real Name', 'Channel Name', 'Content', 'Action']);
    expect(within(table).getByText('hello @Alan Turing in #general')).toBeInTheDocument();
  });

  it('Actions: below the log, what the member wrote back in their DM with the bot, with the send each answers', async () => {
    const api = setup({
      'GET /receipts/getreplies/T001': reply(dmRepliesResponse, {
        data: [
          {
            id: 7,
            receipt_id: 41,
            receipt_description: 'Spring meetup invite',
            action_type: 'Bulk DM',
            member_id: 'U001',
            member_name: 'Ada Lovelace',
            text: 'Count me in *for sure*',
            files: 0,
            ts: '1714550100.000100',
            channel_id: 'D001',
            in_thread: false,
            sent_at: '2026-11-20T10:00:00.000Z',
            edited: false,
          },
          {
            id: 6,
            receipt_id: null,
            receipt_description: null,
            action_type: null,
            member_id: 'U001',
            member_name: 'Ada Lovelace',
            text: 'Is there a code of conduct?',
            files: 0,
            ts: '1714540000.000100',
            channel_id: 'D001',
            in_thread: false,
            sent_at: '2026-11-19T10:00:00.000Z',
            edited: false,
          },
        ],
      }),
    });
    const { user } = renderApp('/dashboard/members/U001');
    await user.click(await screen.findByRole('tab', { name: 'Actions' }));
    const list = await screen.findByRole('list', { name: 'Replies to your messages' }, { timeout: 8000 });
    const items = within(list).getAllByRole('listitem');
    expect(within(items[0]!).getByText('Re: Bulk DM, Spring meetup invite')).toBeInTheDocument();
    expect(within(items[0]!).getByText('for sure')).toBeInTheDocument();
    expect(within(items[1]!).getByText('Wrote first (answers no message)')).toBeInTheDocument();
    const [call] = api.callsTo('GET', '/receipts/getreplies/T001');
    expect(call!.query.get('member_id')).toBe('U001');
  });

  it("Date of join explains itself when Slack gave none; dates read as on Home ('16 Nov 2023')", async () => {
    setup({
      'GET /member/memberinfo/T001/U001': reply(dataItem(memberInfoSchema), {
        data: info({ join_time: 0, history_start: '2026-07-24', last_active: 1_700_100_000_000_000 }),
      }),
    });
    renderApp('/dashboard/members/U001');
    const join = await screen.findByText('Before 24 Jul 2026', {}, { timeout: 8000 });
    expect(join).toHaveAccessibleName(
      'Before 24 Jul 2026. Joined before the history Flywheel can see (it starts on 24 Jul 2026): Slack gives no join date for earlier members.',
    );
    expect(screen.queryByText('Unknown')).toBeNull();
    expect(screen.getByText(/^16 Nov 2023$/)).toBeInTheDocument();
  });

  it('Actions: full, distinct badges; paged 10 a page, newest first; content through the shared renderer', async () => {
    const kinds = ['message', 'reply', 'reaction'] as const;
    const rows = Array.from({ length: 23 }, (_, i) => ({
      ts: `17145500${String(i).padStart(2, '0')}.000100`,
      at: 1_714_550_000_000 + i * 60_000,
      real_name: 'Ada Lovelace',
      channel_id: 'C001',
      channel_name: 'general',
      content: i === 22 ? 'Ship it :tada: see <https://example.com/plan|the plan> <b>raw</b>' : `note ${i}`,
      activity_type: kinds[i % 3]!,
    }));
    setup({
      'GET /member/last7days/T001/U001': reply(dataItem(actionLogRowSchema.array()), { data: rows }),
    });
    const { user } = renderApp('/dashboard/members/U001');
    // Recent Messages (Analytics tab) reads the markup too.
    const recent = await screen.findByRole('table', { name: 'Recent Messages' }, { timeout: 8000 });
    expect(await within(recent).findByRole('link', { name: 'the plan' })).toHaveAttribute(
      'href',
      'https://example.com/plan',
    );
    await user.click(screen.getByRole('tab', { name: 'Actions' }));
    const table = await screen.findByRole('table', { name: 'Actions' });
    const body = () => within(table).getAllByRole('row').slice(1);
    expect(body()).toHaveLength(10);
    // Newest first: the last row of the log (a message with markup) opens the first page, read as Slack shows it.
    const first = body()[0]!;
    expect(within(first).getByRole('link', { name: 'the plan' })).toBeInTheDocument();
    expect(within(first).getByRole('img', { name: 'tada' })).toHaveTextContent('🎉');
    expect(first).toHaveTextContent('Ship it 🎉 see the plan <b>raw</b>');
    expect(first.querySelector('b')).toBeNull();
    // Every kind says its whole word (never 'Re…').
    const words = within(table)
      .getAllByText(/^(Message|Reply|Reaction)$/)
      .map((b) => b.textContent);
    expect(new Set(words)).toEqual(new Set(['Message', 'Reply', 'Reaction']));
    expect(screen.getByText('23 actions in the last 7 days')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: /^(Page )?3$/ }));
    await waitFor(() => expect(body()).toHaveLength(3));
  }, 30_000);

  it("tags: badges with a remove X; '+ create tag' with nothing picked says 'Select a tag'", async () => {
    const api = setup({
      'GET /member/memberinfo/T001/U001': reply(dataItem(memberInfoSchema), {
        data: info({ tags: [{ id: 1, name: 'vip' }] }),
      }),
      'DELETE /tags/removetagfromuser/T001/U001/1': reply(messageResponse, { message: 'Tag removed' }),
      'POST /tags/createtag': reply(createTagResponse, {
        data: { id: 7, name: 'mentors' },
        message: "Tag 'mentors' created",
      }),
    });
    const { user } = renderApp('/dashboard/members/U001#tags');
    await user.click(
      await screen.findByRole('button', { name: 'Remove tag vip from Ada Lovelace' }, { timeout: 8000 }),
    );
    await waitFor(() => expect(api.callsTo('DELETE', '/tags/removetagfromuser/T001/U001/1')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '+ create tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add tag' });
    await user.click(within(dialog).getByRole('button', { name: 'add tag' }));
    expect(await within(dialog).findByText('Select a tag')).toBeInTheDocument();
    // Creating a tag picks it, and the stale error goes.
    await user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'mentors');
    await user.click(await screen.findByRole('option', { name: /\+ create tag “mentors”/ }));
    await waitFor(() => expect(api.callsTo('POST', '/tags/createtag')).toHaveLength(1));
    await waitFor(() => expect(within(dialog).queryByText('Select a tag')).toBeNull());
  });

  it("'+ create tag' in the dialog: 'add tag' waits while the tag is made, then adds it with the tag picked meanwhile", async () => {
    const made = deferred<MockReply>();
    let created = false;
    const api = setup({
      'POST /tags/createtag': async () => {
        const answer = await made.promise;
        created = true;
        return answer;
      },
      // The workspace's tags, as the server lists them before and after.
      'GET /tags/gettags/T001': () =>
        reply(dataOf(tagSchema), {
          data: [{ id: 1, name: 'vip' }, ...(created ? [{ id: 7, name: 'mentors' }] : [])],
        }),
      'POST /tags/addtagtousers': reply(messageResponse.extend({ added: z.number() }), {
        message: 'Tags added to Ada Lovelace',
        added: 1,
      }),
    });
    const { user } = renderApp('/dashboard/members/U001#tags');
    await user.click(await screen.findByRole('button', { name: '+ create tag' }, { timeout: 8000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Add tag' });
    const tags = within(dialog).getByRole('combobox', { name: 'Tags' });
    await user.type(tags, 'mentors');
    await user.click(await screen.findByRole('option', { name: /\+ create tag “mentors”/ }));
    // In flight: the picker says so and the button waits (a click now used to say 'Select a tag').
    expect(await within(dialog).findByText("Creating tag 'mentors'…")).toBeInTheDocument();
    const add = within(dialog).getByRole('button', { name: 'add tag' });
    expect(add).toBeDisabled();
    // Another tag picked while it is made stays picked.
    await user.type(tags, 'vip{Enter}');
    expect(await within(dialog).findByText('vip')).toBeInTheDocument();
    made.release(
      reply(createTagResponse, { data: { id: 7, name: 'mentors' }, message: "Tag 'mentors' created" }),
    );
    await waitFor(() => expect(add).toBeEnabled());
    expect(within(dialog).queryByText("Creating tag 'mentors'…")).toBeNull();
    expect(await within(dialog).findByText('mentors')).toBeInTheDocument();
    await user.click(add);
    await waitFor(() => expect(api.callsTo('POST', '/tags/addtagtousers')).toHaveLength(1));
    expect(api.callsTo('POST', '/tags/addtagtousers')[0]?.body).toMatchObject({
      team_id: 'T001',
      users: [{ id: 'U001' }],
    });
    const sent = (api.callsTo('POST', '/tags/addtagtousers')[0]?.body as { tags: { id: number }[] }).tags;
    expect(sent.map((t) => t.id).sort()).toEqual([1, 7]);
  });

  it('message rows: reply opens the reply dialog for that channel; pin and react post and toast', async () => {
    const api = setup({
      'POST /quickaction/pinpost': reply(messageResponse, { message: 'Message pinned' }),
      'POST /quickaction/addreaction': reply(messageResponse, { message: 'Reaction added' }),
    });
    const { user } = renderApp('/dashboard/members/U001');
    expect(
      await screen.findByRole('button', { name: 'Message Ada Lovelace' }, { timeout: 8000 }),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Actions' }));
    const table = await screen.findByRole('table', { name: 'Actions' });
    const where = 'the message in #general';
    // Not pinned: Pin is offered, not Unpin; once pinned, the other way round.
    expect(within(table).queryByRole('button', { name: `Unpin ${where}` })).toBeNull();
    await user.click(await within(table).findByRole('button', { name: `Pin ${where}` }));
    expect(await screen.findByText('Message pinned')).toBeInTheDocument();
    expect(await within(table).findByRole('button', { name: `Unpin ${where}` })).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: `Pin ${where}` })).toBeNull();
    expect(pinBody.parse(api.callsTo('POST', '/quickaction/pinpost')[0]!.body)).toEqual({
      team_id: 'T001',
      channel_id: 'C001',
      ts: '1714550000.000100',
    });
    await user.click(within(table).getByRole('button', { name: `React to ${where}` }));
    expect(await screen.findByText('Reaction added')).toBeInTheDocument();
    expect(reactionBody.parse(api.callsTo('POST', '/quickaction/addreaction')[0]!.body)).toMatchObject({
      sender: 'bot',
      channel_id: 'C001',
      name: 'thumbsup',
    });
    await user.click(within(table).getByRole('button', { name: `Reply to ${where}` }));
    const dialog = await screen.findByRole('dialog', { name: 'Reply' });
    expect(within(dialog).getByText('Reply in the thread in #general')).toBeInTheDocument();
  }, 20_000);

  it("Actions: Content has room (at least 280 px); a pinned message says 'Pinned', an unpinned one does not", async () => {
    const row = (ts: string, channel: string, content: string, is_pinned: boolean) => ({
      ts,
      at: Number(ts.split('.')[0]) * 1000,
      real_name: 'Ada Lovelace',
      channel_id: channel === 'general' ? 'C001' : 'C002',
      channel_name: channel,
      content,
      activity_type: 'message' as const,
      is_pinned,
    });
    setup({
      'GET /member/last7days/T001/U001': reply(dataItem(actionLogRowSchema.array()), {
        data: [
          row('1714550000.000100', 'general', 'the agenda for Friday', true),
          row('1714540000.000100', 'random', 'lunch anyone?', false),
        ],
      }),
      'POST /quickaction/unpinpost': reply(messageResponse, { message: 'Message unpinned' }),
    });
    const { user } = renderApp('/dashboard/members/U001');
    await user.click(await screen.findByRole('tab', { name: 'Actions' }, { timeout: 8000 }));
    const table = await screen.findByRole('table', { name: 'Actions' });
    const pinnedRow = (await within(table).findByText('the agenda for Friday')).closest('tr')!;
    const otherRow = within(table).getByText('lunch anyone?').closest('tr')!;
    expect(within(pinnedRow).getByText('the agenda for Friday').closest('td')!.style.minWidth).toBe('280px');
    const headers = within(table).getAllByRole('columnheader');
    expect(headers.find((h) => h.textContent === 'Content')!.style.width).not.toBe('');

    // The state is shown as state, beside the one action that changes it.
    expect(await within(pinnedRow).findByText('Pinned')).toBeInTheDocument();
    expect(
      within(pinnedRow).getByRole('button', { name: 'Unpin the message in #general' }),
    ).toBeInTheDocument();
    expect(within(pinnedRow).queryByRole('button', { name: 'Pin the message in #general' })).toBeNull();
    expect(within(otherRow).queryByText('Pinned')).toBeNull();
    expect(within(otherRow).getByRole('button', { name: 'Pin the message in #random' })).toBeInTheDocument();

    // Unpinned here: the badge goes.
    await user.click(within(pinnedRow).getByRole('button', { name: 'Unpin the message in #general' }));
    expect(await screen.findByText('Message unpinned')).toBeInTheDocument();
    await waitFor(() => expect(within(pinnedRow).queryByText('Pinned')).toBeNull());
    expect(
      within(pinnedRow).getByRole('button', { name: 'Pin the message in #general' }),
    ).toBeInTheDocument();
  }, 20_000);
});
