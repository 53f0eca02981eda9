import {
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import {
  WORKSPACE_SCOPE,
  type SortDirection,
  type SummarizeRequest,
  type ThreadSort,
} from '@flywheel/shared/conversations';
import type { PinRequest, ReactionRequest } from '@flywheel/shared/delivery';
import {
  addMentionReaction,
  getMentions,
  getQuestions,
  getThreads,
  getUniqueReactions,
  getUniqueReplies,
  markQuestionHandled,
  searchThreads,
  summarizeThread,
} from '@flywheel/shared/endpoints/conversations';
import { addReaction, pinPost, unpinPost } from '@flywheel/shared/endpoints/delivery';
import type { MarkHandledRequest } from '@flywheel/shared/questions';
import { callEndpoint } from '../../lib/endpoint-client.ts';
import { useCurrentTeam, workspaceKey } from '../../entities/workspace/index.ts';

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
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(
        getThreads,
        {
          params: { teamId, start: window.start, end: window.end, channel: scope },
          query: {
            sort: newest ? undefined : order.sort,
            direction: newest ? undefined : order.direction,
            cursor: pageParam || undefined,
          },
        },
        { signal },
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    // Another order of the same threads keeps the rows on screen until its first page is in; another window or
    // channel starts from the skeleton.
    placeholderData: (previous, query) =>
      query && list.every((part, i) => query.queryKey[i] === part) ? previous : undefined,
  });
}

export type ThreadRef = { channelId: string; ts: string };
const threadInput = (teamId: string, t: ThreadRef) => ({
  params: { teamId, ts: t.ts },
  query: { channel_id: t.channelId },
});

export function useReplies(t: ThreadRef | null) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...conversationsKey(teamId), 'replies', t?.channelId, t?.ts],
    enabled: teamId !== '' && t !== null,
    queryFn: ({ signal }) =>
      callEndpoint(getUniqueReplies, threadInput(teamId, t!), { signal }).then((r) => r.data),
  });
}

export function useReactions(t: ThreadRef | null) {
  const { teamId } = useCurrentTeam();
  return useQuery({
    queryKey: [...conversationsKey(teamId), 'reactions', t?.channelId, t?.ts],
    enabled: teamId !== '' && t !== null,
    queryFn: ({ signal }) =>
      callEndpoint(getUniqueReactions, threadInput(teamId, t!), { signal }).then((r) => r.data),
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
      callEndpoint(
        searchThreads,
        { params: { teamId }, query: { q, channel_id: channel ?? undefined } },
        { signal },
      ).then((r) => r.data),
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
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(
        getMentions,
        {
          params: { teamId },
          query: {
            q: f.q.trim() || undefined,
            user_id: f.userId ?? undefined,
            channel_id: f.channelId ?? undefined,
            cursor: pageParam || undefined,
          },
        },
        { signal },
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** POST /actions/summarizeThread. */
export const useSummarize = () =>
  useMutation({
    mutationFn: (body: SummarizeRequest) => callEndpoint(summarizeThread, { body }).then((r) => r.data),
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
      body.mention_id ? callEndpoint(addMentionReaction, { body }) : callEndpoint(addReaction, { body }),
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
    queryFn: ({ pageParam, signal }) =>
      callEndpoint(
        getQuestions,
        {
          params: { teamId },
          query: {
            max_age_days: f.maxAgeDays,
            answer_after_minutes: f.answerAfterMinutes,
            channel_id: f.channelId ?? undefined,
            q: f.q.trim() || undefined,
            cursor: pageParam || undefined,
          },
        },
        { signal },
      ),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}

/** POST /questions/markhandled: the question leaves the list. */
export function useMarkHandled() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (body: MarkHandledRequest) => callEndpoint(markQuestionHandled, { body }),
    onSuccess: () => void refresh(),
  });
}
