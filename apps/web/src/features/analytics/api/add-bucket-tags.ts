import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { Tag } from '@flywheel/shared/directory';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam, useInvalidateWorkspace } from '../../../entities/workspace/index.ts';

const addTagsResponse = messageResponse.extend({ added: z.number() });

/** POST /bucket/addtags {id, tags [{id, name}], team_id}: the tags go to every member of the last run. */
export const addBucketTags = (teamId: string, id: number, tags: Tag[]) =>
  apiRequest('/bucket/addtags', { body: { team_id: teamId, id, tags }, schema: addTagsResponse });

export function useAddBucketTags() {
  const { teamId } = useCurrentTeam();
  const refresh = useInvalidateWorkspace();
  return useMutation({
    mutationFn: (v: { id: number; tags: Tag[] }) => addBucketTags(teamId, v.id, v.tags),
    onSuccess: refresh,
  });
}
