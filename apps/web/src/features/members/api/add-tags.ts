import { useMutation } from '@tanstack/react-query';
import type { Tag } from '@flywheel/shared/directory';
import { addTagsToMembers } from '@flywheel/shared/endpoints/tags';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam, useInvalidateWorkspace } from '../../../entities/workspace/index.ts';

/** POST /tags/addtagtousers; everything the workspace shows reloads (tables, member pages). */
export const addTags = (teamId: string, tags: Tag[], memberIds: string[]) =>
  callEndpoint(addTagsToMembers, { body: { team_id: teamId, tags, users: memberIds.map((id) => ({ id })) } });

export function useAddTags() {
  const { teamId } = useCurrentTeam();
  const refresh = useInvalidateWorkspace();
  return useMutation({
    mutationFn: (v: { tags: Tag[]; memberIds: string[] }) => addTags(teamId, v.tags, v.memberIds),
    onSuccess: refresh,
  });
}
