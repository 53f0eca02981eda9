import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi } from '../../testing/mock-api.ts';
import { renderApp } from '../../testing/render.tsx';

describe('verify-email link', () => {
  it('verifies the token on load and offers to log in', async () => {
    const api = mockApi({
      'POST /auth/verifyemail': { body: { message: 'Your email is verified. You can log in now.' } },
    });
    renderApp('/auth/verify-email?token=abc123');
    expect(await screen.findByText('Your email is verified. You can log in now.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to log in' })).toHaveAttribute('href', '/auth/login');
    expect(api.callsTo('POST', '/auth/verifyemail')).toEqual([
      expect.objectContaining({ body: { token: 'abc123' } }),
    ]);
  });

  it('shows why a bad token failed and offers a new link', async () => {
    mockApi({
      'POST /auth/verifyemail': {
        status: 400,
        body: {
          statusCode: 400,
          code: 'VERIFY_TOKEN_INVALID',
          message: 'This verification link has expired.',
        },
      },
    });
    renderApp('/auth/verify-email?token=old');
    expect(await screen.findByText('This verification link has expired.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend' })).toBeInTheDocument();
  });
});

describe('reset-password link', () => {
  it('sets the new password, then goes to /auth/login with a toast', async () => {
    const api = mockApi({
      'POST /auth/resetpassword': {
        body: { message: 'Your password has been changed. You can log in now.' },
      },
    });
    const { user, location } = renderApp('/auth/reset-password?token=tok1');
    await user.type(await screen.findByLabelText('New password'), 'brand-new-pass');
    await user.type(screen.getByLabelText('Confirm password'), 'brand-new-pass');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(
      await screen.findByText('Your password has been changed. You can log in now.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(location().pathname).toBe('/auth/login'));
    expect(api.callsTo('POST', '/auth/resetpassword')[0]?.body).toEqual({
      token: 'tok1',
      password: 'brand-new-pass',
    });
  });

  it('refuses mismatched passwords without calling the server', async () => {
    const api = mockApi({});
    const { user } = renderApp('/auth/reset-password?token=tok1');
    await user.type(await screen.findByLabelText('New password'), 'brand-new-pass');
    await user.type(screen.getByLabelText('Confirm password'), 'brand-new-pasS');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(api.callsTo('POST', '/auth/resetpassword')).toHaveLength(0);
  });

  it('explains an invalid reset link', async () => {
    mockApi({
      'POST /auth/resetpassword': {
        status: 400,
        body: {
          statusCode: 400,
          code: 'RESET_TOKEN_INVALID',
          message: 'This reset link is invalid or expired.',
        },
      },
    });
    const { user } = renderApp('/auth/reset-password?token=bad');
    await user.type(await screen.findByLabelText('New password'), 'brand-new-pass');
    await user.type(screen.getByLabelText('Confirm password'), 'brand-new-pass');
    await user.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(await screen.findByText('This reset link cannot be used')).toBeInTheDocument();
  });
});
