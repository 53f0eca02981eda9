import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import type { Tag } from '@flywheel/shared/directory';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam, useInvalidateWorkspace } from '../../../entities/workspace/index.ts';

const addTagsResponse = messageResponse.extend({ added: z.number() });

/** POST /tags/addtagtousers; everything the workspace shows reloads (tables, member pages). */
export const addTags = (teamId: string, tags: Tag[], memberIds: string[]) =>
  apiRequest('/tags/addtagtousers', {
    body: { team_id: teamId, tags, users: memberIds.map((id) => ({ id })) },
    schema: addTagsResponse,
  });

export function useAddTags() {
  const { teamId } = useCurrentTeam();
  const refresh = useInvalidateWorkspace();
  return useMutation({
    mutationFn: (v: { tags: Tag[]; memberIds: string[] }) => addTags(teamId, v.tags, v.memberIds),
    onSuccess: refresh,
  });
}
