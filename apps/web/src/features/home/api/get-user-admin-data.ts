import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { getUserAdminData } from '@flywheel/shared/endpoints/home';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import type { TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { homeKey } from './keys.ts';

/** Admin vs member counts of messages and replies (Content Generation). */
export type ContentShare = { admins: number; members: number };

/** POST /homepage/getuseradmindata: admins' and members' messages and replies in the window. */
export const getContentShare = (
  teamId: string,
  time: TimeChoice,
  signal?: AbortSignal,
): Promise<ContentShare> =>
  callEndpoint(getUserAdminData, { body: { team_id: teamId, time_filter: time } }, { signal }).then(
    ({ data: d }) => ({ admins: d.admin, members: d.members }),
  );

export const contentShareQuery = (teamId: string, time: TimeChoice) =>
  queryOptions({
    queryKey: [...homeKey(teamId), 'content', time],
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => getContentShare(teamId, time, signal),
  });

export function useContentShare(time: TimeChoice) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...contentShareQuery(teamId, time), enabled });
}
