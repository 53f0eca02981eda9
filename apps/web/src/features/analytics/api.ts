import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type {
  ActivityRow,
  ChannelActivity,
  MemberActivity,
  MembersActivityPage,
  MembersChangeRow,
  SummaryCard,
  WordCloudItem,
} from '@flywheel/shared/analytics';
import type { ActivityFilter } from '@flywheel/shared/members';
import { apiRequest } from '../../lib/api-client.ts';
import type { TimeChoice } from '../../lib/time-filter.ts';
import { useCurrentTeam, workspaceKey } from '../../lib/workspace-data.ts';

/*
 * Every Analytics call in one place. Answers are read through `unwrap`: `{ data: X }` or a bare X, so a change
 * of the server's wrapper is a one-line change here.
 */
const enc = encodeURIComponent;
const unwrap = <T>(r: unknown): T =>
  (r && typeof r === 'object' && !Array.isArray(r) && 'data' in r ? (r as { data: T }).data : r) as T;
const key = (teamId: string) => [...workspaceKey(teamId), 'analytics'] as const;
const post = <T>(path: string, body: unknown, signal?: AbortSignal) =>
  apiRequest<unknown>(path, { body, signal }).then(unwrap<T>);

export type ActivityRequest = { time: TimeChoice; channels: string[] };
export type MembersActivityRequest = ActivityRequest & {
  activity: ActivityFilter | undefined;
  tags: number[];
};
/** Rows per page of the Members Activity table (the server pages, most active first). */
export const MEMBERS_ACTIVITY_PAGE_SIZE = 10;

const membersActivityBody = (teamId: string, r: MembersActivityRequest) => ({
  team_id: teamId,
  time_filter: r.time,
  channels: r.channels,
  activity_filter: r.activity,
  tags: r.tags,
});

export const analyticsQueries = {
  compare: (teamId: string, days: number) =>
    queryOptions({
      queryKey: [...key(teamId), 'compare', days],
      queryFn: ({ signal }): Promise<SummaryCard[]> =>
        apiRequest<unknown>(`/analytics/getanalyticscompare/${enc(teamId)}/${days}`, { signal }).then(
          unwrap<SummaryCard[]>,
        ),
      placeholderData: keepPreviousData,
    }),
  trend: (teamId: string, time: TimeChoice, slot: number) =>
    queryOptions({
      queryKey: [...key(teamId), 'trend', time, slot],
      queryFn: ({ signal }): Promise<Record<string, number>> =>
        post<{ slots?: Record<string, number> }>(
          '/analytics/getactivitytrend',
          { team_id: teamId, time_filter: time, slot },
          signal,
        ).then((r) => r.slots ?? {}),
      placeholderData: keepPreviousData,
    }),
  activity: (teamId: string, r: ActivityRequest) =>
    queryOptions({
      queryKey: [...key(teamId), 'activity', r],
      queryFn: ({ signal }): Promise<ActivityRow[]> =>
        post<ActivityRow[]>(
          '/analytics/activityanalytics',
          { team_id: teamId, time_filter: r.time, channels: r.channels },
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
  membersChange: (teamId: string, r: ActivityRequest) =>
    queryOptions({
      queryKey: [...key(teamId), 'members-change', r],
      queryFn: ({ signal }): Promise<MembersChangeRow[]> =>
        post<MembersChangeRow[]>(
          '/analytics/memberschangeanalytics',
          { team_id: teamId, time_filter: r.time, channels: r.channels },
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
  /** One page of the Members Activity table: `{ data: the page's rows, total: every match }`. */
  membersActivity: (teamId: string, r: MembersActivityRequest, page: number) =>
    queryOptions({
      queryKey: [...key(teamId), 'members-activity', r, page],
      queryFn: ({ signal }): Promise<MembersActivityPage> =>
        apiRequest<Partial<MembersActivityPage>>('/analytics/membersactivityanalytics', {
          body: { ...membersActivityBody(teamId, r), page, page_size: MEMBERS_ACTIVITY_PAGE_SIZE },
          signal,
        }).then((res) => ({ data: res.data ?? [], total: res.total ?? res.data?.length ?? 0 })),
      placeholderData: keepPreviousData,
    }),
  channelsActivity: (teamId: string, time: TimeChoice, activity: ActivityFilter | undefined) =>
    queryOptions({
      queryKey: [...key(teamId), 'channels-activity', time, activity],
      queryFn: ({ signal }): Promise<ChannelActivity[]> =>
        post<ChannelActivity[]>(
          '/analytics/channelsactivityanalytics',
          { team_id: teamId, time_filter: time, activity_filter: activity },
          signal,
        ),
      placeholderData: keepPreviousData,
    }),
  wordCloud: (teamId: string, time: TimeChoice) =>
    queryOptions({
      queryKey: [...key(teamId), 'wordcloud', time],
      queryFn: ({ signal }): Promise<WordCloudItem[]> =>
        post<WordCloudItem[]>('/analytics/wordcloud', { team_id: teamId, time_filter: time }, signal),
      placeholderData: keepPreviousData,
    }),
};

function useTeam() {
  const { teamId } = useCurrentTeam();
  return { teamId, enabled: teamId !== '' };
}

export function useCompare(days: number) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...analyticsQueries.compare(teamId, days), enabled });
}
export function useTrend(time: TimeChoice, slot: number) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...analyticsQueries.trend(teamId, time, slot), enabled });
}
export function useActivity(r: ActivityRequest) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...analyticsQueries.activity(teamId, r), enabled });
}
export function useMembersChange(r: ActivityRequest) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...analyticsQueries.membersChange(teamId, r), enabled });
}
export function useMembersActivity(r: MembersActivityRequest, page: number) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...analyticsQueries.membersActivity(teamId, r, page), enabled });
}
/**
 * Every member matching the filters, fetched when asked (the Members Activity CSV): without page_size the
 * server sends all of them, in the table's order.
 */
export function useAllMembersActivity() {
  const { teamId } = useTeam();
  return useMutation({
    mutationFn: (r: MembersActivityRequest): Promise<MemberActivity[]> =>
      post<MemberActivity[]>('/analytics/membersactivityanalytics', membersActivityBody(teamId, r)),
  });
}
export function useChannelsActivity(time: TimeChoice, activity: ActivityFilter | undefined) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...analyticsQueries.channelsActivity(teamId, time, activity), enabled });
}
export function useWordCloud(time: TimeChoice) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...analyticsQueries.wordCloud(teamId, time), enabled });
}
