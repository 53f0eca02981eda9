import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  WORKSPACE_SCOPE,
  mentionsResponse,
  searchResponse,
  summaryResponse,
  threadsResponse,
  uniqueReactionsResponse,
  uniqueRepliesResponse,
  type SortDirection,
  type SummarizeRequest,
  type ThreadSort,
} from '@flywheel/shared/conversations';
import type { PinRequest, ReactionRequest } from '@flywheel/shared/delivery';
import { addReaction, pinPost, unpinPost } from '@flywheel/shared/endpoints/delivery';
import { questionsResponse, type MarkHandledRequest } from '@flywheel/shared/questions';
import { apiRequest } from '../../lib/api-client.ts';
import { requestData } from '../../lib/api-data.ts';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam, workspaceKey } from '../../entities/workspace/index.ts';

const enc = encodeURIComponent;

/** Every list of this tab (threads, posts, mentions): refreshed together after a pin, reply or reaction. */
export const conversationsKey = (teamId: string) => [...workspaceKey(teamId), 'conversations'] as const;

export type Window = { start: string; end: string };

/** How the Threads list is ordered: the server sorts the whole window (default newest first). */
export type ThreadOrder = { sort: ThreadSort; direction: SortDirection };
export const NEWEST_THREADS: ThreadOrder = { sort: 'time', direction: 'desc' };

/** GET /actions/getthreads: in the order asked (over the whole window), a page at a time ('Load more'). */
export function useThreads(window: Window, channel: string | null, order: ThreadOrder = NEWEST_THREADS) {
  const { teamId } = useCurrentTeam();
  const scope = channel ?? WORKSPACE_SCOPE;
  const newest = order.sort === NEWEST_THREADS.sort && order.direction === NEWEST_THREADS.direction;
  const list = [...conversationsKey(teamId), 'threads', window.start, window.end, scope];
  return useInfiniteQuery({
    queryKey: [...list, order.sort, order.direction],
    enabled: teamId !== '',
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const params = new URLSearchParams();
      if (!newest) {
        params.set('sort', order.sort);
        params.set('direction', order.direction);
      }
      if (pageParam) params.set('cursor', pageParam);
      const query = params.toString() ? `?${params}` : '';
      return apiRequest(
        `/actions/getthreads/${enc(teamId)}/${enc(window.start)}/${enc(window.end)}/${enc(scope)}${query}`,
        { schema: threadsResponse, signal },
      );
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // Another order of the same threads keeps the rows on screen until its first page is in; another window or
    // channel starts from the skeleton.
    placeholderData: (previous, query) =>
      query && list.every((part, i) => query.queryKey[i] === part) ? previous : undefined,
  });
}

export type ThreadRef = { channelId: string; ts: string };
const threadPath = (teamId: string, t: ThreadRef) =>
  `${enc(teamId)}/${enc(t.ts)}?channel_id=${enc(t.channelId)}`;

export function useReplies(t: ThreadRef | null) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...conversationsKey(teamId), 'replies', t?.channelId, t?.ts],
    enabled: teamId !== '' && t !== null,
    queryFn: ({ signal }) =>
      requestData(`/actions/getuniquereplies/${threadPath(teamId, t!)}`, uniqueRepliesResponse, { signal }),
  });
}

export function useReactions(t: ThreadRef | null) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...conversationsKey(teamId), 'reactions', t?.channelId, t?.ts],
    enabled: teamId !== '' && t !== null,
    queryFn: ({ signal }) =>
      requestData(`/actions/getuniquereactions/${threadPath(teamId, t!)}`, uniqueReactionsResponse, {
        signal,
      }),
  });
}

/**
 * GET /actions/searchthreads: full-text search over the workspace's (or a channel's) messages. `run` is part of
 * the key, so pressing Search again asks the server again.
 */
export function useSearch(q: string, channel: string | null, run: number) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...conversationsKey(teamId), 'search', q, channel, run],
    enabled: teamId !== '' && q.trim() !== '',
    queryFn: ({ signal }) =>
      requestData(
        `/actions/searchthreads/${enc(teamId)}?q=${enc(q)}${channel ? `&channel_id=${enc(channel)}` : ''}`,
        searchResponse,
        { signal },
      ),
  });
}

export type MentionFilters = { q: string; userId: string | null; channelId: string | null };

/** GET /mentions/getmentions: newest first, filtered on the server, a page at a time. */
export function useMentions(f: MentionFilters) {
  const { teamId } = useCurrentTeam();
  return useInfiniteQuery({
    queryKey: [...conversationsKey(teamId), 'mentions', f.q, f.userId, f.channelId],
    enabled: teamId !== '',
    // The cards stay while a filter's answer comes.
    placeholderData: keepPreviousData,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const p = new URLSearchParams();
      if (f.q.trim()) p.set('q', f.q.trim());
      if (f.userId) p.set('user_id', f.userId);
      if (f.channelId) p.set('channel_id', f.channelId);
      if (pageParam) p.set('cursor', pageParam);
      const qs = p.toString();
      return apiRequest(`/mentions/getmentions/${enc(teamId)}${qs ? `?${qs}` : ''}`, {
        schema: mentionsResponse,
        signal,
      });
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** POST /actions/summarizeThread. */
export const useSummarize = () =>
  useMutation({
    mutationFn: (body: SummarizeRequest) =>
      requestData('/actions/summarizeThread', summaryResponse, { body }),
  });

/** After a pin, reply or reaction: every list of the tab reads again. */
function useRefresh() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  return () => qc.invalidateQueries({ queryKey: conversationsKey(teamId) });
}

/** Pin toggles per thread: pin when not pinned, unpin when pinned (the delivery engine's calls). */
export function useTogglePin() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ pinned, ...body }: PinRequest & { pinned: boolean }) =>
      callEndpoint(pinned ? unpinPost : pinPost, { body }),
    // Slack's pin event reaches the list a moment later.
    onSuccess: () => setTimeout(() => void refresh(), 1500),
  });
}

/** A reaction (as the bot); on a mention through /mentions/addreaction, which marks it 'Seen'. */
export function useReact() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: ReactionRequest) =>
      body.mention_id
        ? apiRequest<{ message: string }>('/mentions/addreaction', { body })
        : callEndpoint(addReaction, { body }),
    onSuccess: () => void refresh(),
  });
}

export const useRefreshConversations = useRefresh;

/**
 * How often the Questions tab asks again while it is shown: replies and reactions in Slack take questions off the
 * list, and the tab's count should follow within seconds (the list's query is an index read, p95 under 110 ms at
 * 50,000 members: bench/conversations/QUESTIONS.md).
 */
export const QUESTIONS_POLL_MS = 10_000;

export type QuestionFilters = {
  channelId: string | null;
  maxAgeDays: number;
  /** How long a question must have waited unanswered (minutes; the server's default is 120). */
  answerAfterMinutes: number;
  q: string;
};

/**
 * GET /questions/getquestions: unanswered questions, newest first, a page at a time, with their total; asked
 * again every QUESTIONS_POLL_MS and after a reply, reaction or 'Mark handled' here.
 */
export function useQuestions(f: QuestionFilters) {
  const { teamId } = useCurrentTeam();
  return useInfiniteQuery({
    queryKey: [
      ...conversationsKey(teamId),
      'questions',
      f.channelId,
      f.maxAgeDays,
      f.answerAfterMinutes,
      f.q,
    ],
    enabled: teamId !== '',
    placeholderData: keepPreviousData,
    refetchInterval: QUESTIONS_POLL_MS,
    initialPageParam: '',
    queryFn: ({ pageParam, signal }) => {
      const p = new URLSearchParams({
        max_age_days: String(f.maxAgeDays),
        answer_after_minutes: String(f.answerAfterMinutes),
      });
      if (f.channelId) p.set('channel_id', f.channelId);
      if (f.q.trim()) p.set('q', f.q.trim());
      if (pageParam) p.set('cursor', pageParam);
      return apiRequest(`/questions/getquestions/${enc(teamId)}?${p}`, { schema: questionsResponse, signal });
    },
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** POST /questions/markhandled: the question leaves the list. */
export function useMarkHandled() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: MarkHandledRequest) =>
      apiRequest<{ message: string }>('/questions/markhandled', { body }),
    onSuccess: () => void refresh(),
  });
}
