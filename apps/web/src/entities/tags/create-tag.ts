import { useIsMutating, useMutation, useQueryClient } from '@tanstack/react-query';
import { createTag as createTagEndpoint } from '@flywheel/shared/endpoints/tags';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { tagsQuery } from './tags-query.ts';
import { useCurrentTeam } from '../workspace/index.ts';

const CREATE_TAG = ['tags', 'create'] as const;

/** POST /tags/createtag; the workspace's tag list reloads. */
export const createTag = (teamId: string, name: string) =>
  callEndpoint(createTagEndpoint, { body: { team_id: teamId, name } });

export function useCreateTag() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationKey: CREATE_TAG,
    mutationFn: (name: string) => createTag(teamId, name),
    onSuccess: () => qc.invalidateQueries({ queryKey: tagsQuery(teamId).queryKey }),
  });
}

/** Whether a tag is being created ('+ create tag'): a form that adds the picked tags waits for it. */
export const useCreatingTag = () => useIsMutating({ mutationKey: CREATE_TAG }) > 0;
