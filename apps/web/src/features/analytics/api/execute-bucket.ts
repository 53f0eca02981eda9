import { useMutation, useQueryClient } from '@tanstack/react-query';
import { executeBucket as executeBucketEndpoint } from '@flywheel/shared/endpoints/buckets';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { bucketsKey } from '../../../entities/buckets/index.ts';

/** POST /bucket/execute {id, team_id}: runs the bucket on the current data (data.bucketdata.last_execute). */
export const executeBucket = (teamId: string, id: number) =>
  callEndpoint(executeBucketEndpoint, { body: { team_id: teamId, id } });

export function useExecuteBucket() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => executeBucket(teamId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: bucketsKey(teamId) }),
  });
}
