import type { FastifyInstance, FastifyRequest } from 'fastify';
import { linkOrigin, type LinkOriginPolicy } from '../../lib/link-origin.ts';
import { BOT_UPLOAD_SUCCESS } from '@flywheel/shared/analytics';
import { flywheelBotImage, getBotDetails, uploadBotInfo } from '@flywheel/shared/endpoints/bot';
import { flywheelPng } from './image.ts';
import type { BotService } from './service.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

/** Customise Bot, and the public Flywheel bot image. */
export function botRoutes(deps: { bot: BotService; guard: WorkspaceGuard; links?: LinkOriginPolicy }) {
  // The image URL the browser gets follows the origin it is on (as links do).
  const origin = (req: FastifyRequest) => (deps.links ? linkOrigin(req, deps.links) : undefined);
  const png = flywheelPng();
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(uploadBotInfo, async (req) => ({
      data: await deps.bot.upload(req.body.team_id, req.body.botName, req.body.use_custom, origin(req)),
      message: BOT_UPLOAD_SUCCESS,
    }));

    route(getBotDetails, async (req) => ({ data: await deps.bot.details(req.params.teamId, origin(req)) }));

    // Public: Slack fetches it as the bot's icon_url.
    route(flywheelBotImage, async (_req, reply) =>
      reply.header('content-type', 'image/png').header('cache-control', 'public, max-age=86400').send(png),
    );
  };
}
