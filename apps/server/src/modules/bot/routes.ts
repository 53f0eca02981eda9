import type { FastifyInstance, FastifyRequest } from 'fastify';
import { linkOrigin, type LinkOriginPolicy } from '../../lib/link-origin.ts';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BOT_UPLOAD_SUCCESS, botDetailsResponse, botUploadBody } from '@flywheel/shared/analytics';
import { flywheelPng } from './image.ts';
import { FLYWHEEL_IMAGE_PATH, type BotService } from './service.ts';
import { type WorkspaceGuard, scopedOptions, teamParams } from '../../plugins/workspace-guard.ts';

const tags = ['bot'];

/** Customise Bot, and the public Flywheel bot image. */
export function botRoutes(deps: { bot: BotService; guard: WorkspaceGuard; links?: LinkOriginPolicy }) {
  // The image URL the browser gets follows the origin it is on (as links do).
  const origin = (req: FastifyRequest) => (deps.links ? linkOrigin(req, deps.links) : undefined);
  const png = flywheelPng();
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.post(
      '/alterbot/uploadinfo',
      {
        ...scopedOptions(deps.guard, 'manage'),
        schema: {
          tags,
          summary: "Saves the bot's name and image choice",
          body: botUploadBody,
          response: { 200: botDetailsResponse },
        },
      },
      async (req) => ({
        data: await deps.bot.upload(req.body.team_id, req.body.botName, req.body.use_custom, origin(req)),
        message: BOT_UPLOAD_SUCCESS,
      }),
    );

    r.get(
      '/alterbot/getbotdetails/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: "The bot's name, image URL and image choice",
          params: teamParams,
          response: { 200: botDetailsResponse },
        },
      },
      async (req) => ({ data: await deps.bot.details(req.params.teamId, origin(req)) }),
    );

    // Public: Slack fetches it as the bot's icon_url.
    app.get(FLYWHEEL_IMAGE_PATH.replace('/api/v0', ''), { schema: { hide: true } }, async (_req, reply) =>
      reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=86400').send(png),
    );
  };
}
