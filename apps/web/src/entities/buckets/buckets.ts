import { useQuery } from '@tanstack/react-query';
import { getBuckets as getBucketsEndpoint } from '@flywheel/shared/endpoints/buckets';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useTeamScope, workspaceKey } from '../workspace/index.ts';

/*
 * The workspace's buckets (segments): Analytics' bucket table lists and edits them, a workflow's time trigger
 * picks them as its audience.
 */

/** Every bucket query key starts here (the list, and each bucket's result rows). */
export const bucketsKey = (teamId: string) => [...workspaceKey(teamId), 'analytics', 'buckets'] as const;

/** GET /bucket/getbuckets/{teamId}: the workspace's buckets, newest first. */
export const getBuckets = (teamId: string, signal?: AbortSignal) =>
  callEndpoint(getBucketsEndpoint, { params: { teamId } }, { signal }).then((a) => a.data);

export function useBuckets() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: bucketsKey(teamId),
    queryFn: ({ signal }) => getBuckets(teamId, signal),
    enabled,
  });
}
