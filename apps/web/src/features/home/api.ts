import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ActivityRow,
  BotDetails,
  ChannelActivity,
  MemberActivity,
  SummaryCard,
  Task,
} from '@flywheel/shared/analytics';
import { apiRequest } from '../../lib/api-client.ts';
import { notifySuccess } from '../../lib/notify.tsx';
import { rangeQueryString, type TimeChoice } from '../../lib/time-filter.ts';
import { useCurrentTeam, workspaceKey } from '../../lib/workspace-data.ts';

/*
 * Every Home call in one place. Answers are read through `unwrap`: `{ data: X }` or a bare X, so a change of the
 * server's wrapper is a one-line change here.
 */
const enc = encodeURIComponent;
const unwrap = <T>(r: unknown): T =>
  (r && typeof r === 'object' && !Array.isArray(r) && 'data' in r ? (r as { data: T }).data : r) as T;
const homeKey = (teamId: string) => [...workspaceKey(teamId), 'home'] as const;
const get = <T>(path: string, signal: AbortSignal) => apiRequest<unknown>(path, { signal }).then(unwrap<T>);
const post = <T>(path: string, body: unknown, signal?: AbortSignal) =>
  apiRequest<unknown>(path, { body, signal }).then(unwrap<T>);

/** Admin vs member share of messages and replies (Content Generation). */
export type ContentShare = { admins: number; members: number };

/** Reads the admin/member split whatever the field names are (counts or percents). */
export function toContentShare(raw: unknown): ContentShare {
  if (Array.isArray(raw)) {
    const find = (re: RegExp) => {
      const row = raw.find((r) => re.test(String((r as { name?: string }).name ?? '')));
      return Number((row as { value?: number } | undefined)?.value ?? 0);
    };
    return { admins: find(/admin/i), members: find(/member/i) };
  }
  const o = (raw ?? {}) as Record<string, unknown>;
  const num = (...keys: string[]) => {
    for (const k of keys) if (typeof o[k] === 'number') return o[k] as number;
    return 0;
  };
  return {
    admins: num('admins', 'admin', 'admin_percent', 'adminPercent', 'admin_count'),
    members: num('members', 'member', 'member_percent', 'memberPercent', 'members_percent', 'member_count'),
  };
}

export const homeQueries = {
  cards: (teamId: string) =>
    queryOptions({
      queryKey: [...homeKey(teamId), 'cards'],
      queryFn: ({ signal }) => get<SummaryCard[]>(`/homepage/getcardsdata/${enc(teamId)}`, signal),
    }),
  highlights: (teamId: string, time: TimeChoice) =>
    queryOptions({
      queryKey: [...homeKey(teamId), 'highlights', time],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        get<ActivityRow[]>(`/homepage/workspacehighlights/${enc(teamId)}?${rangeQueryString(time)}`, signal),
    }),
  channels: (teamId: string, time: TimeChoice) =>
    queryOptions({
      queryKey: [...homeKey(teamId), 'channels', time],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        get<ChannelActivity[]>(`/homepage/getchanneldata/${enc(teamId)}?${rangeQueryString(time)}`, signal),
    }),
  content: (teamId: string, time: TimeChoice) =>
    queryOptions({
      queryKey: [...homeKey(teamId), 'content', time],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }): Promise<ContentShare> =>
        post<unknown>('/homepage/getuseradmindata', { team_id: teamId, time_filter: time }, signal).then(
          toContentShare,
        ),
    }),
  topMembers: (teamId: string, time: TimeChoice) =>
    queryOptions({
      queryKey: [...homeKey(teamId), 'top-members', time],
      placeholderData: keepPreviousData,
      queryFn: ({ signal }) =>
        post<MemberActivity[]>(
          '/homepage/getmostactivemembers',
          { team_id: teamId, time_filter: time },
          signal,
        ),
    }),
  bot: (teamId: string) =>
    queryOptions({
      queryKey: [...homeKey(teamId), 'bot'],
      queryFn: ({ signal }) => get<BotDetails>(`/alterbot/getbotdetails/${enc(teamId)}`, signal),
    }),
  tasks: (teamId: string) =>
    queryOptions({
      queryKey: [...homeKey(teamId), 'tasks'],
      queryFn: ({ signal }) => get<Task[]>(`/homepage/gettasks/${enc(teamId)}`, signal),
    }),
};

function useTeam() {
  const { teamId } = useCurrentTeam();
  return { teamId, enabled: teamId !== '' };
}

export function useSummaryCards() {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...homeQueries.cards(teamId), enabled });
}
export function useHighlights(time: TimeChoice) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...homeQueries.highlights(teamId, time), enabled });
}
export function useChannelData(time: TimeChoice) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...homeQueries.channels(teamId, time), enabled });
}
export function useContentShare(time: TimeChoice) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...homeQueries.content(teamId, time), enabled });
}
export function useTopMembers(time: TimeChoice) {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...homeQueries.topMembers(teamId, time), enabled });
}
export function useBotDetails() {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...homeQueries.bot(teamId), enabled });
}
export function useTasks() {
  const { teamId, enabled } = useTeam();
  return useQuery({ ...homeQueries.tasks(teamId), enabled });
}

/* Bot */

export const BOT_UPLOADED = 'Bot Details Uploaded Successfully!';

export function useUploadBot() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: { botName: string; use_custom: boolean }) =>
      apiRequest<{ message?: string }>('/alterbot/uploadinfo', { body: { ...v, team_id: teamId } }),
    onSuccess: (_r, v) => {
      notifySuccess(BOT_UPLOADED);
      qc.setQueryData<BotDetails>(homeQueries.bot(teamId).queryKey, (old) => ({
        bot_image: old?.bot_image ?? null,
        bot_name: v.botName,
        use_custom: v.use_custom,
      }));
      void qc.invalidateQueries({ queryKey: homeQueries.bot(teamId).queryKey });
    },
  });
}

/* Tasks */

export type TaskStatus = Task['status'];

export function useTaskMutations() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  const key = homeQueries.tasks(teamId).queryKey;
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: (v: { title: string; description: string; status: TaskStatus }) =>
      post<Task>('/homepage/createtasks', { team_id: teamId, ...v }),
    onSettled: refresh,
  });
  const edit = useMutation({
    mutationFn: (v: { id: number; title: string; description: string }) =>
      apiRequest<unknown>('/homepage/edittask', { method: 'PATCH', body: { team_id: teamId, ...v } }),
    onMutate: (v) =>
      qc.setQueryData<Task[]>(key, (old) => old?.map((t) => (t.id === v.id ? { ...t, ...v } : t))),
    onSettled: refresh,
  });
  const drop = useMutation({
    mutationFn: (v: { id: number; status: TaskStatus; position: number }) =>
      apiRequest<unknown>('/homepage/droptask', { method: 'PATCH', body: { team_id: teamId, ...v } }),
    onMutate: (v) =>
      qc.setQueryData<Task[]>(key, (old) => (old ? moveTask(old, v.id, v.status, v.position) : old)),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) =>
      apiRequest<unknown>(`/homepage/deletetask/${id}/${enc(teamId)}`, { method: 'DELETE' }),
    onMutate: (id) => qc.setQueryData<Task[]>(key, (old) => old?.filter((t) => t.id !== id)),
    onSettled: refresh,
  });
  return { create, edit, drop, remove };
}

/** The board after moving a task to `position` (0-based) of column `status`; positions renumbered per column. */
export function moveTask(tasks: readonly Task[], id: number, status: TaskStatus, position: number): Task[] {
  const moving = tasks.find((t) => t.id === id);
  if (!moving) return [...tasks];
  const others = tasks.filter((t) => t.id !== id);
  const column = others.filter((t) => t.status === status).sort((a, b) => a.position - b.position);
  const at = Math.max(0, Math.min(position, column.length));
  column.splice(at, 0, { ...moving, status });
  const renumbered = new Map(column.map((t, i) => [t.id, { ...t, position: i }]));
  const rest = others
    .filter((t) => t.status !== status)
    .map((t) => t)
    .sort((a, b) => a.position - b.position);
  // Renumber the column the task left, too.
  const left = rest.filter((t) => t.status === moving.status).map((t, i) => ({ ...t, position: i }));
  const untouched = rest.filter((t) => t.status !== moving.status);
  return [...untouched, ...left, ...renumbered.values()];
}
