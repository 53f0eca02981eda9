import { useMutation } from '@tanstack/react-query';
import type { AuthRedirectResponse } from '@flywheel/shared/directory';
import { apiRequest, errorMessage } from '../../lib/api-client.ts';
import { notifyFailure } from '../../lib/notify.tsx';

type InstallUrl = { url: string };

/** GET /slack/installurl: without a team it installs a new workspace; with one it adds you as its admin. */
export function fetchInstallUrl(teamId?: string): Promise<InstallUrl> {
  const query = teamId ? `?team_id=${encodeURIComponent(teamId)}` : '';
  return apiRequest<InstallUrl>(`/slack/installurl${query}`);
}

/** The page leaves for Slack's authorize page (a full navigation, so the OAuth round trip can come back). */
export function goTo(url: string): void {
  window.location.assign(url);
}

/**
 * 'Create Workspace' (no team) and 'Add as Admin' (the current team): asks for the authorize URL and leaves.
 * `busy` stays true after success while the browser navigates away. Failures toast 'Failure' with the message.
 */
export function useStartInstall() {
  const mutation = useMutation({
    mutationKey: ['slack', 'installurl'],
    mutationFn: (teamId?: string) => fetchInstallUrl(teamId),
    onSuccess: ({ url }) => goTo(url),
    onError: (err) => notifyFailure(errorMessage(err)),
  });
  return {
    start: (teamId?: string) => mutation.mutate(teamId),
    busy: mutation.isPending || mutation.isSuccess,
    teamId: mutation.variables,
  };
}

export type AuthRedirectBody = { code: string; state: string; id: string; email: string };

/** POST /auth-redirect (no token: the OAuth state proves who started the install). */
export function completeInstall(body: AuthRedirectBody): Promise<AuthRedirectResponse> {
  return apiRequest<AuthRedirectResponse>('/auth-redirect', { body, auth: false });
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
