import { useMutation } from '@tanstack/react-query';
import { removeTagFromMember } from '@flywheel/shared/endpoints/tags';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam, useInvalidateWorkspace } from '../../../entities/workspace/index.ts';

/** DELETE /tags/removetagfromuser/{team}/{member}/{tag}; everything the workspace shows reloads. */
export const removeTag = (teamId: string, memberId: string, tagId: number) =>
  callEndpoint(removeTagFromMember, { params: { teamId, memberId, tagId } });

export function useRemoveTag() {
  const { teamId } = useCurrentTeam();
  const refresh = useInvalidateWorkspace();
  return useMutation({
    mutationFn: (v: { memberId: string; tagId: number }) => removeTag(teamId, v.memberId, v.tagId),
    onSuccess: refresh,
  });
}
