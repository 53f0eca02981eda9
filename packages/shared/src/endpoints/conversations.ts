import { z } from 'zod';
import {
  WORKSPACE_SCOPE,
  algoliaTokenResponse,
  isoDateTime,
  mentionsQuery,
  mentionsResponse,
  searchQuery,
  searchResponse,
  slackTsSchema,
  summarizeBody,
  summaryResponse,
  threadQuery,
  threadsQuery,
  threadsResponse,
  uniqueReactionsResponse,
  uniqueRepliesResponse,
} from '../conversations.ts';
import { idempotencyHeaders, reactionBody, replyBody, sendResponse } from '../delivery.ts';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { messageResponse } from '../http.ts';
import { slackId } from '../input.ts';
import {
  markHandledBody,
  questionsQuery,
  questionsResponse,
  responseTimesQuery,
  responseTimesResponse,
} from '../questions.ts';

/*
 * The conversations module (apps/server/src/modules/conversations/routes.ts): threads, a thread's replies and
 * reactions, search, summaries, mentions (a reply goes through the delivery engine; a reply or reaction marks
 * the mention 'Seen'), unanswered questions, and the Analytics page's response times.
 */

const tags = ['conversations'] as const;
const teamParam = z.object({ teamId: teamIdParam });
const threadParams = z.object({ teamId: teamIdParam, ts: slackTsSchema('ts') });

export const getThreads = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/getthreads/:teamId/:start/:end/:channel',
  scope: 'read',
  tags,
  summary:
    'Threads (top-level messages) posted from start to end (ISO date-times) in a channel or the workspace, with live replies and reactions counted; newest first, or sorted by sender, channel, replies or reactions over the whole window',
  params: z.object({
    teamId: teamIdParam,
    start: isoDateTime('start'),
    end: isoDateTime('end'),
    channel: z
      .string()
      .refine(
        (v) => v === WORKSPACE_SCOPE || /^[CGD][A-Z0-9]{2,30}$/.test(v),
        'channel must be workspace or a Slack channel id like C0123ABCD',
      ),
  }),
  query: threadsQuery,
  response: { 200: threadsResponse },
});

export const getUniqueReplies = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/getuniquereplies/:teamId/:ts',
  scope: 'read',
  tags,
  summary: "A thread's live replies (edited text, deleted ones left out), their count and unique people",
  params: threadParams,
  query: threadQuery,
  response: { 200: uniqueRepliesResponse },
});

export const getUniqueReactions = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/getuniquereactions/:teamId/:ts',
  scope: 'read',
  tags,
  summary: "The live reactions on a thread's message (removed ones left out), their count and unique people",
  params: threadParams,
  query: threadQuery,
  response: { 200: uniqueReactionsResponse },
});

export const summarizeThread = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/actions/summarizeThread',
  scope: 'read',
  tags,
  summary:
    "A thread's summary: from the configured OpenAI-compatible model (kept until the thread changes; 429 with Retry-After past the admin's model calls a minute), else extractive (and says so)",
  body: summarizeBody,
  response: { 200: summaryResponse },
});

export const searchThreads = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/searchthreads/:teamId',
  scope: 'read',
  tags,
  summary: 'Full-text search over live messages (every word, prefixes of 3+ letters), newest first',
  params: teamParam,
  query: searchQuery,
  response: { 200: searchResponse },
});

export const getMentions = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/mentions/getmentions/:teamId',
  scope: 'read',
  tags,
  summary:
    'Messages and threads mentioning the workspace admins or the bot, newest first; search, user and channel filters',
  params: teamParam,
  query: mentionsQuery,
  response: { 200: mentionsResponse },
});

export const replyToMention = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/mentions/replytomention',
  scope: 'act',
  tags,
  summary: "Reply in a mention's thread (through the delivery engine); the mention shows 'Seen'",
  headers: idempotencyHeaders,
  body: replyBody,
  response: { 202: sendResponse },
});

export const addMentionReaction = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/mentions/addreaction',
  scope: 'act',
  tags,
  summary: "React to a mention; the mention shows 'Seen'",
  body: reactionBody,
  response: { 200: messageResponse },
});

export const getQuestions = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/questions/getquestions/:teamId',
  scope: 'read',
  tags,
  summary:
    'Unanswered questions (docs/product/questions.md): asked in the last max_age_days (default 7), with no reply or reaction by anyone but the asker after answer_after_minutes (default 120), not marked handled; newest first, with their total',
  params: teamParam,
  query: questionsQuery,
  response: { 200: questionsResponse },
});

export const markQuestionHandled = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/questions/markhandled',
  scope: 'act',
  tags,
  summary: 'Mark a question handled: it leaves the unanswered list for every admin of the workspace',
  body: markHandledBody,
  response: { 200: messageResponse },
});

export const getResponseTimes = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/analytics/getresponsetimes/:teamId',
  scope: 'read',
  tags: ['analytics'],
  summary:
    "Questions' time to first answer (a reply in the thread or a reaction by someone other than the asker): median, p90 and the shares answered within 1 h and 24 h, overall, per week (the workspace's timezone) and per channel; days (default 90) or start_date and end_date",
  params: teamParam,
  query: responseTimesQuery,
  response: { 200: responseTimesResponse },
});

/** Workspace-scoped (it names a team) and only reads; an API key is not taken on it, as on every /auth/ path. */
export const algoliaToken = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth/algoliatoken',
  scope: 'read',
  tags: ['conversations'],
  summary:
    'Kept for old clients: search is built in (no hosted index, no token); answers where to search instead',
  body: z.object({ team_id: slackId('team_id') }),
  response: { 200: algoliaTokenResponse },
});
