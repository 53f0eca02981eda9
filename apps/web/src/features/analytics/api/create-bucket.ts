import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createBucketResponse, type BucketData } from '@flywheel/shared/buckets';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { bucketsKey } from '../../../entities/buckets/index.ts';

/** POST /bucket/createbucket {data, bucket_name, team_id} */
export const createBucket = (teamId: string, name: string, data: BucketData) =>
  apiRequest('/bucket/createbucket', {
    body: { team_id: teamId, bucket_name: name, data },
    schema: createBucketResponse,
  });

export function useCreateBucket() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; data: BucketData }) => createBucket(teamId, v.name, v.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: bucketsKey(teamId) }),
  });
}
