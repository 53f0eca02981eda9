import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CONVERSATION_TEXTS,
  WORKSPACE_SCOPE,
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
} from '@flywheel/shared/conversations';
import { idempotencyHeaders, reactionBody, replyBody, sendResponse } from '@flywheel/shared/delivery';
import { messageResponse } from '@flywheel/shared/http';
import {
  markHandledBody,
  questionsQuery,
  questionsResponse,
  responseTimesQuery,
  responseTimesResponse,
} from '@flywheel/shared/questions';
import { algoliaToken } from '@flywheel/shared/endpoints/auth';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import { scopedOptions, teamIdParam, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, receiptKeyOf, type IdempotencyService } from '../delivery/idempotency.ts';
import type { ConversationsService } from './service.ts';

const tags = ['conversations'];
const threadParams = z.object({ teamId: teamIdParam, ts: slackTsSchema('ts') });

/**
 * Threads, thread detail, search, summaries and mentions. Replies and reactions on
 * mentions go through the delivery engine and mark the mention 'Seen'.
 */
export function conversationsRoutes(deps: {
  conversations: ConversationsService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);
    const c = deps.conversations;

    r.get(
      '/actions/getthreads/:teamId/:start/:end/:channel',
      {
        ...opts,
        schema: {
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
          querystring: threadsQuery,
          response: { 200: threadsResponse },
        },
      },
      async (req) =>
        c.threads(req.params.teamId, {
          start: req.params.start,
          end: req.params.end,
          channel: req.params.channel === WORKSPACE_SCOPE ? null : req.params.channel,
          cursor: req.query.cursor,
          limit: req.query.limit,
          sort: req.query.sort,
          direction: req.query.direction,
        }),
    );

    r.get(
      '/actions/getuniquereplies/:teamId/:ts',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "A thread's live replies (edited text, deleted ones left out), their count and unique people",
          params: threadParams,
          querystring: threadQuery,
          response: { 200: uniqueRepliesResponse },
        },
      },
      async (req) => ({ data: await c.replies(req.params.teamId, req.params.ts, req.query.channel_id) }),
    );

    r.get(
      '/actions/getuniquereactions/:teamId/:ts',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "The live reactions on a thread's message (removed ones left out), their count and unique people",
          params: threadParams,
          querystring: threadQuery,
          response: { 200: uniqueReactionsResponse },
        },
      },
      async (req) => ({ data: await c.reactions(req.params.teamId, req.params.ts, req.query.channel_id) }),
    );

    r.post(
      '/actions/summarizeThread',
      {
        ...scopedOptions(deps.guard, 'read'),
        schema: {
          tags,
          summary:
            "A thread's summary: from the configured OpenAI-compatible model (kept until the thread changes; 429 with Retry-After past the admin's model calls a minute), else extractive (and says so)",
          body: summarizeBody,
          response: { 200: summaryResponse },
        },
      },
      async (req) => ({
        data: await c.summarize(
          req.body.team_id,
          req.body.threadParentTs,
          req.body.channel_id,
          currentUser(req).id,
        ),
      }),
    );

    r.get(
      '/actions/searchthreads/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Full-text search over live messages (every word, prefixes of 3+ letters), newest first',
          params: z.object({ teamId: teamIdParam }),
          querystring: searchQuery,
          response: { 200: searchResponse },
        },
      },
      async (req) => ({
        data: await c.search(req.params.teamId, req.query.q, req.query.channel_id ?? null, req.query.limit),
      }),
    );

    r.get(
      '/mentions/getmentions/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Messages and threads mentioning the workspace admins or the bot, newest first; search, user and channel filters',
          params: z.object({ teamId: teamIdParam }),
          querystring: mentionsQuery,
          response: { 200: mentionsResponse },
        },
      },
      async (req) =>
        c.mentions(req.params.teamId, {
          q: req.query.q,
          userId: req.query.user_id,
          channelId: req.query.channel_id,
          cursor: req.query.cursor,
          limit: req.query.limit,
        }),
    );

    r.post(
      '/mentions/replytomention',
      {
        ...opts,
        schema: {
          tags,
          summary: "Reply in a mention's thread (through the delivery engine); the mention shows 'Seen'",
          headers: idempotencyHeaders,
          body: replyBody,
          response: { 202: sendResponse },
        },
      },
      async (req, reply) => {
        const b = req.body;
        return answerOnce(deps.idempotency, req, reply, b.team_id, async (token) => {
          const result = await c.replyToMention({
            teamId: b.team_id,
            userId: currentUser(req).id,
            sender: b.sender,
            adminUser: b.admin_user ?? null,
            text: b.text,
            images: b.images,
            channelId: b.channel_id,
            ts: b.ts,
            mentionId: b.mention_id,
            idempotencyKey: receiptKeyOf(token),
          });
          return {
            status: 202,
            body: {
              message: `Sending to ${result.total} recipient${result.total === 1 ? '' : 's'}: follow it in Receipts`,
              data: result,
            },
          };
        });
      },
    );

    r.post(
      '/mentions/addreaction',
      {
        ...opts,
        schema: {
          tags,
          summary: "React to a mention; the mention shows 'Seen'",
          body: reactionBody,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        const b = req.body;
        return {
          message: await c.reactToMention({
            teamId: b.team_id,
            userId: currentUser(req).id,
            sender: b.sender,
            adminUser: b.admin_user ?? null,
            channelId: b.channel_id,
            ts: b.ts,
            name: b.name,
            mentionId: b.mention_id,
          }),
        };
      },
    );

    r.get(
      '/questions/getquestions/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Unanswered questions (docs/product/questions.md): asked in the last max_age_days (default 7), with no reply or reaction by anyone but the asker after answer_after_minutes (default 120), not marked handled; newest first, with their total',
          params: z.object({ teamId: teamIdParam }),
          querystring: questionsQuery,
          response: { 200: questionsResponse },
        },
      },
      async (req) => c.unansweredQuestions(req.params.teamId, req.query),
    );

    r.post(
      '/questions/markhandled',
      {
        ...scopedOptions(deps.guard, 'act'),
        schema: {
          tags,
          summary: 'Mark a question handled: it leaves the unanswered list for every admin of the workspace',
          body: markHandledBody,
          response: { 200: messageResponse },
        },
      },
      async (req) => {
        const b = req.body;
        await c.markQuestionHandled(b.team_id, b.channel_id, b.ts, currentUser(req).id);
        return { message: 'Marked handled' };
      },
    );

    r.get(
      '/analytics/getresponsetimes/:teamId',
      {
        ...opts,
        schema: {
          tags: ['analytics'],
          summary:
            "Questions' time to first answer (a reply in the thread or a reaction by someone other than the asker): median, p90 and the shares answered within 1 h and 24 h, overall, per week (the workspace's timezone) and per channel; days (default 90) or start_date and end_date",
          params: z.object({ teamId: teamIdParam }),
          querystring: responseTimesQuery,
          response: { 200: responseTimesResponse },
        },
      },
      async (req) => c.responseTimes(req.params.teamId, req.query),
    );

    endpointRoutes(app, { guard: deps.guard })(algoliaToken, async (req) => ({
      message: CONVERSATION_TEXTS.searchBuiltIn,
      algoliaToken: null,
      search: `/api/v0/actions/searchthreads/${encodeURIComponent(req.body.team_id)}?q=`,
    }));
  };
}
