import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { wordCloud } from '@flywheel/shared/endpoints/analytics';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import type { TimeChoice } from '../../../lib/time-filter.ts';
import { useTeamScope } from '../../../entities/workspace/index.ts';
import { analyticsKey } from './keys.ts';

/** POST /analytics/wordcloud: words with their relevance (0..1), most relevant first. */
export const getWordCloud = (teamId: string, time: TimeChoice, signal?: AbortSignal) =>
  callEndpoint(wordCloud, { body: { team_id: teamId, time_filter: time } }, { signal }).then((a) => a.data);

export const wordCloudQuery = (teamId: string, time: TimeChoice) =>
  queryOptions({
    queryKey: [...analyticsKey(teamId), 'wordcloud', time],
    queryFn: ({ signal }) => getWordCloud(teamId, time, signal),
    placeholderData: keepPreviousData,
  });

export function useWordCloud(time: TimeChoice) {
  const { teamId, enabled } = useTeamScope();
  return useQuery({ ...wordCloudQuery(teamId, time), enabled });
}
