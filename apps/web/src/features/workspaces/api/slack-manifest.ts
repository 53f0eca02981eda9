import { useQuery } from '@tanstack/react-query';
import { slackManifestResponse } from '@flywheel/shared/workspace';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /slack/manifest: the Slack app manifest from the code, Slack's create link, the scopes and the setup. */
export function useSlackManifest() {
  return useQuery({
    queryKey: ['slack', 'manifest'],
    queryFn: ({ signal }) => apiRequest('/slack/manifest', { schema: slackManifestResponse, signal }),
    staleTime: 60_000,
  });
}
