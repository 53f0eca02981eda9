import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY, USERDATA_KEY } from '../../lib/session.ts';
import { deferred, mockApi, type MockReply } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { loginResponse, seedSession } from '../../testing/session-fixtures.ts';
import { matchMembers } from './MemberSearch.tsx';

const me = { body: { ...loginResponse(), token: undefined } };

describe('dashboard shell', () => {
  it('has the sidebar sections with the current one marked', async () => {
    seedSession();
    mockApi({ 'GET /auth/me': me });
    renderApp('/dashboard/workflows/create-new-workflow');
    const nav = await screen.findByRole('navigation', { name: 'Main' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual([
      'Home',
      'Analytics',
      'Actions',
      'Members',
      'Workflows',
      'Receipts',
      'Settings',
    ]);
    expect(within(nav).getByRole('link', { name: 'Workflows' })).toHaveAttribute('aria-current', 'page');
  });

  it('logs out: calls the endpoint with email and token, clears the session, goes to /auth/login', async () => {
    const session = seedSession();
    const api = mockApi({ 'GET /auth/me': me, 'POST /auth/logout': { body: { message: 'Logged out' } } });
    const { user, location } = renderApp('/dashboard/home');
    await user.click(await screen.findByRole('button', { name: /^Profile/ }));
    expect(await screen.findByText('ada@example.com')).toBeInTheDocument();
    await user.click(screen.getByRole('menuitem', { name: 'Log Out' }));

    await waitFor(() => expect(location().pathname).toBe('/auth/login'));
    const [call] = api.callsTo('POST', '/auth/logout');
    expect(call?.body).toEqual({ email: 'ada@example.com', token: session.token });
    expect(call?.headers.authorization).toBe(`Bearer ${session.token}`);
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(localStorage.getItem(USERDATA_KEY)).toBeNull();
  });

  it('still logs out when the logout call fails', async () => {
    seedSession();
    mockApi({
      'GET /auth/me': me,
      'POST /auth/logout': { status: 500, body: { statusCode: 500, code: 'INTERNAL', message: 'boom' } },
    });
    const { user, location } = renderApp('/dashboard/home');
    await user.click(await screen.findByRole('button', { name: /^Profile/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log Out' }));
    await waitFor(() => expect(location().pathname).toBe('/auth/login'));
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('lists the workspaces and an enabled Create Workspace entry', async () => {
    seedSession();
    mockApi({ 'GET /auth/me': me });
    const { user } = renderApp('/dashboard/home');
    await user.click(await screen.findByRole('button', { name: /^Workspaces/ }));
    expect(await screen.findByRole('menuitem', { name: 'Acme Community' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Open Source Guild' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'Create Workspace' })).toBeEnabled();
  });

  it("member search says 'no user found' when nothing matches", async () => {
    seedSession();
    mockApi({ 'GET /auth/me': me });
    const { user } = renderApp('/dashboard/home');
    await user.type(await screen.findByRole('textbox', { name: 'Search members' }), 'zed');
    expect(await screen.findByText('no user found')).toBeInTheDocument();
  });

  it('matches members by real name, case-insensitively', () => {
    const members = [
      { member_id: 'U1', real_name: 'Ada Lovelace' },
      { member_id: 'U2', real_name: 'Alan Turing' },
    ];
    expect(matchMembers(members, 'LOVE').map((m) => m.member_id)).toEqual(['U1']);
    expect(matchMembers(members, 'a').map((m) => m.member_id)).toEqual(['U1', 'U2']);
    expect(matchMembers(members, '  ')).toEqual([]);
  });

  it('shows the loading indicator while a request is in flight', async () => {
    seedSession();
    const gate = deferred<MockReply>();
    mockApi({ 'GET /auth/me': () => gate.promise });
    renderApp('/dashboard/home');
    expect(await screen.findByRole('progressbar', { name: 'Loading' })).toBeInTheDocument();
    gate.release(me);
    await waitFor(() => expect(screen.queryByRole('progressbar', { name: 'Loading' })).toBeNull());
  });
});
