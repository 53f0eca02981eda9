import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SESSION_KEY, USERDATA_KEY } from '../../lib/session.ts';
import { deferred, mockApi, type MockReply } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';
import { fakeToken, loginResponse, storedSession } from '../../testing/session-fixtures.ts';

async function fillAndSubmit(user: ReturnType<typeof renderApp>['user'], email: string, password: string) {
  await user.type(await screen.findByLabelText('Email'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  it('shows every field and link', async () => {
    mockApi({});
    renderApp('/auth/login');
    expect(await screen.findByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByLabelText('Keep me signed in')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Forgot password?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/auth/signup');
  });

  it('stores the session, toasts "login successfull" and goes home when the user has workspaces', async () => {
    const exp = Math.floor(Date.now() / 1000) + 7200;
    const res = loginResponse({ token: fakeToken(exp) });
    const api = mockApi({ 'POST /auth/login': { body: res }, 'GET /auth/me': { body: res } });
    const { user, location } = renderApp('/auth/login');

    await user.click(await screen.findByLabelText('Keep me signed in'));
    await fillAndSubmit(user, 'ada@example.com', 'correct horse');

    expect(await screen.findByText('login successfull')).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/dashboard/home'));
    expect(api.callsTo('POST', '/auth/login')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'correct horse',
      remember: true,
    });
    expect(storedSession()).toEqual({
      userid: 'u1',
      token: res.token,
      currentworkspace: 'T001',
      workspace: res.workspaces,
      username: 'Ada Lovelace',
      useremail: 'ada@example.com',
      country: 'United Kingdom',
      expiration: new Date(exp * 1000).toISOString(),
    });
    expect(JSON.parse(localStorage.getItem(USERDATA_KEY) ?? 'null')).toEqual({
      userid: 'u1',
      useremail: 'ada@example.com',
    });
  });

  it('sends a user without a workspace to the create-dashboard page', async () => {
    const res = loginResponse({ workspaces: [] });
    mockApi({ 'POST /auth/login': { body: res }, 'GET /auth/me': { body: res } });
    const { user, location } = renderApp('/auth/login');
    await fillAndSubmit(user, 'ada@example.com', 'correct horse');
    await waitFor(() => expect(location().pathname).toBe('/dashboard/createdashboard'));
    expect(await screen.findByRole('heading', { name: 'Create Workspace' })).toBeInTheDocument();
  });

  it('shows the server message under the heading "Attention" when login fails', async () => {
    mockApi({
      'POST /auth/login': {
        status: 401,
        body: { statusCode: 401, code: 'INVALID_CREDENTIALS', message: 'Incorrect email or password' },
      },
    });
    const { user, location } = renderApp('/auth/login');
    await fillAndSubmit(user, 'ada@example.com', 'wrong');
    const toast = (await screen.findByText('Incorrect email or password')).closest(
      '.mantine-Notification-root',
    );
    expect(toast).not.toBeNull();
    expect(within(toast as HTMLElement).getByText('Attention')).toBeInTheDocument();
    expect(location().pathname).toBe('/auth/login');
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
  });

  it('checks for an empty email or password before calling the server', async () => {
    const api = mockApi({});
    const { user } = renderApp('/auth/login');
    await user.click(await screen.findByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(api.callsTo('POST', '/auth/login')).toHaveLength(0);
  });

  it('offers to resend the verification email when the account is not verified', async () => {
    const message = 'Please verify your email first: open the link we sent you when you signed up.';
    const api = mockApi({
      'POST /auth/login': { status: 403, body: { statusCode: 403, code: 'EMAIL_NOT_VERIFIED', message } },
      'POST /auth/resendverification': { body: { message: 'We have sent a new verification link.' } },
    });
    const { user } = renderApp('/auth/login');
    await fillAndSubmit(user, 'new@example.com', 'whatever1');
    expect((await screen.findAllByText(message)).length).toBeGreaterThan(0);
    await user.click(screen.getByRole('button', { name: 'Resend verification email' }));
    expect(await screen.findByText('We have sent a new verification link.')).toBeInTheDocument();
    expect(api.callsTo('POST', '/auth/resendverification')[0]?.body).toEqual({ email: 'new@example.com' });
  });

  it('shows the demo credentials in demo mode and fills them in', async () => {
    mockApi({
      'GET /public/config': {
        body: { demoMode: true, demoEmail: 'demo@flywheel.dev', demoPassword: 'demo-pass' },
      },
    });
    const { user } = renderApp('/auth/login');
    expect(await screen.findByText('demo@flywheel.dev')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Use demo account' }));
    expect(screen.getByLabelText('Email')).toHaveValue('demo@flywheel.dev');
    expect(screen.getByLabelText('Password')).toHaveValue('demo-pass');
  });
});

describe('forgot password dialog', () => {
  it('disables Submit while the request is in flight, toasts the answer and closes', async () => {
    const gate = deferred<MockReply>();
    const api = mockApi({ 'POST /auth/inititatechangepassword': () => gate.promise });
    const { user } = renderApp('/auth/login');

    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset your password' });
    expect(within(dialog).getByLabelText('Email')).toHaveValue('ada@example.com');

    const submit = within(dialog).getByRole('button', { name: 'Submit' });
    await user.click(submit);
    await waitFor(() => expect(submit).toBeDisabled());
    await user.click(submit);
    expect(api.callsTo('POST', '/auth/inititatechangepassword')).toHaveLength(1);

    gate.release({ body: { message: 'If an account exists for that email, we have sent a link.' } });
    expect(
      await screen.findByText('If an account exists for that email, we have sent a link.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reset your password' })).toBeNull());
    expect(api.callsTo('POST', '/auth/inititatechangepassword')[0]?.body).toEqual({
      email: 'ada@example.com',
    });
  });
});
