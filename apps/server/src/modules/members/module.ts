import type { FastifyInstance, preHandlerHookHandler } from 'fastify';
import type { Db } from '../../db/client.ts';
import { memberRoutes } from '../member/routes.ts';
import { memberService } from '../member/service.ts';
import { tagRoutes } from '../tags/routes.ts';
import { tagsService } from '../tags/service.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { memberListRoutes } from './routes.ts';
import { membersService } from './service.ts';

/** The Members area under /api/v0: the members table and export, tags, and the member detail calls. */
export function membersModule(deps: {
  db: Db;
  workspaces: WorkspacesService;
  guard: preHandlerHookHandler[];
  /** See MembersRepoOptions.slices. */
  querySlices?: number;
}) {
  const tags = tagsService(deps.db);
  const members = membersService({
    db: deps.db,
    workspaces: deps.workspaces,
    tags,
    querySlices: deps.querySlices,
  });
  const member = memberService({ db: deps.db, workspaces: deps.workspaces, tags });
  return async (app: FastifyInstance) => {
    await app.register(memberListRoutes({ members, guard: deps.guard }));
    await app.register(tagRoutes({ tags, guard: deps.guard }));
    await app.register(memberRoutes({ member, guard: deps.guard }));
  };
}
