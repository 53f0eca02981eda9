import type { FastifyInstance } from 'fastify';
import { getCustomEmoji } from '@flywheel/shared/endpoints/emoji';
import type { AppContext } from '../../context.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import { workspaceGuard } from '../../plugins/workspace-guard.ts';
import { defineEventListener } from '../intake/listeners.ts';
import { defineModule } from '../module.ts';
import { customEmojiCache, type CustomEmojiCache } from './service.ts';

/** One cache per process context (the routes and the emoji_changed listener share it). */
const caches = new WeakMap<AppContext, CustomEmojiCache>();
const cacheOf = (ctx: AppContext) => {
  let cache = caches.get(ctx);
  if (!cache) caches.set(ctx, (cache = customEmojiCache(ctx)));
  return cache;
};

/**
 * Custom emoji: the workspace's own emoji images, so `:partyparrot:` in a message reads as in Slack wherever
 * Flywheel shows message text. GET /workspace/emoji/:teamId; Slack's emoji_changed drops the cached list.
 */
export const emojiModule = defineModule({
  name: 'emoji',
  routes: async (app: FastifyInstance, ctx) => {
    endpointRoutes(app, { guard: workspaceGuard(ctx.services) })(getCustomEmoji, async (req, reply) => {
      reply.header('cache-control', 'private, max-age=300');
      return { data: await cacheOf(ctx).get(req.params.teamId) };
    });
  },
  events: [
    defineEventListener({
      type: 'emoji_changed',
      handle: async (_e, scope) => {
        const { ctx, teamId } = scope;
        scope.afterCommit(`emoji.forget:${teamId}`, async () => cacheOf(ctx).forget(teamId));
      },
    }),
  ],
});
