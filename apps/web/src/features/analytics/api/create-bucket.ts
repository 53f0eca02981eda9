import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BucketData } from '@flywheel/shared/buckets';
import { createBucket as createBucketEndpoint } from '@flywheel/shared/endpoints/buckets';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { bucketsKey } from '../../../entities/buckets/index.ts';

/** POST /bucket/createbucket {data, bucket_name, team_id} */
export const createBucket = (teamId: string, name: string, data: BucketData) =>
  callEndpoint(createBucketEndpoint, { body: { team_id: teamId, bucket_name: name, data } });

export function useCreateBucket() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { name: string; data: BucketData }) => createBucket(teamId, v.name, v.data),
    onSuccess: () => qc.invalidateQueries({ queryKey: bucketsKey(teamId) }),
  });
}
