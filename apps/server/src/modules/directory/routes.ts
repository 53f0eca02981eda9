import type { FastifyInstance } from 'fastify';
import { DEFAULT_TIME_FILTER_DAYS } from '@flywheel/shared/constants';
import {
  getAuthorizedAdmins,
  getChannels,
  getMemberSuggestions,
  getMembers,
  getTags,
  lookupMembers,
  searchMembers,
} from '@flywheel/shared/endpoints/directory';
import { AppError } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { localDay } from '../../lib/days.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import type { Db } from '../../db/client.ts';
import { toMember } from '../workspace-data/member-dto.ts';
import { activityReads } from '../activity/reads.ts';
import { directoryRepo } from './repo.ts';
import { tagsRepo } from '../tags/repo.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';

/** What login loads for the current workspace: members, suggestions, channels, admins, tags. */
export function directoryRoutes(deps: { db: Db; workspaces: WorkspacesService; guard: WorkspaceGuard }) {
  const repo = directoryRepo(deps.db);
  const reads = activityReads(deps.db);
  const tagRepo = tagsRepo(deps.db);
  const since = async (teamId: string) => {
    const tz = await deps.workspaces.timezone(teamId);
    return localDay(new Date(Date.now() - (DEFAULT_TIME_FILTER_DAYS - 1) * 86400_000), tz);
  };

  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { guard: deps.guard });

    route(getMembers, async (req) => {
      const rows = await reads.membersSince(req.params.teamId, await since(req.params.teamId));
      const tagsOf = await tagRepo.ofMembers(req.params.teamId, null);
      return {
        data: rows.map((m) => toMember(m, tagsOf.get(m.member_id))),
      };
    });

    route(getMemberSuggestions, async (req) => {
      const rows = await reads.membersSince(req.params.teamId, await since(req.params.teamId));
      return {
        data: rows
          .filter((m) => !m.deleted)
          .map((m) => ({
            value: m.member_id,
            label: m.real_name || m.display_name || m.member_id,
            email: m.email ?? '',
            display_name: m.display_name,
          })),
      };
    });

    // What the screens need at 50,000 members instead of the whole directory: search (capped at 10) for the
    // top bar and the pickers, and names of the ids on screen, looked up in batches.
    route(searchMembers, async (req) => {
      const { hits, more } = await repo.searchMembers(req.params.teamId, req.query.q, {
        limit: req.query.limit,
        includeLeft: req.query.left === 'true',
      });
      return { data: hits, more };
    });

    route(lookupMembers, async (req) => ({
      data: await repo.lookupMembers(req.body.team_id, req.body.member_ids, req.body.entries),
    }));

    route(getChannels, async (req) => ({ data: await repo.channels(req.params.teamId) }));

    route(getTags, async (req) => ({ data: await tagRepo.list(req.params.teamId) }));

    route(getAuthorizedAdmins, async (req) => {
      if (req.params.userId !== currentUser(req).id)
        throw new AppError('FORBIDDEN', 403, 'You can only list admins as yourself');
      // One entry per Slack user: the same admin installs again under another Flywheel account (oldest first).
      const admins = (await deps.workspaces.listAdmins(req.params.teamId)).filter(
        (a, i, all) =>
          a.slackUserId &&
          a.hasToken &&
          all.findIndex((b) => b.slackUserId === a.slackUserId && b.hasToken) === i,
      );
      const names = await repo.memberNames(
        req.params.teamId,
        admins.map((a) => a.slackUserId!),
      );
      return {
        data: admins.map((a) => {
          const name = names.get(a.slackUserId!) ?? a.slackUserId!;
          return { user_id: a.slackUserId!, real_name: name, label: name, value: a.slackUserId! };
        }),
      };
    });
  };
}
