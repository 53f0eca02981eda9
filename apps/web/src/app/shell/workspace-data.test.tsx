import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { WORKSPACES, loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { member, workspaceDataMocks, workspaceStatus } from '../../testing/workspace-fixtures.ts';
import { STATUS_POLL_MS, statusPollInterval } from '../../entities/workspace/index.ts';
import { SEARCH_LIMIT, indexMembers, searchIndex } from './MemberSearch.tsx';

const me = { body: { ...loginResponse(), token: undefined } };

describe('what login loads', () => {
  it('loads channels, authorized admins and tags of the current workspace, never the whole member directory', async () => {
    seedSession({ currentworkspace: 'T002' });
    const api = mockApi({ 'GET /auth/me': me, ...workspaceDataMocks('T002') });
    renderApp('/dashboard/home');
    await waitFor(() => {
      for (const path of [
        '/channels/getchannels/T002',
        '/getauthorizedadmins/T002/u1',
        '/tags/gettags/T002',
      ]) {
        expect(api.callsTo('GET', path), path).toHaveLength(1);
      }
    });
    expect(api.callsTo('GET', '/channels/getchannels/T002')[0]?.headers.authorization).toMatch(/^Bearer /);
    // ~17 MB at 50,000 members: the top bar and the pickers search on the server instead.
    await screen.findByRole('textbox', { name: 'Search members' });
    await new Promise((r) => setTimeout(r, 100));
    expect(api.calls.filter((c) => c.path.startsWith('/members/getmembers'))).toEqual([]);
    // Nothing of the other workspace the user administers (T001) is loaded. (A call a previous test file's page
    // left in flight may reach this test's fetch mock: the files share a worker, so the check names the loads.)
    expect(
      api.calls.filter((c) =>
        ['/channels/getchannels/T001', '/getauthorizedadmins/T001', '/tags/gettags/T001', '/members/'].some(
          (p) => c.path.startsWith(p),
        ),
      ),
    ).toEqual([]);
    expect(screen.queryByText('Failed to fetch data!')).toBeNull();
  });

  it("toasts 'Failed to fetch data!' under 'Failure' once when the loads fail", async () => {
    seedSession();
    const forbidden = {
      status: 403,
      body: { statusCode: 403, code: 'FORBIDDEN', message: 'You do not administer this workspace' },
    };
    mockApi({
      'GET /auth/me': me,
      ...workspaceDataMocks('T001'),
      'GET /channels/getchannels/T001': forbidden,
      'GET /tags/gettags/T001': forbidden,
    });
    renderApp('/dashboard/home');
    const message = await screen.findByText('Failed to fetch data!');
    const toast = message.closest('.mantine-Notification-root') as HTMLElement;
    expect(within(toast).getByText('Failure')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getAllByText('Failed to fetch data!')).toHaveLength(1);
  });

  it('loads nothing for a user without a workspace', async () => {
    seedSession({ workspace: [], currentworkspace: null });
    const api = mockApi({ 'GET /auth/me': { body: { ...me.body, workspaces: [] } } });
    renderApp('/dashboard/createdashboard');
    expect(await screen.findByRole('button', { name: 'Add to Slack' })).toBeInTheDocument();
    expect(api.calls.map((c) => c.path)).toEqual(['/auth/me']);
  });
});

describe('top-bar member search', () => {
  it('asks the server (debounced, at most 10, members who left too), links each hit to its member page', async () => {
    seedSession();
    const api = mockApi({ 'GET /auth/me': me, ...workspaceDataMocks('T001') });
    const { user, router } = renderApp('/dashboard/home');
    // Every page the app goes to: this test has no answer for the member's own calls, so the member page sends
    // the user on to /404 (at once when an earlier test file already loaded its code).
    const visited: string[] = [];
    router.subscribe((s) => visited.push(s.location.pathname));
    const box = await screen.findByRole('textbox', { name: 'Search members' });
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading' })).toBeNull());
    await user.type(box, 'TUR');
    const option = await screen.findByRole('option', { name: /Alan Turing/ });
    expect(screen.getAllByRole('option')).toHaveLength(1);
    // One call for the whole word typed, not one a keystroke.
    const searches = api.callsTo('GET', '/members/search/T001');
    expect(searches).toHaveLength(1);
    const url = api.fetchMock.mock.calls
      .map(([input]) => String(input))
      .find((u) => u.includes('/members/search/T001'))!;
    const params = new URL(url, 'http://localhost').searchParams;
    expect(Object.fromEntries(params)).toEqual({ q: 'TUR', limit: '10', left: 'true' });
    await user.click(option);
    await waitFor(() => expect(visited[0]).toBe('/dashboard/members/U002'));
  });

  it("says 'no user found' when nothing matches the loaded members", async () => {
    seedSession();
    mockApi({ 'GET /auth/me': me, ...workspaceDataMocks('T001') });
    const { user } = renderApp('/dashboard/home');
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading' })).toBeNull());
    await user.type(await screen.findByRole('textbox', { name: 'Search members' }), 'zzz');
    expect(await screen.findByText('no user found')).toBeInTheDocument();
    expect(screen.queryByRole('option')).toBeNull();
  });

  it(`caps the hits at ${SEARCH_LIMIT} and stays fast on 50,000 members`, () => {
    const many = Array.from({ length: 50_000 }, (_, i) => member(`U${i}`, `Member ${i} Name`));
    const index = indexMembers(many);
    const started = performance.now();
    const wide = searchIndex(index, 'member');
    const rare = searchIndex(index, '49999 NAME');
    const none = searchIndex(index, 'nobody');
    const elapsed = performance.now() - started;
    expect(wide.hits).toHaveLength(SEARCH_LIMIT);
    expect(wide.more).toBe(true);
    expect(rare.hits.map((m) => m.member_id)).toEqual(['U49999']);
    expect(rare.more).toBe(false);
    expect(none.hits).toEqual([]);
    expect(elapsed).toBeLessThan(200);
  });
});

describe('workspace status', () => {
  it("shows 'Importing history: 43%' with a progress bar on Home while the import runs", async () => {
    seedSession();
    mockApi({
      'GET /auth/me': me,
      ...workspaceDataMocks('T001', {
        status: workspaceStatus({
          backfill: { status: 'running', percent: 43, messages: 12345, error: null },
        }),
      }),
    });
    renderApp('/dashboard/home');
    const card = await screen.findByRole('region', { name: 'History import' });
    expect(within(card).getByText('Importing history: 43%')).toBeInTheDocument();
    expect(within(card).getByRole('progressbar', { name: 'Importing history: 43%' })).toHaveAttribute(
      'aria-valuenow',
      '43',
    );
    expect(within(card).getByText('12,345 messages so far')).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'History import 43%' })).toBeInTheDocument();
  });

  it("never says 0% while messages come in: 'Importing history…' until a channel is done", async () => {
    seedSession();
    mockApi({
      'GET /auth/me': me,
      ...workspaceDataMocks('T001', {
        status: workspaceStatus({
          backfill: { status: 'running', percent: 0, messages: 219, error: null },
        }),
      }),
    });
    renderApp('/dashboard/home');
    const card = await screen.findByRole('region', { name: 'History import' });
    expect(within(card).getByText('Importing history…')).toBeInTheDocument();
    expect(within(card).getByText('219 messages so far')).toBeInTheDocument();
    expect(within(card).queryByRole('progressbar')).toBeNull();
    expect(screen.queryByText(/0%/)).toBeNull();
    expect(screen.getByRole('status', { name: 'History import started' })).toBeInTheDocument();
  });

  it('says how long is left, and that Slack limits the app when it does', async () => {
    seedSession();
    mockApi({
      'GET /auth/me': me,
      ...workspaceDataMocks('T001', {
        status: workspaceStatus({
          backfill: {
            status: 'running',
            percent: 10,
            messages: 120,
            error: null,
            pacing: 'limited',
            remaining_seconds: 3 * 3600,
          },
        }),
      }),
    });
    renderApp('/dashboard/home');
    const card = await screen.findByRole('region', { name: 'History import' });
    expect(within(card).getByText(/Time left: about 3 hours\./)).toBeInTheDocument();
    expect(within(card).getByText(/Slack limits this app.s history reads/)).toBeInTheDocument();
  });

  it('shows no import card once the import is done, nor on other pages', async () => {
    seedSession();
    const api = mockApi({ 'GET /auth/me': me, ...workspaceDataMocks('T001') });
    renderApp('/dashboard/home');
    await waitFor(() => expect(api.callsTo('GET', '/workspaces/status/T001')).toHaveLength(1));
    await screen.findByRole('heading', { name: 'Home' });
    expect(screen.queryByText(/Importing history/)).toBeNull();
  });

  it('polls every 3 s while importing, more slowly otherwise', () => {
    const running = workspaceStatus({
      backfill: { status: 'running', percent: 5, messages: 0, error: null },
    });
    expect(statusPollInterval(running)).toBe(STATUS_POLL_MS.running);
    expect(STATUS_POLL_MS.running).toBe(3000);
    expect(statusPollInterval(workspaceStatus())).toBe(STATUS_POLL_MS.idle);
    expect(statusPollInterval(workspaceStatus({ backfill: null }))).toBe(STATUS_POLL_MS.pending);
    expect(statusPollInterval(undefined)).toBe(STATUS_POLL_MS.idle);
  });

  it('warns that a disconnected workspace is no longer updated and reconnects through Add as Admin', async () => {
    seedSession();
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign });
    const api = mockApi({
      'GET /auth/me': me,
      ...workspaceDataMocks('T001', {
        status: workspaceStatus({
          status: 'disconnected',
          disconnect_reason: 'app_uninstalled',
          backfill: null,
        }),
      }),
      'GET /slack/installurl': { body: { url: 'https://slack.test/authorize?team=T001' } },
    });
    const { user } = renderApp('/dashboard/analytics');
    const banner = await screen.findByRole('alert');
    expect(within(banner).getByText('Acme Community is disconnected')).toBeInTheDocument();
    expect(within(banner).getByText(/no longer updated/)).toBeInTheDocument();
    expect(within(banner).getByText(/uninstalled/)).toBeInTheDocument();
    await user.click(within(banner).getByRole('button', { name: 'Reconnect workspace' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://slack.test/authorize?team=T001'));
    expect(api.fetchMock.mock.calls.map(([u]) => String(u))).toContain(
      '/api/v0/slack/installurl?team_id=T001',
    );
  });

  it('shows the disconnected warning from the workspace list before the status call answers', async () => {
    seedSession({ workspace: [{ ...WORKSPACES[0]!, status: 'disconnected' }, WORKSPACES[1]!] });
    mockApi({
      'GET /auth/me': { body: { ...me.body, workspaces: [{ ...WORKSPACES[0]!, status: 'disconnected' }] } },
      'GET /workspaces/status/T001': () => new Promise(() => {}),
    });
    renderApp('/dashboard/home');
    expect(await screen.findByText('Acme Community is disconnected')).toBeInTheDocument();
  });
});
