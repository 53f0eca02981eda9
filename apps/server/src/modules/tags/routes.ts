import type { FastifyInstance } from 'fastify';
import { addTagsToMembers, createTag, removeTagFromMember } from '@flywheel/shared/endpoints/tags';
import type { TagsService } from './service.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

export function tagRoutes(deps: { tags: TagsService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(createTag, async (req, reply) => {
      const tag = await deps.tags.create(req.body.team_id, req.body.name);
      return reply.code(201).send({ data: tag, message: `Tag '${tag.name}' created` });
    });

    route(addTagsToMembers, async (req) =>
      deps.tags.addToMembers(
        req.body.team_id,
        req.body.users.map((u) => u.id),
        req.body.tags.map((t) => t.id),
      ),
    );

    route(removeTagFromMember, async (req) =>
      deps.tags.removeFromMember(req.params.teamId, req.params.memberId, req.params.tagId),
    );
  };
}
