import type { FastifyInstance } from 'fastify';
import { CONVERSATION_TEXTS, WORKSPACE_SCOPE } from '@flywheel/shared/conversations';
import {
  addMentionReaction,
  algoliaToken,
  getMentions,
  getQuestions,
  getResponseTimes,
  getThreads,
  getUniqueReactions,
  getUniqueReplies,
  markQuestionHandled,
  replyToMention,
  searchThreads,
  summarizeThread,
} from '@flywheel/shared/endpoints/conversations';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, receiptKeyOf, type IdempotencyService } from '../delivery/idempotency.ts';
import type { ConversationsService } from './service.ts';

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
    const route = endpointRoutes(app, { guard: deps.guard });
    const c = deps.conversations;

    route(getThreads, async (req) =>
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

    route(getUniqueReplies, async (req) => ({
      data: await c.replies(req.params.teamId, req.params.ts, req.query.channel_id),
    }));

    route(getUniqueReactions, async (req) => ({
      data: await c.reactions(req.params.teamId, req.params.ts, req.query.channel_id),
    }));

    route(summarizeThread, async (req) => ({
      data: await c.summarize(
        req.body.team_id,
        req.body.threadParentTs,
        req.body.channel_id,
        currentUser(req).id,
      ),
    }));

    route(searchThreads, async (req) => ({
      data: await c.search(req.params.teamId, req.query.q, req.query.channel_id ?? null, req.query.limit),
    }));

    route(getMentions, async (req) =>
      c.mentions(req.params.teamId, {
        q: req.query.q,
        userId: req.query.user_id,
        channelId: req.query.channel_id,
        cursor: req.query.cursor,
        limit: req.query.limit,
      }),
    );

    route(replyToMention, async (req, reply) => {
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
    });

    route(addMentionReaction, async (req) => {
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
    });

    route(getQuestions, async (req) => c.unansweredQuestions(req.params.teamId, req.query));

    route(markQuestionHandled, async (req) => {
      const b = req.body;
      await c.markQuestionHandled(b.team_id, b.channel_id, b.ts, currentUser(req).id);
      return { message: 'Marked handled' };
    });

    route(getResponseTimes, async (req) => c.responseTimes(req.params.teamId, req.query));

    // An old call under /auth/ that this module answers (its contract is with the accounts' calls).
    route(algoliaToken, async (req) => ({
      message: CONVERSATION_TEXTS.searchBuiltIn,
      algoliaToken: null,
      search: `/api/v0/actions/searchthreads/${encodeURIComponent(req.body.team_id)}?q=`,
    }));
  };
}
