import { useQuery } from '@tanstack/react-query';
import { bucketsResponse } from '@flywheel/shared/buckets';
import { requestData } from '../../../lib/api-data.ts';
import { useTeamScope } from '../../../lib/workspace-data.ts';
import { bucketsKey } from './bucket-keys.ts';

/** GET /bucket/getbuckets/{teamId}: the workspace's buckets, newest first. */
export const getBuckets = (teamId: string, signal?: AbortSignal) =>
  requestData(`/bucket/getbuckets/${encodeURIComponent(teamId)}`, bucketsResponse, { signal });

export function useBuckets() {
  const { teamId, enabled } = useTeamScope();
  return useQuery({
    queryKey: bucketsKey(teamId),
    queryFn: ({ signal }) => getBuckets(teamId, signal),
    enabled,
  });
}
