import type { AuthRedirectResponse } from '@flywheel/shared/directory';
import { authRedirect } from '@flywheel/shared/endpoints/workspaces';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

export type AuthRedirectBody = { code: string; state: string; id: string; email: string };

/** POST /auth-redirect (no token: the OAuth state proves who started the install). */
export function completeInstall(body: AuthRedirectBody): Promise<AuthRedirectResponse> {
  return callEndpoint(authRedirect, { body });
}

/*
 * An authorization code is single-use: React's strict mode (or a remount) must not send it twice, so the
 * call for a code is made once per page load and every mount of the page shares its promise.
 */
const inflight = new Map<string, Promise<AuthRedirectResponse>>();

export function completeInstallOnce(body: AuthRedirectBody): Promise<AuthRedirectResponse> {
  const key = `${body.code}\n${body.state}`;
  let call = inflight.get(key);
  if (!call) {
    call = completeInstall(body);
    inflight.set(key, call);
  }
  return call;
}
