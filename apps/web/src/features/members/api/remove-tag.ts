import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';
import { useCurrentTeam, useInvalidateWorkspace } from '../../../entities/workspace/index.ts';

const enc = encodeURIComponent;

/** DELETE /tags/removetagfromuser/{team}/{member}/{tag}; everything the workspace shows reloads. */
export const removeTag = (teamId: string, memberId: string, tagId: number) =>
  apiRequest(`/tags/removetagfromuser/${enc(teamId)}/${enc(memberId)}/${tagId}`, {
    method: 'DELETE',
    schema: messageResponse,
  });

export function useRemoveTag() {
  const { teamId } = useCurrentTeam();
  const refresh = useInvalidateWorkspace();
  return useMutation({
    mutationFn: (v: { memberId: string; tagId: number }) => removeTag(teamId, v.memberId, v.tagId),
    onSuccess: refresh,
  });
}
