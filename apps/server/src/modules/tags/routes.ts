import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { rowId, slackId } from '@flywheel/shared/input';
import { messageResponse } from '@flywheel/shared/http';
import { addTagsBody, createTagBody, createTagResponse } from '@flywheel/shared/members';
import type { TagsService } from './service.ts';
import { type WorkspaceGuard, scopedOptions, teamIdParam } from '../../plugins/workspace-guard.ts';

const tags = ['tags'];

export function tagRoutes(deps: { tags: TagsService; guard: WorkspaceGuard }) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);

    r.post(
      '/tags/createtag',
      {
        ...opts,
        schema: {
          tags,
          summary: "Creates a tag ('+ create tag'); 409 when the name exists (any case)",
          body: createTagBody,
          response: { 201: createTagResponse },
        },
      },
      async (req, reply) => {
        const tag = await deps.tags.create(req.body.team_id, req.body.name);
        return reply.code(201).send({ data: tag, message: `Tag '${tag.name}' created` });
      },
    );

    r.post(
      '/tags/addtagtousers',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Adds tags to members: {team_id, tags: [{id, name}], users: [{id}]}',
          body: addTagsBody,
          response: { 200: messageResponse.extend({ added: z.number() }) },
        },
      },
      async (req) =>
        deps.tags.addToMembers(
          req.body.team_id,
          req.body.users.map((u) => u.id),
          req.body.tags.map((t) => t.id),
        ),
    );

    r.delete(
      '/tags/removetagfromuser/:teamId/:memberId/:tagId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Removes one tag from one member',
          params: z.object({
            teamId: teamIdParam,
            memberId: slackId('memberId').describe('the member (member_id, U…)'),
            tagId: rowId('tagId').describe('the tag id'),
          }),
          response: { 200: messageResponse },
        },
      },
      async (req) => deps.tags.removeFromMember(req.params.teamId, req.params.memberId, req.params.tagId),
    );
  };
}
