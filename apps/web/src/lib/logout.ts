import { logout as logoutEndpoint } from '@flywheel/shared/endpoints/auth';
import { callEndpoint } from './endpoint-client.ts';
import { clearSession, getSession } from './session.ts';

/**
 * Logout calls the endpoint with email and token, clears the session and goes to
 * /auth/login (the route guards redirect as soon as the session is gone). A failed call is ignored.
 */
export async function logout(): Promise<void> {
  const session = getSession();
  if (session) {
    await callEndpoint(
      logoutEndpoint,
      { body: { email: session.useremail, token: session.token } },
      { token: session.token, signal: AbortSignal.timeout(5000) },
    ).catch(() => undefined);
  }
  clearSession();
}
