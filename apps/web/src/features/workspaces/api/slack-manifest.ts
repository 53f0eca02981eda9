import { useQuery } from '@tanstack/react-query';
import { slackManifest } from '@flywheel/shared/endpoints/workspaces';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** GET /slack/manifest: the Slack app manifest from the code, Slack's create link, the scopes and the setup. */
export function useSlackManifest() {
  return useQuery({
    queryKey: ['slack', 'manifest'],
    queryFn: ({ signal }) => callEndpoint(slackManifest, {}, { signal }),
    staleTime: 60_000,
  });
}
