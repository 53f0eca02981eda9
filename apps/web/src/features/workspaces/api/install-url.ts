import { useMutation } from '@tanstack/react-query';
import { installUrlResponse } from '@flywheel/shared/directory';
import { apiRequest, errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure } from '../../../lib/notify.tsx';

/** GET /slack/installurl: without a team it installs a new workspace; with one it adds you as its admin. */
export function fetchInstallUrl(teamId?: string) {
  const query = teamId ? `?team_id=${encodeURIComponent(teamId)}` : '';
  return apiRequest(`/slack/installurl${query}`, { schema: installUrlResponse });
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
