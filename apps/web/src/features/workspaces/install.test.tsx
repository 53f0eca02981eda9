import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Workspace } from '@flywheel/shared/workspace';
import { mockApi, deferred, type MockReply } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { WORKSPACES, loginResponse, seedSession, storedSession } from '../../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../../testing/workspace-fixtures.ts';

const NEW_TEAM: Workspace = {
  team_id: 'T009',
  workspace_name: 'Rustaceans Berlin',
  domain: 'rustberlin',
  timezone: 'Europe/Berlin',
  status: 'active',
  role: 'owner',
};

const me = (workspaces: Workspace[]) => ({ body: { ...loginResponse({ workspaces }), token: undefined } });

/** Replaces window.location.assign (jsdom cannot navigate) and records where the page was sent. */
function stubAssign() {
  const assign = vi.fn();
  vi.stubGlobal('location', { ...window.location, assign });
  return assign;
}

/** The toast with this heading (Mantine renders the title and message inside one alert). */
async function findToast(title: string) {
  const heading = await screen.findByText(title);
  return heading.closest('.mantine-Notification-root') as HTMLElement;
}

describe('/installworkspace', () => {
  it('exchanges the code once, selects the new workspace, says the message and goes home replacing history', async () => {
    seedSession();
    const gate = deferred<MockReply>();
    const api = mockApi({
      'POST /auth-redirect': () => gate.promise,
      'GET /auth/me': me([...WORKSPACES, NEW_TEAM]),
      ...workspaceDataMocks('T009'),
    });
    const { location, router } = renderApp('/installworkspace?code=code-ok-1&state=st-1', {
      strict: true,
    });

    expect(
      await screen.findByText('Please wait while our robots get your present ready...'),
    ).toBeInTheDocument();
    gate.release({
      body: {
        status: 200,
        message: 'Rustaceans Berlin is connected. Importing its history now.',
        workspaces: [...WORKSPACES, NEW_TEAM],
      },
    });

    const toast = await findToast('Attention');
    expect(
      within(toast).getByText('Rustaceans Berlin is connected. Importing its history now.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/dashboard/home'));
    expect(router.state.historyAction).toBe('REPLACE');

    const calls = api.callsTo('POST', '/auth-redirect');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.body).toEqual({ code: 'code-ok-1', state: 'st-1', id: 'u1', email: 'ada@example.com' });
    expect(calls[0]?.headers.authorization).toBeUndefined();
    expect(storedSession()).toMatchObject({
      currentworkspace: 'T009',
      workspace: [...WORKSPACES, NEW_TEAM],
    });
    // Home of the new workspace loads its data (strict mode may abort and repeat a read; never the install).
    await waitFor(() => expect(api.callsTo('GET', '/channels/getchannels/T009').length).toBeGreaterThan(0));
  });

  it('keeps the current workspace when the install added no new one (Add as Admin)', async () => {
    seedSession({ currentworkspace: 'T002' });
    mockApi({
      'POST /auth-redirect': {
        body: { status: 200, message: 'You are now an admin of Open Source Guild.', workspaces: WORKSPACES },
      },
      'GET /auth/me': me(WORKSPACES),
      ...workspaceDataMocks('T002'),
    });
    const { location } = renderApp('/installworkspace?code=code-ok-2&state=st-2');
    expect(await screen.findByText('You are now an admin of Open Source Guild.')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/dashboard/home'));
    expect(storedSession()).toMatchObject({ currentworkspace: 'T002' });
  });

  it("shows the server's message as 'Failure' and still goes home when the install fails", async () => {
    seedSession();
    const message = 'This install link has expired or was already used. Start again from Create Workspace.';
    const api = mockApi({
      'POST /auth-redirect': { status: 400, body: { statusCode: 400, code: 'INSTALL_FAILED', message } },
      'GET /auth/me': me(WORKSPACES),
      ...workspaceDataMocks('T001'),
    });
    const { location, router } = renderApp('/installworkspace?code=code-bad-1&state=st-3');
    const toast = await findToast('Failure');
    expect(within(toast).getByText(message)).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/dashboard/home'));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(api.callsTo('POST', '/auth-redirect')).toHaveLength(1);
    expect(storedSession()).toMatchObject({ currentworkspace: 'T001', workspace: WORKSPACES });
  });

  it('a link without its state says it expired in user words, without calling the server', async () => {
    seedSession();
    const api = mockApi({ 'GET /auth/me': me(WORKSPACES), ...workspaceDataMocks('T001') });
    const { location } = renderApp('/installworkspace?code=code-1', { strict: true });
    const toast = await findToast('Failure');
    expect(
      within(toast).getByText(
        'This Slack link has expired or was already used. Start again from Create Workspace.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByText(/state is required/)).toBeNull();
    await waitFor(() => expect(location().pathname).toBe('/dashboard/home'));
    expect(api.callsTo('POST', '/auth-redirect')).toHaveLength(0);
  });

  it("a field error from the server ('state is required') is said in user words", async () => {
    seedSession();
    mockApi({
      'POST /auth-redirect': {
        status: 400,
        body: { statusCode: 400, code: 'VALIDATION_ERROR', message: 'state: state is required' },
      },
      'GET /auth/me': me(WORKSPACES),
      ...workspaceDataMocks('T001'),
    });
    renderApp('/installworkspace?code=code-2&state=x');
    const toast = await findToast('Failure');
    expect(
      within(toast).getByText(
        'This Slack link has expired or was already used. Start again from Create Workspace.',
      ),
    ).toBeInTheDocument();
  });

  it('says the user cancelled in Slack (?error=access_denied) without calling the server; no workspace: create-dashboard', async () => {
    seedSession({ workspace: [], currentworkspace: null });
    const api = mockApi({ 'GET /auth/me': me([]) });
    const { location } = renderApp('/installworkspace?error=access_denied&state=st-4', { strict: true });
    const toast = await findToast('Failure');
    expect(within(toast).getByText('You cancelled the installation in Slack.')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/dashboard/createdashboard'));
    expect(api.callsTo('POST', '/auth-redirect')).toHaveLength(0);
    expect(screen.getAllByText('You cancelled the installation in Slack.')).toHaveLength(1);
  });
});

describe('starting an install', () => {
  it("'Add as Admin' asks for the current workspace's authorize URL and goes there", async () => {
    seedSession({ currentworkspace: 'T002' });
    const assign = stubAssign();
    const api = mockApi({
      'GET /auth/me': me(WORKSPACES),
      'GET /slack/installurl': { body: { url: 'https://slack.test/oauth/v2/authorize?team=T002&state=s' } },
      ...workspaceDataMocks('T002'),
    });
    const { user } = renderApp('/dashboard/home');
    await user.click(await screen.findByRole('button', { name: 'Add as Admin' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://slack.test/oauth/v2/authorize?team=T002&state=s'),
    );
    expect(api.callsTo('GET', '/slack/installurl')[0]?.headers.authorization).toMatch(/^Bearer /);
    expect(api.fetchMock.mock.calls.some(([u]) => String(u).endsWith('/slack/installurl?team_id=T002'))).toBe(
      true,
    );
  });

  it("the dropdown's 'Create Workspace' asks for a new-workspace URL (no team) and goes there", async () => {
    seedSession();
    const assign = stubAssign();
    const api = mockApi({
      'GET /auth/me': me(WORKSPACES),
      'GET /slack/installurl': { body: { url: 'https://slack.test/oauth/v2/authorize?state=new' } },
      ...workspaceDataMocks('T001'),
    });
    const { user } = renderApp('/dashboard/home');
    await user.click(await screen.findByRole('button', { name: /^Workspaces/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Create Workspace' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://slack.test/oauth/v2/authorize?state=new'),
    );
    expect(api.fetchMock.mock.calls.map(([u]) => String(u))).toContain('/api/v0/slack/installurl');
  });

  it("the create-dashboard page's 'Add to Slack' starts a new install", async () => {
    seedSession({ workspace: [], currentworkspace: null });
    const assign = stubAssign();
    mockApi({
      'GET /auth/me': me([]),
      'GET /slack/installurl': { body: { url: 'https://slack.test/oauth/v2/authorize?state=first' } },
    });
    const { user } = renderApp('/dashboard/createdashboard');
    expect(screen.queryByRole('button', { name: 'Add as Admin' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Add to Slack' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://slack.test/oauth/v2/authorize?state=first'),
    );
  });

  it("shows 'Failure' with the server's message when the URL cannot be had, and stays", async () => {
    seedSession();
    const assign = stubAssign();
    mockApi({
      'GET /auth/me': me(WORKSPACES),
      'GET /slack/installurl': {
        status: 403,
        body: { statusCode: 403, code: 'FORBIDDEN', message: 'You do not administer this workspace' },
      },
      ...workspaceDataMocks('T001'),
    });
    const { user, location } = renderApp('/dashboard/home');
    await user.click(await screen.findByRole('button', { name: 'Add as Admin' }));
    const toast = await findToast('Failure');
    expect(within(toast).getByText('You do not administer this workspace')).toBeInTheDocument();
    expect(assign).not.toHaveBeenCalled();
    expect(location().pathname).toBe('/dashboard/home');
  });
});
