import { useMutation } from '@tanstack/react-query';
import type { Tag } from '@flywheel/shared/directory';
import { addBucketTags as addBucketTagsEndpoint } from '@flywheel/shared/endpoints/buckets';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam, useInvalidateWorkspace } from '../../../entities/workspace/index.ts';

/** POST /bucket/addtags {id, tags [{id, name}], team_id}: the tags go to every member of the last run. */
export const addBucketTags = (teamId: string, id: number, tags: Tag[]) =>
  callEndpoint(addBucketTagsEndpoint, { body: { team_id: teamId, id, tags } });

export function useAddBucketTags() {
  const { teamId } = useCurrentTeam();
  const refresh = useInvalidateWorkspace();
  return useMutation({
    mutationFn: (v: { id: number; tags: Tag[] }) => addBucketTags(teamId, v.id, v.tags),
    onSuccess: refresh,
  });
}
