import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY, USERDATA_KEY } from '../lib/session.ts';
import { mockApi } from '../testing/mock-api.ts';
import { renderApp } from '../testing/render.tsx';
import { loginResponse, seedSession } from '../testing/session-fixtures.ts';
import { workspaceDataMocks } from '../testing/workspace-fixtures.ts';

const me = { body: { ...loginResponse(), token: undefined } };

describe('session lifecycle', () => {
  it('restores a stored session on reload and stays on the page', async () => {
    seedSession();
    mockApi({ 'GET /auth/me': me, ...workspaceDataMocks('T001') });
    const { location } = renderApp('/dashboard/receipts');
    expect(await screen.findByRole('heading', { name: 'Receipts' }, { timeout: 5000 })).toBeInTheDocument();
    expect(location().pathname).toBe('/dashboard/receipts');
  });

  it('sends an expired stored session to /auth/login', async () => {
    seedSession({ expiration: new Date(Date.now() - 60_000).toISOString() });
    mockApi({});
    const { location } = renderApp('/dashboard/home');
    await waitFor(() => expect(location().pathname).toBe('/auth/login'));
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('logs out by itself when the token expires', async () => {
    // Long enough for a cold first render of the dashboard chunk under a loaded test run.
    seedSession({ expiration: new Date(Date.now() + 2500).toISOString() });
    const api = mockApi({
      'GET /auth/me': me,
      'POST /auth/logout': { body: { message: 'Logged out' } },
      ...workspaceDataMocks('T001'),
    });
    const { location } = renderApp('/dashboard/home');
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/auth/login'), { timeout: 5000 });
    expect(await screen.findByText('Your session has expired. Please log in again.')).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(api.callsTo('POST', '/auth/logout')).toHaveLength(1);
  });

  it('a 401 from the server (revoked token) logs out', async () => {
    seedSession();
    mockApi({
      'GET /auth/me': {
        status: 401,
        body: { statusCode: 401, code: 'TOKEN_REVOKED', message: 'Token revoked' },
      },
    });
    const { location } = renderApp('/dashboard/home');
    await waitFor(() => expect(location().pathname).toBe('/auth/login'));
    expect(await screen.findByText('Your session has ended. Please log in again.')).toBeInTheDocument();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(localStorage.getItem(USERDATA_KEY)).toBeNull();
  });

  it('sends the bearer token with authenticated calls', async () => {
    const session = seedSession();
    const api = mockApi({ 'GET /auth/me': me });
    renderApp('/dashboard/home');
    await waitFor(() => expect(api.callsTo('GET', '/auth/me')).toHaveLength(1));
    expect(api.callsTo('GET', '/auth/me')[0]?.headers.authorization).toBe(`Bearer ${session.token}`);
  });
});
