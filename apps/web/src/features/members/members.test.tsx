import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import '../../testing/editor-layout.ts';
import { sendMessageBody, sendResponse } from '@flywheel/shared/delivery';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Member } from '@flywheel/shared/directory';
import { messageResponse } from '@flywheel/shared/http';
import { createTagResponse, membersDataResponse } from '@flywheel/shared/members';
import { levelCountsResponse } from '@flywheel/shared/levels';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import {
  MEMBERS,
  member,
  memberDirectoryMocks,
  workspaceDataMocks,
} from '../../testing/workspace-fixtures.ts';
import { resolveEntries, suggest } from '../../lib/entries.ts';
import { DEFAULT_FILTERS, toPayload } from './filters.ts';

const ROLE_SELECT = 'combobox';
const me = { body: { ...loginResponse(), token: undefined } };
const TAGS = [
  { id: 1, name: 'vip' },
  { id: 2, name: 'mentor' },
  { id: 3, name: 'speaker' },
  { id: 4, name: 'alumni' },
];

const rows: Member[] = [
  member('U001', 'Ada Lovelace', {
    messages: 12,
    reactions: 4,
    replies: 3,
    last_active: 1_717_000_000_000_000,
    tags: TAGS,
    level: 'champion',
  }),
  member('U002', 'Alan Turing', { messages: 0, last_active: 0, tags: [TAGS[0]!], level: 'slipping' }),
];

function setup(extra: Record<string, unknown> = {}) {
  seedSession();
  return mockApi({
    'GET /auth/me': me,
    ...workspaceDataMocks('T001'),
    'GET /tags/gettags/T001': { body: { data: TAGS } },
    'GET /members/levels': reply(levelCountsResponse, {
      data: [
        { level: 'champion', count: 1 },
        { level: 'regular', count: 0 },
        { level: 'casual', count: 0 },
        { level: 'newcomer', count: 0 },
        { level: 'slipping', count: 1 },
        { level: 'dormant', count: 0 },
      ],
      day: '2026-11-27',
    }),
    'POST /members/getmembersdata': reply(membersDataResponse, {
      data: rows,
      total: 2,
      page: 1,
      page_size: 5,
    }),
    ...(extra as object),
  });
}

describe('Members page', () => {
  it('shows the Members Data columns and rules: links, Not-Active, three tags then More', async () => {
    const api = setup();
    renderApp('/dashboard/members');
    const table = await screen.findByRole('table', { name: 'Members Data' }, { timeout: 8000 });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers.slice(1)).toEqual([
      'Real name',
      'Display name',
      'Email',
      'Messages count',
      'Reactions Count',
      'Replies Count',
      'Last active',
      'Level',
      'Tags',
    ]);
    const ada = await within(table).findByRole('link', { name: 'Ada Lovelace' });
    expect(ada).toHaveAttribute('href', '/dashboard/members/U001');
    const adaRow = ada.closest('tr')!;
    expect(within(adaRow).getAllByRole('button', { name: /^Remove tag/ })).toHaveLength(3);
    expect(within(adaRow).getByRole('link', { name: 'More' })).toHaveAttribute(
      'href',
      '/dashboard/members/U001#tags',
    );
    // The Tags cell keeps room for whole names (at 1440 px the table had squeezed them to 'M…', 'bu…').
    const tagsCell = within(adaRow)
      .getAllByRole('button', { name: /^Remove tag/ })[0]!
      .closest('td')!;
    expect(tagsCell.style.minWidth).toBe('200px');
    const alanRow = within(table).getByRole('link', { name: 'Alan Turing' }).closest('tr')!;
    expect(within(alanRow).getByText('Not-Active')).toBeInTheDocument();
    expect(within(alanRow).queryByRole('link', { name: 'More' })).toBeNull();
    // Default request: 7 days, sorted by activity, 25 per page (5 made 100 pages of 500 members).
    expect(api.callsTo('POST', '/members/getmembersdata')[0]?.body).toMatchObject({
      team_id: 'T001',
      time_filter: { type: 'static', days: 7 },
      sort: { field: 'activity', direction: 'desc' },
      page: 1,
      page_size: 25,
    });
    expect(screen.getByRole('combobox', { name: 'Rows per page' })).toHaveValue('25');
  });

  it('a tag name of 40 characters is in its badge whole: the label wraps in the cell, never cut with an ellipsis', async () => {
    const long = { id: 9, name: 'Mentors of the spring 2026 onboarding co' };
    expect(long.name).toHaveLength(40);
    setup({
      'POST /members/getmembersdata': reply(membersDataResponse, {
        data: [member('U001', 'Ada Lovelace', { tags: [long, TAGS[0]!] })],
        total: 1,
        page: 1,
        page_size: 25,
      }),
    });
    renderApp('/dashboard/members');
    const table = await screen.findByRole('table', { name: 'Members Data' }, { timeout: 8000 });
    const remove = await within(table).findByRole('button', {
      name: `Remove tag ${long.name} from Ada Lovelace`,
    });
    const badge = remove.closest<HTMLElement>('.mantine-Badge-root')!;
    const label = badge.querySelector<HTMLElement>('.mantine-Badge-label')!;
    // The name is the badge's text (not only a hover title), and nothing cuts it to one line.
    expect(label.textContent).toBe(long.name);
    expect(label.style.whiteSpace).toBe('normal');
    expect(label.style.textOverflow).not.toBe('ellipsis');
    expect(label.style.overflow).toBe('visible');
    expect(badge.style.height).toBe('auto');
    expect(badge.style.maxWidth).toBe('100%');
  });

  it('shows each member’s engagement level, and filters by level (with how many hold each)', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/members');
    const table = await screen.findByRole('table', { name: 'Members Data' }, { timeout: 8000 });
    const rowOf = async (name: string) => (await within(table).findByRole('link', { name })).closest('tr')!;
    expect(within(await rowOf('Ada Lovelace')).getByText('Champion')).toBeInTheDocument();
    expect(within(await rowOf('Alan Turing')).getByText('Slipping')).toBeInTheDocument();
    await user.click(screen.getByPlaceholderText('Filter by Level'));
    await user.click(await screen.findByRole('option', { name: 'Slipping (1)' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/members/getmembersdata').at(-1)?.body).toMatchObject({
        levels: ['slipping'],
      }),
    );
    expect(api.callsTo('GET', '/members/levels')[0]?.query.get('team_id')).toBe('T001');
  });

  it('filtered by a tag, each row shows that tag first (a cell shows three of four)', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/members');
    const table = await screen.findByRole('table', { name: 'Members Data' }, { timeout: 8000 });
    const adaRow = async () =>
      (await within(table).findByRole('link', { name: 'Ada Lovelace' })).closest('tr')!;
    const shown = async () =>
      within(await adaRow())
        .getAllByRole('button', { name: /^Remove tag/ })
        .map((b) => b.getAttribute('aria-label'));
    expect(await shown()).toEqual([
      'Remove tag vip from Ada Lovelace',
      'Remove tag mentor from Ada Lovelace',
      'Remove tag speaker from Ada Lovelace',
    ]);
    await user.click(screen.getByPlaceholderText('Filter by Tag'));
    await user.click(await screen.findByRole('option', { name: 'alumni' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/members/getmembersdata').at(-1)?.body).toMatchObject({ tags: [4] }),
    );
    await waitFor(async () =>
      expect(await shown()).toEqual([
        'Remove tag alumni from Ada Lovelace',
        'Remove tag vip from Ada Lovelace',
        'Remove tag mentor from Ada Lovelace',
      ]),
    );
  });

  it("marks members who left, says how many and why Analytics' Overall is fewer; blank display names show the real name", async () => {
    setup({
      'POST /members/getmembersdata': reply(membersDataResponse, {
        data: [
          ...rows,
          member('U003', 'Grace Hopper', { deleted: true, display_name: '' }),
          member('U004', 'Katherine Johnson', { deleted: true }),
        ],
        total: 4,
        left: 2,
        page: 1,
        page_size: 25,
      }),
    });
    renderApp('/dashboard/members');
    const table = await screen.findByRole('table', { name: 'Members Data' }, { timeout: 8000 });
    const grace = (await within(table).findByRole('link', { name: 'Grace Hopper' })).closest('tr')!;
    expect(within(grace).getByText('Left')).toBeInTheDocument();
    // Display name (3rd cell after the checkbox and real name) falls back to the real name, as on Home.
    expect(grace.querySelectorAll('td')[2]).toHaveTextContent('Grace Hopper');
    const ada = within(table).getByRole('link', { name: 'Ada Lovelace' }).closest('tr')!;
    expect(within(ada).queryByText('Left')).toBeNull();
    expect(ada.querySelectorAll('td')[2]).toHaveTextContent('ada');
    expect(screen.getByText('4 members · 2 left')).toBeInTheDocument();
    expect(
      screen.getByRole('img', {
        name: "2 of them left the workspace (marked Left). Analytics' Overall members counts the 2 still in it.",
      }),
    ).toBeInTheDocument();
  });

  it('says nothing about leavers when none left', async () => {
    setup();
    renderApp('/dashboard/members');
    await screen.findByRole('table', { name: 'Members Data' }, { timeout: 8000 });
    expect(await screen.findByText('2 members')).toBeInTheDocument();
    expect(screen.queryByText(/left/)).toBeNull();
  });

  it('Activity Filter sends only the rows with an operator, combined with the chosen type', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/members');
    await screen.findByRole('link', { name: 'Ada Lovelace' }, { timeout: 8000 });
    await user.click(screen.getByRole('button', { name: 'Activity Filter' }));
    const dialog = await screen.findByRole('dialog', { name: 'Activity Filter' });
    await user.click(within(dialog).getByText('OR'));
    await user.click(within(dialog).getByRole(ROLE_SELECT, { name: 'Messages operator' }));
    await user.click(await screen.findByRole('option', { name: '>' }));
    const count = within(dialog).getByRole('textbox', { name: 'Messages count' });
    await user.clear(count);
    await user.type(count, '5');
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/members/getmembersdata').at(-1)?.body).toMatchObject({
        activity_filter: { type: 'OR', message_filter: { operator: '>', count: 5 } },
      }),
    );
    const body = api.callsTo('POST', '/members/getmembersdata').at(-1)?.body as {
      activity_filter: Record<string, unknown>;
    };
    expect(body.activity_filter.reply_filter).toBeUndefined();
    expect(body.activity_filter.reaction_filter).toBeUndefined();
  });

  it("Add Tag needs both fields ('Both fields are required...'), resolves pasted e-mails and names, then adds", async () => {
    const api = setup({
      // The modal asks the server: a search for suggestions, a lookup for pasted e-mails and names.
      ...memberDirectoryMocks('T001', [...MEMBERS, member('U005', 'Grace Two', { display_name: 'gracie' })]),
      'POST /tags/addtagtousers': reply(messageResponse.extend({ added: z.number() }), {
        message: 'Tag vip added to 2 members',
        added: 2,
      }),
    });
    const { user } = renderApp('/dashboard/members');
    await screen.findByRole('link', { name: 'Ada Lovelace' }, { timeout: 8000 });
    await user.click(screen.getByRole('button', { name: 'Add Tag' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Tag' });
    await user.click(within(dialog).getByRole('button', { name: 'add tag' }));
    expect(await within(dialog).findByText('Both fields are required...')).toBeInTheDocument();

    const members = within(dialog).getByRole('combobox', { name: 'Members' });
    fireEvent.paste(members, { clipboardData: { getData: () => 'U002@EXAMPLE.com; GRACIE, nobody' } });
    expect(await within(dialog).findByText('Alan Turing')).toBeInTheDocument();
    expect(within(dialog).getByText('Grace Two')).toBeInTheDocument();
    expect(within(dialog).getByText('1 member not found: nobody')).toBeInTheDocument();
    expect(api.callsTo('POST', '/members/lookup')[0]?.body).toMatchObject({
      entries: ['U002@EXAMPLE.com', 'GRACIE', 'nobody'],
    });
    // Typing suggests from the server's search (name, display name or e-mail).
    await user.type(members, 'katherine');
    expect(
      await screen.findByRole('option', { name: /Katherine Johnson/ }, { timeout: 3000 }),
    ).toBeInTheDocument();
    await user.clear(members);

    await user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'VIP{Enter}');
    expect(await within(dialog).findByText('vip')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'add tag' }));
    await waitFor(() => expect(api.callsTo('POST', '/tags/addtagtousers')).toHaveLength(1));
    expect(api.callsTo('POST', '/tags/addtagtousers')[0]?.body).toEqual({
      team_id: 'T001',
      tags: [{ id: 1, name: 'vip' }],
      users: [{ id: 'U002' }, { id: 'U005' }],
    });
    expect(api.callsTo('GET', '/members/getmembers/T001')).toHaveLength(0);
    expect(await screen.findByText('Tag vip added to 2 members')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Tag' })).toBeNull());
  });

  it('Add Tag: the error goes once both fields are filled, by a tag picked or one just created', async () => {
    const api = setup({
      'POST /tags/createtag': reply(createTagResponse, {
        data: { id: 7, name: 'mentors' },
        message: "Tag 'mentors' created",
      }),
    });
    const { user } = renderApp('/dashboard/members');
    const table = await screen.findByRole('table', { name: 'Members Data' }, { timeout: 8000 });
    await within(table).findByRole('link', { name: 'Ada Lovelace' });
    // Members chosen (a checked row), no tag: the error until a tag is created.
    await user.click(within(table).getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await user.click(screen.getByRole('button', { name: 'Add Tag' }));
    let dialog = await screen.findByRole('dialog', { name: 'Add Tag' });
    await user.click(within(dialog).getByRole('button', { name: 'add tag' }));
    expect(await within(dialog).findByText('Both fields are required...')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'mentors');
    await user.click(await screen.findByRole('option', { name: /\+ create tag “mentors”/ }));
    await waitFor(() => expect(api.callsTo('POST', '/tags/createtag')).toHaveLength(1));
    await waitFor(() => expect(within(dialog).queryByText('Both fields are required...')).toBeNull());
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Tag' })).toBeNull());

    // Again: a tag picked from the list answers it too.
    await user.click(screen.getByRole('button', { name: 'Add Tag' }));
    dialog = await screen.findByRole('dialog', { name: 'Add Tag' });
    await user.click(within(dialog).getByRole('button', { name: 'add tag' }));
    expect(await within(dialog).findByText('Both fields are required...')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'vip{Enter}');
    await waitFor(() => expect(within(dialog).queryByText('Both fields are required...')).toBeNull());
    expect(api.callsTo('POST', '/tags/addtagtousers')).toHaveLength(0);
  });

  it('removing a tag calls DELETE and reloads the table', async () => {
    const api = setup({
      'DELETE /tags/removetagfromuser/T001/U002/1': reply(messageResponse, { message: 'Tag removed' }),
    });
    const { user } = renderApp('/dashboard/members');
    await screen.findByRole('link', { name: 'Alan Turing' });
    const before = api.callsTo('POST', '/members/getmembersdata').length;
    await user.click(screen.getByRole('button', { name: 'Remove tag vip from Alan Turing' }));
    await waitFor(() => expect(api.callsTo('DELETE', '/tags/removetagfromuser/T001/U002/1')).toHaveLength(1));
    await waitFor(() =>
      expect(api.callsTo('POST', '/members/getmembersdata').length).toBeGreaterThan(before),
    );
    expect(await screen.findByText('Tag removed')).toBeInTheDocument();
  });

  it('CSV goes through the API client: checked rows only, and a 401 ends the session like every call', async () => {
    const api = setup({
      'POST /members/exportmembersdata': {
        status: 401,
        body: { statusCode: 401, code: 'TOKEN_EXPIRED', message: 'Token expired' },
      },
    });
    const { user, location } = renderApp('/dashboard/members');
    await screen.findByRole('link', { name: 'Alan Turing' }, { timeout: 8000 });
    await user.click(screen.getByRole('checkbox', { name: 'Select Alan Turing' }));
    expect(screen.getByText('1 selected · 2 members')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'CSV' }));
    await waitFor(() => expect(api.callsTo('POST', '/members/exportmembersdata')).toHaveLength(1));
    const call = api.callsTo('POST', '/members/exportmembersdata')[0]!;
    expect(call.headers.authorization).toMatch(/^Bearer /);
    expect(call.body).toMatchObject({ team_id: 'T001', member_ids: ['U002'] });
    expect(await screen.findByText('Your session has ended. Please log in again.')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/auth/login'));
  });

  it('the custom range modal refuses a start after the end and applies a valid range', async () => {
    const api = setup();
    const { user } = renderApp('/dashboard/members');
    await screen.findByRole('link', { name: 'Ada Lovelace' }, { timeout: 8000 });
    await user.click(screen.getByRole(ROLE_SELECT, { name: 'Time filter' }));
    await user.click(await screen.findByRole('option', { name: 'Custom range…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Choose Start and End Dates' });
    fireEvent.change(within(dialog).getByLabelText('Start date'), { target: { value: '2024-03-10' } });
    fireEvent.change(within(dialog).getByLabelText('End date'), { target: { value: '2024-03-01' } });
    expect(within(dialog).getByRole('button', { name: 'Submit' })).toBeDisabled();
    fireEvent.change(within(dialog).getByLabelText('End date'), { target: { value: '2024-03-20' } });
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() =>
      expect(api.callsTo('POST', '/members/getmembersdata').at(-1)?.body).toMatchObject({
        time_filter: { type: 'dynamic', start_date: '2024-03-10', end_date: '2024-03-20' },
        page: 1,
      }),
    );
  });
});

describe('target entries', () => {
  const options = [
    { value: 'U1', label: 'Ada Lovelace', alt: 'ada', email: 'ada@example.com' },
    { value: 'U2', label: 'Alan Turing', alt: 'alan', email: 'alan@example.com' },
  ];
  it('splits on comma, space or semicolon and resolves e-mails and names case-insensitively', () => {
    expect(resolveEntries(' ADA@example.com;alan, ada  ghost', options)).toEqual({
      found: [options[0], options[1]],
      unresolved: ['ghost'],
    });
  });
  it('caps suggestions at 10', () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ value: `U${i}`, label: `Member ${i}` }));
    expect(suggest('member', many, new Set())).toHaveLength(10);
  });
  it('builds the documented payload and leaves unset filters out', () => {
    expect(
      toPayload('T1', {
        ...DEFAULT_FILTERS,
        join: { type: 'team_left', window: { type: 'static', days: 14 } },
      }),
    ).toEqual({
      team_id: 'T1',
      time_filter: { type: 'static', days: 7 },
      channels: undefined,
      tags: undefined,
      activity_filter: undefined,
      base_filter: { type: 'team_left', time_filter: { type: 'static', days: 14 } },
    });
  });
});

describe('Members page: Send Message', () => {
  const SENT = {
    status: 202,
    body: sendResponse.parse({
      message: 'Sending to 2 recipients: follow it in Receipts',
      data: { receipt_id: 21, total: 2 },
    }),
  };

  async function sendAsBot(user: ReturnType<typeof renderApp>['user'], summary: string) {
    await user.click(await screen.findByRole('button', { name: 'Send Message' }, { timeout: 8000 }));
    const choose = await screen.findByRole('dialog', { name: 'Choose Sender' });
    await user.click(within(choose).getByRole('radio', { name: 'Bot' }));
    await user.click(within(choose).getByRole('button', { name: 'Next' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send Message' });
    expect(within(dialog).getByText(summary)).toBeInTheDocument();
    await user.click(await within(dialog).findByRole('textbox', { name: 'Message' }, { timeout: 10_000 }));
    await user.paste('Hello there');
    await user.click(within(dialog).getByRole('button', { name: 'Send' }));
  }

  it('checked rows: Choose Sender, then a DM to exactly those members (dms.members)', async () => {
    const api = setup({ 'POST /quickaction/sendmessage': SENT });
    const { user } = renderApp('/dashboard/members');
    await screen.findByRole('link', { name: 'Alan Turing' }, { timeout: 8000 });
    await user.click(screen.getByRole('checkbox', { name: 'Select Ada Lovelace' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Alan Turing' }));
    await sendAsBot(user, 'To 2 selected members');
    await waitFor(() => expect(api.callsTo('POST', '/quickaction/sendmessage')).toHaveLength(1));
    const body = sendMessageBody.parse(api.callsTo('POST', '/quickaction/sendmessage')[0]!.body);
    expect(body).toMatchObject({ team_id: 'T001', sender: 'bot', message: 'Hello there' });
    expect(body.dms.members).toEqual(['U001', 'U002']);
    expect(body.filter).toBeUndefined();
    expect(await screen.findByText(SENT.body.message)).toBeInTheDocument();
  }, 20_000);

  it('nothing checked: everything filtered, as the filter payload without team_id, sort or paging', async () => {
    const api = setup({ 'POST /quickaction/sendmessage': SENT });
    const { user } = renderApp('/dashboard/members');
    await screen.findByRole('link', { name: 'Alan Turing' }, { timeout: 8000 });
    await sendAsBot(user, 'To the 2 members filtered');
    await waitFor(() => expect(api.callsTo('POST', '/quickaction/sendmessage')).toHaveLength(1));
    const raw = api.callsTo('POST', '/quickaction/sendmessage')[0]!.body as Record<string, unknown>;
    const body = sendMessageBody.parse(raw);
    expect(body.dms.members).toEqual([]);
    expect(raw.filter).toEqual({ time_filter: { type: 'static', days: 7 } });
  }, 20_000);
});
