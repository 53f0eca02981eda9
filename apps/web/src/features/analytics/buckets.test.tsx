import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  BUCKET_CHANNELS_EMPTY,
  BUCKET_NAME_EMPTY,
  advanceAnalyticsResponse,
  bucketResultResponse,
  bucketsResponse,
  createBucketResponse,
  executeBucketResponse,
  type Bucket,
  type BucketRow,
} from '@flywheel/shared/buckets';
import { createTagResponse } from '@flywheel/shared/members';
import { messageResponse } from '@flywheel/shared/http';
import { z } from 'zod';
import { captureDownloads } from '../../testing/downloads.ts';
import { fixture, reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';
import { bucketRowsCsv, formOf, RESET_ADVANCE, toAdvanceRequest, toBucketData } from './buckets.ts';

type Reply = Parameters<typeof mockApi>[0][string];
const me = { body: { ...loginResponse(), token: undefined } };
const none = { body: { data: [] } };

const ROW = (over: Partial<BucketRow> = {}): BucketRow => ({
  date_of_data: '2026-03-01 to 2026-03-07',
  member_id: 'U1',
  member_name: 'Ada <b>Lovelace</b>',
  email: 'ada@x.io',
  channel_id: null,
  channel_name: 'All channels',
  messages: 3,
  reactions: 2,
  replies: 1,
  activity: 6,
  ...over,
});

const BUCKET = (over: Partial<Bucket> = {}): Bucket =>
  fixture(createBucketResponse.shape.data, {
    id: 7,
    name: 'Newcomers',
    data: {
      basis: 'members',
      base_events: { event: 'workspace_left', time_filter_type: 'Fixed', days: 14 },
      sub_time_filter: { type: 'static', days: 90 },
      activity_filter: 'OR',
      channel_filter: { ids: ['C001'], type: 'AND' },
      message_filter: { operator: '>', count: 2 },
      reaction_filter: null,
      replies_filter: null,
    },
    last_execute: null,
    member_count: null,
    created_at: 1_700_000_000_000,
    ...over,
  }) as Bucket;

function setup(over: Record<string, Reply> = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /analytics/getanalyticscompare/T001/7': none,
    'POST /analytics/activityanalytics': none,
    'POST /analytics/getactivitytrend': { body: { slots: {} } },
    'POST /analytics/wordcloud': none,
    'POST /analytics/memberschangeanalytics': none,
    'POST /analytics/membersactivityanalytics': { body: { data: [], total: 0 } },
    'POST /analytics/channelsactivityanalytics': none,
    'POST /analytics/performadvanceanalytics': reply(advanceAnalyticsResponse, {
      data: [
        ROW(),
        ROW({
          member_id: 'U2',
          member_name: 'Grace',
          email: 'g@x.io',
          activity: 1,
          messages: 1,
          reactions: 0,
          replies: 0,
        }),
      ],
      total: 42,
      page: 1,
      page_size: 10,
    }),
    'GET /bucket/getbuckets/T001': reply(bucketsResponse, { data: [BUCKET()] }),
    ...over,
  });
}

beforeAll(() => import('./AnalyticsDashboard.tsx'), 60_000);

describe('bucket table (Analytics normal mode)', () => {
  it('shows the rows as text and the total row count; filters, Split by Date and Reset change the request', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/analytics');
    const card = await screen.findByRole('region', { name: 'Bucket Table' }, { timeout: 8000 });
    const table = await within(card).findByRole('table', { name: 'Bucket Table' });
    // Slack content is text, never markup.
    expect(within(table).getByText('Ada <b>Lovelace</b>')).toBeInTheDocument();
    expect(within(card).getByText('42 rows')).toBeInTheDocument();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual([
      'Date of Data',
      'Member Name',
      'Member Email ID',
      'Channel Name',
      'Messages',
      'Reactions',
      'Replies',
      'Activity',
    ]);
    const first = api.callsTo('POST', '/analytics/performadvanceanalytics')[0]?.body;
    expect(first).toEqual({
      team_id: 'T001',
      time_filter: { type: 'static', days: 7 },
      channels: [],
      channel_type: 'OR',
      split_by_date_and_channel: false,
      page: 1,
      page_size: 10,
    });

    await user.click(within(card).getByRole('checkbox', { name: 'Split by Date' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/analytics/performadvanceanalytics').at(-1)?.body).toMatchObject({
        split_by_date_and_channel: true,
      }),
    );

    const join = within(card).getByRole('button', { name: 'Join Filter' });
    expect(join).toHaveAttribute('data-variant', 'default');
    await user.click(join);
    await user.click(await screen.findByRole('menuitem', { name: 'Member Left' }));
    await waitFor(() => {
      const body = api.callsTo('POST', '/analytics/performadvanceanalytics').at(-1)?.body as {
        base_filter?: { type: string; startts: number; endts: number };
      };
      expect(body.base_filter?.type).toBe('team_left');
      expect(body.base_filter!.endts - body.base_filter!.startts).toBe(604_800_000);
    });
    expect(within(card).getByRole('button', { name: 'Member Left' })).toHaveAttribute(
      'data-variant',
      'filled',
    );

    // Reset: back to the first request's filters (answered from the cache); the controls show it.
    await user.click(within(card).getByRole('button', { name: 'Reset' }));
    expect(within(card).getByRole('button', { name: 'Join Filter' })).toHaveAttribute(
      'data-variant',
      'default',
    );
    expect(within(card).getByRole('checkbox', { name: 'Split by Date' })).not.toBeChecked();
  });
});

describe('bucket creation mode', () => {
  it("says 'Bucket Name can't be empty' and 'Select at least one channel', then creates with the product's data", async () => {
    const api = setup({
      'POST /bucket/createbucket': reply(
        createBucketResponse,
        { data: BUCKET({ id: 8, name: 'Fans' }), message: "Bucket 'Fans' created" },
        { status: 201 },
      ),
    });
    const { user } = renderApp('/dashboard/analytics');
    await user.click(await screen.findByRole('radio', { name: 'Bucket creation' }, { timeout: 8000 }));
    await user.click(await screen.findByRole('button', { name: 'Create' }));
    expect(await screen.findByText(BUCKET_NAME_EMPTY)).toBeInTheDocument();
    expect(screen.getByText(BUCKET_CHANNELS_EMPTY)).toBeInTheDocument();
    expect(api.callsTo('POST', '/bucket/createbucket')).toHaveLength(0);

    await user.type(screen.getByPlaceholderText('Name...'), 'Fans');
    await user.click(screen.getByRole('checkbox', { name: '#general' }));
    await user.click(screen.getByRole('combobox', { name: 'Messages operator' }));
    await user.click(await screen.findByRole('option', { name: '>' }));
    await user.clear(screen.getByRole('textbox', { name: 'Messages count' }));
    await user.type(screen.getByRole('textbox', { name: 'Messages count' }), '3');
    await user.click(screen.getByRole('radio', { name: 'Joined workspace' }));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(api.callsTo('POST', '/bucket/createbucket')).toHaveLength(1));
    expect(api.callsTo('POST', '/bucket/createbucket')[0]?.body).toEqual({
      team_id: 'T001',
      bucket_name: 'Fans',
      data: {
        basis: 'members',
        base_events: { event: 'workspace_join', time_filter_type: 'Fixed', days: 7 },
        sub_time_filter: { type: 'static', days: 7 },
        activity_filter: 'AND',
        channel_filter: { ids: ['C001'], type: 'OR' },
        message_filter: { operator: '>', count: 3 },
        reaction_filter: null,
        replies_filter: null,
      },
    });
  });

  it("BucketTable: 'Not-Executed', the radio loads saved settings (again: clears), and Run", async () => {
    const api = setup({
      'POST /bucket/execute': reply(executeBucketResponse, {
        data: { bucketdata: BUCKET({ last_execute: Date.UTC(2026, 2, 9, 10), member_count: 3 }) },
        message: "Bucket 'Newcomers' executed: 3 members",
      }),
      'GET /bucket/getbucketres/7/T001': reply(bucketResultResponse, { data: [] }),
    });
    const { user } = renderApp('/dashboard/analytics');
    await user.click(await screen.findByRole('radio', { name: 'Bucket creation' }, { timeout: 8000 }));
    const table = await screen.findByRole('table', { name: 'BucketTable' });
    const row = within(table).getByText('Newcomers').closest('tr')!;
    expect(within(row).getByText('Not-Executed')).toBeInTheDocument();

    await user.click(within(row).getByRole('radio', { name: 'Load Newcomers' }));
    expect(screen.getByPlaceholderText('Name...')).toHaveValue('Newcomers');
    expect(screen.getByRole('radio', { name: 'Left workspace' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: '#general' })).toBeChecked();
    await user.click(within(row).getByRole('radio', { name: 'Load Newcomers' }));
    expect(screen.getByPlaceholderText('Name...')).toHaveValue('');
    expect(screen.getByRole('checkbox', { name: '#general' })).not.toBeChecked();

    await user.click(within(row).getByRole('button', { name: 'Run Newcomers' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/bucket/execute')[0]?.body).toEqual({ team_id: 'T001', id: 7 }),
    );
    expect(await screen.findByText("Bucket 'Newcomers' executed: 3 members")).toBeInTheDocument();
  });
});

describe('a run bucket: its CSV and its tags', () => {
  // A Channels-basis bucket as the server answers after a run of 3 members (apps/server buckets.test.ts): a row
  // per member and channel with activity there, and a row without a channel for a member quiet in them.
  const CHANNELS_BUCKET = BUCKET({
    id: 9,
    name: 'Per channel',
    data: { ...BUCKET().data, basis: 'channels', channel_filter: { ids: ['C001', 'C002'], type: 'OR' } },
    last_execute: Date.UTC(2026, 2, 9, 10),
    member_count: 3,
  });
  const window = '2026-02-08 to 2026-03-09';
  const RUN_ROWS = [
    ROW({ date_of_data: window, member_id: 'U1', channel_id: 'C001', channel_name: '#general', activity: 6 }),
    ROW({
      date_of_data: window,
      member_id: 'U1',
      channel_id: 'C002',
      channel_name: '#random',
      messages: 1,
      reactions: 0,
      replies: 0,
      activity: 1,
    }),
    ROW({
      date_of_data: window,
      member_id: 'U2',
      member_name: 'Grace',
      email: 'g@x.io',
      channel_id: 'C002',
      channel_name: '#random',
      messages: 2,
      reactions: 0,
      replies: 0,
      activity: 2,
    }),
    ROW({
      date_of_data: window,
      member_id: 'U3',
      member_name: 'Quiet Kim',
      email: 'k@x.io',
      channel_id: null,
      channel_name: '#general, #random',
      messages: 0,
      reactions: 0,
      replies: 0,
      activity: 0,
    }),
  ];

  it("a Channels-basis bucket's CSV is the rows of its last run, not 'no data'", async () => {
    const api = setup({
      'GET /bucket/getbuckets/T001': reply(bucketsResponse, { data: [CHANNELS_BUCKET] }),
      'GET /bucket/getbucketres/9/T001': reply(bucketResultResponse, { data: RUN_ROWS }),
    });
    const dl = captureDownloads();
    const { user } = renderApp('/dashboard/analytics');
    await user.click(await screen.findByRole('radio', { name: 'Bucket creation' }, { timeout: 8000 }));
    const table = await screen.findByRole('table', { name: 'BucketTable' });
    const row = (await within(table).findByText('Per channel')).closest('tr')!;
    expect(within(row).getByText('Channels')).toBeInTheDocument();
    expect(within(row).getByText('3')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Download Per channel CSV' }));
    await waitFor(() => expect(dl.saved.map((f) => f.name)).toEqual(['Per channel.csv']));
    expect(api.callsTo('GET', '/bucket/getbucketres/9/T001')).toHaveLength(1);
    const lines = dl.saved[0]!.text.slice(1).trimEnd().split('\r\n');
    expect(lines).toEqual([
      '"Date of Data","Member Name","Member Email ID","Channel Name","Messages","Reactions","Replies","Activity"',
      `"${window}","Ada <b>Lovelace</b>","ada@x.io","#general",3,2,1,6`,
      `"${window}","Ada <b>Lovelace</b>","ada@x.io","#random",1,0,0,1`,
      `"${window}","Grace","g@x.io","#random",2,0,0,2`,
      `"${window}","Quiet Kim","k@x.io","#general, #random",0,0,0,0`,
    ]);
    // The three members of the run are all in it.
    expect(new Set(RUN_ROWS.map((r) => r.member_id)).size).toBe(CHANNELS_BUCKET.member_count);
    expect(dl.saved[0]!.text).not.toContain('no data');
  });

  it("Add Tag: 'Select a tag' without one; a tag picked, or one just created, takes the error away", async () => {
    const api = setup({
      'GET /bucket/getbuckets/T001': reply(bucketsResponse, { data: [CHANNELS_BUCKET] }),
      'POST /tags/createtag': reply(createTagResponse, {
        data: { id: 7, name: 'mentors' },
        message: "Tag 'mentors' created",
      }),
      'POST /bucket/addtags': reply(messageResponse.extend({ added: z.number() }), {
        message: 'Tags added to 3 members',
        added: 3,
      }),
    });
    const { user } = renderApp('/dashboard/analytics');
    await user.click(await screen.findByRole('radio', { name: 'Bucket creation' }, { timeout: 8000 }));
    const table = await screen.findByRole('table', { name: 'BucketTable' });
    const row = (await within(table).findByText('Per channel')).closest('tr')!;
    const open = async () => {
      await user.click(within(row).getByRole('button', { name: 'Add Tag to Per channel' }));
      return screen.findByRole('dialog', { name: 'Add Tag to bucket members' });
    };

    // Created: the new tag is picked and the error goes.
    let dialog = await open();
    await user.click(within(dialog).getByRole('button', { name: 'Add Tag' }));
    expect(await within(dialog).findByText('Select a tag')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'mentors');
    await user.click(await screen.findByRole('option', { name: /\+ create tag “mentors”/ }));
    await waitFor(() => expect(api.callsTo('POST', '/tags/createtag')).toHaveLength(1));
    await waitFor(() => expect(within(dialog).queryByText('Select a tag')).toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Add Tag to bucket members' })).toBeNull(),
    );

    // Picked from the list: the error goes, and Add Tag sends it.
    dialog = await open();
    await user.click(within(dialog).getByRole('button', { name: 'Add Tag' }));
    expect(await within(dialog).findByText('Select a tag')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'vip{Enter}');
    await waitFor(() => expect(within(dialog).queryByText('Select a tag')).toBeNull());
    expect(api.callsTo('POST', '/bucket/addtags')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Add Tag' }));
    await waitFor(() => expect(api.callsTo('POST', '/bucket/addtags')).toHaveLength(1));
    expect(api.callsTo('POST', '/bucket/addtags')[0]?.body).toEqual({
      team_id: 'T001',
      id: 9,
      tags: [{ id: 1, name: 'vip' }],
    });
    expect(await screen.findByText('Tags added to 3 members')).toBeInTheDocument();
  });
});

describe('bucket helpers', () => {
  it("CSV: BOM, the product's columns, quoted strings, a single 'no data' row when empty", () => {
    const empty = bucketRowsCsv([]);
    expect(empty.charCodeAt(0)).toBe(0xfeff);
    expect(empty.slice(1).trimEnd().split('\r\n')).toEqual([
      '"Date of Data","Member Name","Member Email ID","Channel Name","Messages","Reactions","Replies","Activity"',
      '"no data"',
    ]);
    const one = bucketRowsCsv([ROW({ member_name: 'Say "hi"' })])
      .slice(1)
      .trimEnd()
      .split('\r\n');
    expect(one[1]).toBe('"2026-03-01 to 2026-03-07","Say ""hi""","ada@x.io","All channels",3,2,1,6');
  });

  it('Reset is base none with a 7-day window, no channels, no activity, 7 days static, not split', () => {
    expect(toAdvanceRequest(RESET_ADVANCE, 1_000_000_000_000)).toEqual({
      time_filter: { type: 'static', days: 7 },
      channels: [],
      channel_type: 'OR',
      split_by_date_and_channel: false,
      activity_filter: undefined,
      base_filter: undefined,
    });
    expect(toAdvanceRequest({ ...RESET_ADVANCE, join: 'team_join' }, 1_000_000_000_000).base_filter).toEqual({
      type: 'team_join',
      startts: 1_000_000_000_000 - 604_800_000,
      endts: 1_000_000_000_000,
    });
  });

  it('a saved bucket loads back into the form and saves as the same data', () => {
    const b = BUCKET();
    expect(toBucketData({ ...formOf(b) })).toEqual(b.data);
  });

  it('engagement levels chosen in the form are saved with the bucket and load back', () => {
    const b = BUCKET();
    const withLevels = { ...formOf(b), levels: ['slipping', 'dormant'] as ('slipping' | 'dormant')[] };
    const data = toBucketData(withLevels);
    expect(data.levels).toEqual(['slipping', 'dormant']);
    expect(formOf({ ...b, data: { ...b.data, levels: ['slipping', 'dormant'] } }).levels).toEqual([
      'slipping',
      'dormant',
    ]);
  });
});
