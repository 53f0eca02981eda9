import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deleteBucket as deleteBucketEndpoint } from '@flywheel/shared/endpoints/buckets';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { bucketsKey } from '../../../entities/buckets/index.ts';

/** DELETE /bucket/deletebucket/{id}/{teamId} */
export const deleteBucket = (teamId: string, id: number) =>
  callEndpoint(deleteBucketEndpoint, { params: { id, teamId } });

export function useDeleteBucket() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteBucket(teamId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: bucketsKey(teamId) }),
  });
}
