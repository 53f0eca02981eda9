import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import {
  digestSchema,
  digestSettingsResponse,
  type Digest,
  type DigestSettingsResponse,
} from '@flywheel/shared/digest';
import { reply } from '../../testing/fixture.ts';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { seedSession } from '../../testing/session-fixtures.ts';
import { getSession } from '../../lib/session.ts';

const SETTINGS: DigestSettingsResponse = {
  email: false,
  slack_dm: false,
  email_address: 'ann@example.com',
  day: 'mon',
  hour: 9,
  slack_user_known: true,
  timezone: 'Europe/London',
  next_at: '2026-11-30T09:00:00.000Z',
  sent: [
    {
      week_start: '2026-11-16',
      email_sent_at: '2026-11-23T09:00:12.000Z',
      slack_receipt_id: 77,
      error: null,
    },
  ],
};

const thread = (ts: string, content: string, replies: number) => ({
  ts,
  channel_id: 'C001',
  channel_name: 'general',
  sender: 'Eve',
  sender_id: 'U009',
  content,
  posted_at: 0,
  edited: false,
  replies,
  reactions: 0,
  is_pinned: false,
  permalink: `https://acme.slack.com/archives/C001/p${ts.replace('.', '')}`,
});

const digest = (start: string, end: string, complete = true): Digest => ({
  team_id: 'T001',
  workspace_name: 'Acme',
  timezone: 'Europe/London',
  week: { start, end },
  previous_week: { start: '2026-11-09', end: '2026-11-15' },
  complete,
  numbers: [
    { name: 'Messages', value: 120, previous: 100, percent: 20, sign: '+', comparison: 'change' },
    { name: 'Active members', value: 30, previous: 40, percent: 25, sign: '-', comparison: 'change' },
  ],
  response_times: {
    questions: 4,
    answered: 3,
    median_seconds: 5400,
    within_24h: 0.75,
    link: '/dashboard/analytics',
  },
  questions: {
    total: 1,
    top: [thread('1.1', '<img src=x onerror=alert(1)> How do I join?', 0)],
    link: '/dashboard/actions/questions',
  },
  members: {
    new: {
      count: 7,
      members: [{ member_id: 'U1', name: 'Bob' }],
      link: '/dashboard/members?join_from=2026-11-16&join_to=2026-11-22',
    },
    slipping: {
      count: 2,
      members: [
        { member_id: 'U2', name: 'Cy' },
        { member_id: 'U3', name: 'Di' },
      ],
      link: '/dashboard/members?level=slipping',
    },
    returning: { count: 0, members: [], link: '/dashboard/members' },
  },
  threads: { top: [thread('2.2', 'Release notes', 12)], link: '/dashboard/actions/threads' },
  sends: {
    count: 3,
    recipients: 50,
    sent: 48,
    failed: 2,
    with_failures: [
      {
        receipt_id: 5,
        description: 'Welcome (to 20 members)',
        total: 20,
        failed: 2,
        link: '/dashboard/receipts?receipt=5',
      },
    ],
    link: '/dashboard/receipts',
  },
});

describe('Settings › Weekly digest', () => {
  it('shows the last week as the digest says it, user content as text, and pages through weeks', async () => {
    seedSession();
    const api = mockApi({
      'GET /digest/settings/T001': reply(digestSettingsResponse, SETTINGS),
      'GET /digest/T001': (_b, { url }) => {
        const week = new URL(url, 'http://x').searchParams.get('week');
        return week === '2026-11-09'
          ? { body: digestSchema.parse(digest('2026-11-09', '2026-11-15')) }
          : week === '2026-11-23'
            ? { body: digestSchema.parse(digest('2026-11-23', '2026-11-29', false)) }
            : { body: digestSchema.parse(digest('2026-11-16', '2026-11-22')) };
      },
    });
    const { user } = renderApp('/dashboard/settings/digest');
    const numbers = await screen.findByRole('region', { name: 'The week in numbers' }, { timeout: 8000 });
    expect(within(numbers).getByText('120')).toBeInTheDocument();
    expect(within(numbers).getByText('vs 100 the week before')).toBeInTheDocument();
    expect(within(numbers).getByText('-25%')).toBeInTheDocument();
    expect(screen.getByText('16 Nov – 22 Nov 2026')).toBeInTheDocument();
    const questions = screen.getByRole('region', { name: 'Questions' });
    // A member's text is text: no element made of it.
    expect(within(questions).getByText(/<img src=x onerror=alert\(1\)> How do I join\?/)).toBeInTheDocument();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    expect(
      within(questions).getByText(/median first answer 1.5 h, 75% answered within 24 h/),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Slipping: 2' })).toHaveAttribute(
      'href',
      '/dashboard/members?level=slipping',
    );
    expect(screen.getByRole('link', { name: '2 of 20 failed' })).toHaveAttribute(
      'href',
      '/dashboard/receipts?receipt=5',
    );
    expect(screen.getByRole('link', { name: 'Open Questions' })).toHaveAttribute(
      'href',
      '/dashboard/actions/questions',
    );

    await user.click(screen.getByRole('button', { name: 'The week before' }));
    await screen.findByText('9 Nov – 15 Nov 2026');
    expect(api.callsTo('GET', '/digest/T001').at(-1)!.query.get('week')).toBe('2026-11-09');
    await user.click(screen.getByRole('button', { name: 'The week after' }));
    await user.click(screen.getByRole('button', { name: 'The week after' }));
    await screen.findByText(/This week so far/);
    // The current week: there is no week after it yet.
    expect(screen.getByRole('button', { name: 'The week after' })).toBeDisabled();
  });

  it('turns the digest on, chooses the day, and says when the next one goes', async () => {
    seedSession();
    const api = mockApi({
      'GET /digest/settings/T001': reply(digestSettingsResponse, SETTINGS),
      'GET /digest/T001': reply(digestSchema, digest('2026-11-16', '2026-11-22')),
      'POST /digest/settings': (body) => ({
        body: digestSettingsResponse.parse({
          ...SETTINGS,
          ...(body as object),
          next_at: '2026-12-04T17:00:00.000Z',
        }),
      }),
    });
    const { user } = renderApp('/dashboard/settings/digest');
    const email = await screen.findByRole(
      'switch',
      { name: /E-mail me the weekly digest/ },
      { timeout: 8000 },
    );
    expect(screen.getByTestId('digest-next')).toHaveTextContent(/^Off/);
    expect(screen.getByText(/Week of 16 Nov – 22 Nov 2026: e-mailed/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Slack DM' })).toHaveAttribute(
      'href',
      '/dashboard/receipts?receipt=77',
    );
    await user.click(email);
    await waitFor(() => expect(api.callsTo('POST', '/digest/settings')).toHaveLength(1));
    expect(api.callsTo('POST', '/digest/settings')[0]!.body).toEqual({
      team_id: 'T001',
      email: true,
      slack_dm: false,
      day: 'mon',
      hour: 9,
    });
    await waitFor(() =>
      expect(screen.getByTestId('digest-next')).toHaveTextContent(/Next digest: Friday,? 4 Dec 2026,? 17:00/),
    );
  });

  it('the Slack DM is unavailable, with the reason, when Flywheel does not know the admin’s Slack user', async () => {
    seedSession();
    mockApi({
      'GET /digest/settings/T001': reply(digestSettingsResponse, { ...SETTINGS, slack_user_known: false }),
      'GET /digest/T001': reply(digestSchema, digest('2026-11-16', '2026-11-22')),
    });
    renderApp('/dashboard/settings/digest');
    const dm = await screen.findByRole('switch', { name: /Slack DM/ }, { timeout: 8000 });
    expect(dm).toBeDisabled();
    expect(screen.getByText(/use Add as Admin/)).toBeInTheDocument();
  });

  it('a link naming another of the admin’s workspaces (the e-mail’s ?workspace=) switches to it first', async () => {
    seedSession({ currentworkspace: 'T001' });
    const replace = vi.fn();
    vi.stubGlobal('location', {
      ...window.location,
      pathname: '/dashboard/settings/digest',
      hash: '',
      replace,
    });
    mockApi({});
    renderApp('/dashboard/settings/digest?workspace=T002&x=1');
    await waitFor(() => expect(replace).toHaveBeenCalledWith('/dashboard/settings/digest?x=1'));
    expect(getSession()!.currentworkspace).toBe('T002');
    vi.unstubAllGlobals();
  });

  it('a workspace the admin does not administer is ignored: the page opens on the current one', async () => {
    seedSession({ currentworkspace: 'T001' });
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, replace });
    mockApi({
      'GET /digest/settings/T001': reply(digestSettingsResponse, SETTINGS),
      'GET /digest/T001': reply(digestSchema, digest('2026-11-16', '2026-11-22')),
    });
    const { location } = renderApp('/dashboard/settings/digest?workspace=T999');
    await screen.findByRole('switch', { name: /E-mail me the weekly digest/ }, { timeout: 8000 });
    expect(location().search).toBe('');
    expect(replace).not.toHaveBeenCalled();
    expect(getSession()!.currentworkspace).toBe('T001');
    vi.unstubAllGlobals();
  });
});
