import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { notifyFailure } from '../../lib/notify.tsx';
import {
  useAuthorizedAdmins,
  useChannels,
  useCurrentTeam,
  useWorkspaceStatus,
  workspaceKey,
} from '../../entities/workspace/index.ts';
import { useTags } from '../../entities/tags/index.ts';

export const LOAD_FAILED_TEXT = 'Failed to fetch data!';

/**
 * A signed-in user with a workspace loads its channels, authorized admins and tags. Members
 * are not loaded whole (GET /members/getmembers is ~17 MB at 50,000 members): the top bar and the pickers
 * search on the server and screens look up the names of the ids they show (entities/members).
 * Any failure shows one 'Failure' toast per workspace (not one per call). When the history import finishes,
 * the directory is fetched again so imported members and channels appear. Renders nothing.
 */
export function LoginLoads() {
  const { teamId } = useCurrentTeam();
  const queries = [useChannels(), useAuthorizedAdmins(), useTags()];
  const failed = queries.some((q) => q.isError);
  const toasted = useRef<string | null>(null);

  useEffect(() => {
    if (failed && teamId && toasted.current !== teamId) {
      toasted.current = teamId;
      notifyFailure(LOAD_FAILED_TEXT, 'Failure');
    }
  }, [failed, teamId]);

  const queryClient = useQueryClient();
  const backfill = useWorkspaceStatus().data?.backfill?.status;
  const previous = useRef(backfill);
  useEffect(() => {
    const was = previous.current;
    previous.current = backfill;
    if (was === 'running' && backfill !== 'running' && teamId) {
      void queryClient.invalidateQueries({
        queryKey: workspaceKey(teamId),
        predicate: (q) => q.queryKey[2] !== 'status',
      });
    }
  }, [backfill, teamId, queryClient]);

  return null;
}
