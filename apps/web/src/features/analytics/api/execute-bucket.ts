import { useMutation, useQueryClient } from '@tanstack/react-query';
import { executeBucketResponse } from '@flywheel/shared/buckets';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { bucketsKey } from '../../../entities/buckets/index.ts';

/** POST /bucket/execute {id, team_id}: runs the bucket on the current data (data.bucketdata.last_execute). */
export const executeBucket = (teamId: string, id: number) =>
  apiRequest('/bucket/execute', { body: { team_id: teamId, id }, schema: executeBucketResponse });

export function useExecuteBucket() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => executeBucket(teamId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: bucketsKey(teamId) }),
  });
}
