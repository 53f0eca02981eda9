import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import type { Db } from '../../db/client.ts';
import { analyticsRoutes } from '../analytics/routes.ts';
import { analyticsService } from '../analytics/service.ts';
import { botRoutes } from '../bot/routes.ts';
import type { BotService } from '../bot/service.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { homeRoutes } from './routes.ts';
import { tasksService } from './service.ts';

/** Home, Analytics (normal mode) and the bot details under /api/v0. */
export function homeModule(deps: {
  db: Db;
  workspaces: WorkspacesService;
  bot: BotService;
  guard: preHandlerHookHandler[];
}) {
  const analytics = analyticsService({ db: deps.db, workspaces: deps.workspaces });
  const tasks = tasksService(deps.db);
  return async (app: FastifyInstance) => {
    await app.register(homeRoutes({ analytics, tasks, guard: deps.guard }));
    await app.register(analyticsRoutes({ analytics, guard: deps.guard }));
    await app.register(botRoutes({ bot: deps.bot, guard: deps.guard }));
  };
}
