import { useMutation, useQueryClient } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { bucketsKey } from '../../../entities/buckets/index.ts';

/** DELETE /bucket/deletebucket/{id}/{teamId} */
export const deleteBucket = (teamId: string, id: number) =>
  apiRequest(`/bucket/deletebucket/${id}/${encodeURIComponent(teamId)}`, {
    method: 'DELETE',
    schema: messageResponse,
  });

export function useDeleteBucket() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteBucket(teamId, id),
    onSuccess: () => qc.invalidateQueries({ queryKey: bucketsKey(teamId) }),
  });
}
