import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../testing/mock-api.ts';
import { renderApp } from '../testing/render.tsx';
import { loginResponse, seedSession } from '../testing/session-fixtures.ts';

function signedIn(workspaces = loginResponse().workspaces) {
  seedSession({ workspace: workspaces, currentworkspace: workspaces[0]?.team_id ?? null });
  mockApi({ 'GET /auth/me': { body: { ...loginResponse({ workspaces }), token: undefined } } });
}

async function expectNotFound() {
  expect(await screen.findByText('SORRY!')).toBeInTheDocument();
  expect(screen.getByText("The page you're looking for was not found.")).toBeInTheDocument();
  expect(screen.getByRole('link', { name: 'Back to home' })).toHaveAttribute('href', '/dashboard/home');
}

describe('signed-out visitors', () => {
  it.each([
    '/',
    '/dashboard',
    '/dashboard/home',
    '/dashboard/actions/polls',
    '/installworkspace',
    '/createdashboard',
  ])('%s goes to /auth/login', async (path) => {
    mockApi({});
    const { location } = renderApp(path);
    await waitFor(() => expect(location().pathname).toBe('/auth/login'));
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
  });

  it.each(['/auth/login', '/auth/signup', '/auth/verify-email?token=t', '/auth/reset-password?token=t'])(
    '%s stays',
    async (path) => {
      mockApi({ 'POST /auth/verifyemail': { body: { message: 'ok' } } });
      const { location } = renderApp(path);
      await screen.findByRole('heading', { level: 1 });
      expect(location().pathname).toBe(path.split('?')[0]);
    },
  );

  it.each(['/404', '/no/such/page'])('%s shows the not-found page to them too', async (path) => {
    mockApi({});
    renderApp(path);
    await expectNotFound();
  });
});

describe('signed-in users', () => {
  it.each(['/', '/dashboard'])('%s redirects to /dashboard/home', async (path) => {
    signedIn();
    const { location } = renderApp(path);
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(location().pathname).toBe('/dashboard/home');
  });

  it('keeps the path they reloaded on', async () => {
    signedIn();
    const { location } = renderApp('/dashboard/analytics');
    expect(await screen.findByRole('heading', { name: 'Analytics' })).toBeInTheDocument();
    expect(location().pathname).toBe('/dashboard/analytics');
  });

  it('leave /auth/login for their landing page', async () => {
    signedIn();
    const { location } = renderApp('/auth/login');
    await waitFor(() => expect(location().pathname).toBe('/dashboard/home'));
  });

  it('/dashboard/actions opens the threads tab', async () => {
    signedIn();
    const { location } = renderApp('/dashboard/actions');
    await waitFor(() => expect(location().pathname).toBe('/dashboard/actions/threads'));
    expect(await screen.findByRole('tab', { name: 'Threads', selected: true })).toBeInTheDocument();
  });

  it('the fourth segment picks the tab; an unknown tab falls back to threads', async () => {
    signedIn();
    const { location, user } = renderApp('/dashboard/actions/schedule');
    expect(await screen.findByRole('tab', { name: 'Schedule', selected: true })).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Mentions' }));
    await waitFor(() => expect(location().pathname).toBe('/dashboard/actions/mentions'));

    const again = renderApp('/dashboard/actions/bogus');
    await waitFor(() => expect(again.location().pathname).toBe('/dashboard/actions/threads'));
  });

  it.each([
    '/dashboard/actions/threads/extra',
    '/dashboard/actions/polls/a/b',
    '/dashboard/actions/form-instances/m',
  ])('%s (five segments or more) goes to /404', async (path) => {
    signedIn();
    const { location } = renderApp(path);
    await expectNotFound();
    expect(location().pathname).toBe('/404');
  });

  it('opens form instance responses from their six-segment path', async () => {
    signedIn();
    renderApp('/dashboard/actions/form-instances/12/34/2024-05-01?name=Weekly%20check-in');
    // The page's chunk (responses table) is the largest lazy page: give its first load more time.
    expect(
      await screen.findByRole('heading', { name: 'Weekly check-in' }, { timeout: 8000 }),
    ).toBeInTheDocument();
  });

  it.each(['/404', '/no/such/page', '/dashboard/nothing-here'])(
    '%s shows the not-found page',
    async (path) => {
      signedIn();
      renderApp(path);
      await expectNotFound();
    },
  );

  it.each([
    ['/dashboard/members', 'Members'],
    ['/dashboard/members/U123', 'Member'],
    ['/dashboard/workflows', 'Workflows'],
    ['/dashboard/workflows/create-new-workflow', 'Create Your WorkFlow'],
    ['/dashboard/receipts', 'Receipts'],
  ])('%s shows its titled page', async (path, title) => {
    signedIn();
    renderApp(path);
    expect(await screen.findByRole('heading', { name: title })).toBeInTheDocument();
  });

  it('/installworkspace shows the robots while it works', async () => {
    signedIn();
    renderApp('/installworkspace?code=abc');
    expect(
      await screen.findByText('Please wait while our robots get your present ready...'),
    ).toBeInTheDocument();
  });
});

describe('users without a workspace', () => {
  it('are sent from dashboard pages to the create-dashboard page, whose sidebar shows only Create Dashboard', async () => {
    signedIn([]);
    const { location } = renderApp('/dashboard/home');
    await waitFor(() => expect(location().pathname).toBe('/dashboard/createdashboard'));
    expect(await screen.findByRole('heading', { name: 'Create Workspace' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(nav).toHaveTextContent('Create Dashboard');
    expect(nav.querySelectorAll('a')).toHaveLength(1);
  });

  it('/createdashboard is the same page', async () => {
    signedIn([]);
    renderApp('/createdashboard');
    expect(await screen.findByRole('heading', { name: 'Create Workspace' })).toBeInTheDocument();
  });
});
