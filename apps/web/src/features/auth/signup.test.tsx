import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';

async function fillAccount(user: ReturnType<typeof renderApp>['user']) {
  await user.type(await screen.findByLabelText('Username'), 'Grace Hopper');
  await user.type(screen.getByLabelText('Email'), 'grace@example.com');
  await user.type(screen.getByLabelText('Password'), 'cobol-forever');
}

async function pickCountry(user: ReturnType<typeof renderApp>['user'], country: string) {
  await user.click(screen.getByPlaceholderText('Select your country'));
  await user.click(await screen.findByRole('option', { name: country }));
}

describe('signup page', () => {
  it('shows every field and links to login', async () => {
    mockApi({});
    renderApp('/auth/signup');
    expect(await screen.findByLabelText('Username')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toBeInTheDocument();
    expect(screen.getByPlaceholderText('Select your country')).toBeInTheDocument();
    expect(screen.getByLabelText('I agree to all Terms & Conditions')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/auth/login');
  });

  it("requires a country with 'Please select you country' and sends nothing without one", async () => {
    const api = mockApi({});
    const { user } = renderApp('/auth/signup');
    await fillAccount(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText('Please select you country')).toBeInTheDocument();
    expect(api.callsTo('POST', '/auth/signup')).toHaveLength(0);
  });

  it("signs up, toasts 'Signup Successfull' and goes to /auth/login (terms not enforced)", async () => {
    const message = 'Signed up successfully ,please check your email for verification';
    const api = mockApi({ 'POST /auth/signup': { status: 201, body: { message } } });
    const { user, location } = renderApp('/auth/signup');
    await fillAccount(user);
    await pickCountry(user, 'Portugal');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));

    const toast = (await screen.findByText('Signup Successfull')).closest('.mantine-Notification-root');
    expect(within(toast as HTMLElement).getByText(message)).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/auth/login'));
    expect(api.callsTo('POST', '/auth/signup')[0]?.body).toEqual({
      username: 'Grace Hopper',
      email: 'grace@example.com',
      password: 'cobol-forever',
      country: 'Portugal',
    });
    // The login form starts with the address just used.
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(await screen.findByLabelText('Email')).toHaveValue('grace@example.com');
  });

  // A taken address answers as a new one (201, the owner gets a mail): the page cannot tell, and shows success.
  it("shows the server's message under 'Attention' when the signup is refused", async () => {
    const message = 'Too many e-mails were requested. Please wait 12 minutes and try again.';
    mockApi({
      'POST /auth/signup': { status: 429, body: { statusCode: 429, code: 'TOO_MANY_ATTEMPTS', message } },
    });
    const { user, location } = renderApp('/auth/signup');
    await fillAccount(user);
    await pickCountry(user, 'Portugal');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    const toast = (await screen.findByText(message)).closest('.mantine-Notification-root');
    expect(within(toast as HTMLElement).getByText('Attention')).toBeInTheDocument();
    expect(location().pathname).toBe('/auth/signup');
  });

  it('shows why a password is refused under the password field (WEAK_PASSWORD)', async () => {
    const message =
      'This password is too easy to guess: it is one of the ten most used passwords. Use a few unrelated words, or a longer mix of letters, numbers and symbols.';
    mockApi({
      'POST /auth/signup': { status: 400, body: { statusCode: 400, code: 'WEAK_PASSWORD', message } },
    });
    const { user } = renderApp('/auth/signup');
    await fillAccount(user);
    await pickCountry(user, 'Portugal');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    // The reason shows in the password field's wrapper (and in the toast).
    await waitFor(() => {
      const field = screen.getByLabelText('Password').closest('.mantine-InputWrapper-root') as HTMLElement;
      expect(within(field).getByText(message)).toBeInTheDocument();
    });
    expect(screen.getAllByText(message).length).toBeGreaterThanOrEqual(2);
  });
});
