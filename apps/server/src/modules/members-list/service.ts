import type { ActivityFilter, MembersFilter, TimeFilter } from '@flywheel/shared/members';
import { MEMBERS_CSV_COLUMNS, membersDataBody, membersExportBody } from '@flywheel/shared/members';
import { csvCell } from '@flywheel/shared/csv';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import { addDays } from '../../lib/days.ts';
import { localDay } from '../../lib/days.ts';
import type { TagsService } from '../tags/service.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { toMember } from '../workspace-data/member-dto.ts';
import { membersRepo, type MemberQuery } from '../activity/members-ranking.ts';
import { levelsRepo } from '../activity/levels.ts';

type Filter = z.output<typeof membersExportBody>;
type PageRequest = z.output<typeof membersDataBody>;
export { addDays };
export type MembersService = ReturnType<typeof membersService>;

/** The activity filter as SQL-ready conditions (null when it names none). */
export function activityMatch(a: ActivityFilter | null | undefined): MemberQuery['activity'] {
  if (!a) return null;
  const conditions = (
    [
      ['messages', a.message_filter],
      ['reactions', a.reaction_filter],
      ['replies', a.reply_filter],
    ] as const
  ).flatMap(([column, c]) => (c ? [{ column, operator: c.operator, count: c.count }] : []));
  return conditions.length > 0 ? { combiner: a.type, conditions } : null;
}

/** A time filter as an inclusive range of local days: the last N days end today. */
export function dayRange(tf: TimeFilter | undefined, today: string): { fromDay: string; toDay: string } {
  if (tf?.type === 'dynamic' && tf.start_date && tf.end_date)
    return { fromDay: tf.start_date, toDay: tf.end_date };
  const days = tf?.days ?? 7;
  return { fromDay: addDays(today, -(days - 1)), toDay: today };
}

/** The one formula-safe cell writer (packages/shared/src/csv.ts), for the modules that import it from here. */
export { csvCell };

/** The Members screen: filters, search, sort, paging and the CSV export, all from the rollups. */
export const membersService = (deps: {
  db: Db;
  workspaces: WorkspacesService;
  tags: TagsService;
  /** Slices a whole-workspace page is ranked in at once (see MembersRepoOptions); 1 by default. */
  querySlices?: number;
}) => {
  const repo = membersRepo(deps.db, { slices: deps.querySlices });

  async function resolve(f: Filter, now = new Date()): Promise<MemberQuery> {
    const tz = await deps.workspaces.timezone(f.team_id);
    const today = localDay(now, tz);
    const { fromDay, toDay } = dayRange(f.time_filter, today);
    let base: MemberQuery['base'] = null;
    if (f.base_filter) {
      const kind = f.base_filter.type === 'team_join' ? 'join' : 'leave';
      const { startts, endts, time_filter } = f.base_filter;
      base =
        startts !== undefined && endts !== undefined
          ? { kind, fromTs: new Date(startts), toTs: new Date(endts) }
          : { kind, ...dayRange(time_filter, today) };
    }
    const search = f.search?.trim();
    return {
      teamId: f.team_id,
      fromDay,
      toDay,
      channels: f.channels && f.channels.length > 0 ? [...new Set(f.channels)] : null,
      channelCombiner: f.channel_type ?? 'OR',
      tags: f.tags && f.tags.length > 0 ? [...new Set(f.tags)] : null,
      levels: f.levels && f.levels.length > 0 ? [...new Set(f.levels)] : null,
      base,
      activity: activityMatch(f.activity_filter),
      search: search ? search : null,
      memberIds: f.member_ids ?? null,
      sort: f.sort,
    };
  }

  return {
    resolve,

    /** How many members hold each engagement level (Members' level filter). */
    levelCounts: (teamId: string) => levelsRepo(deps.db).counts(teamId),

    async page(body: PageRequest, now = new Date()) {
      const q = await resolve(body, now);
      const offset = (body.page - 1) * body.page_size;
      const { rows, total, left } = await repo.page(q, body.page_size, offset);
      const ids = rows.map((r) => r.member_id);
      const [tags, levels] = await Promise.all([
        deps.tags.ofMembers(body.team_id, ids),
        levelsRepo(deps.db).ofMembers(body.team_id, ids),
      ]);
      return {
        data: rows.map((r) => ({
          ...toMember(r, tags.get(r.member_id)),
          level: levels.get(r.member_id) ?? null,
        })),
        total,
        left,
        page: body.page,
        page_size: body.page_size,
      };
    },

    /** The ids of every match (an audience: 'everything filtered'). */
    async memberIds(body: Filter & Partial<MembersFilter>, now = new Date()): Promise<string[]> {
      return (await repo.exportRows(await resolve(body, now))).map((r) => r.member_id);
    },

    /** CSV lines of every match (or the chosen members), produced in chunks as the response streams. */
    async *csv(body: Filter & Partial<MembersFilter>, now = new Date()): AsyncGenerator<string> {
      const q = await resolve(body, now);
      const rows = await repo.exportRows(q);
      yield `\uFEFF${MEMBERS_CSV_COLUMNS.map(csvCell).join(',')}\r\n`;
      const CHUNK = 2000;
      for (let i = 0; i < rows.length; i += CHUNK) {
        let out = '';
        for (const r of rows.slice(i, i + CHUNK))
          out += `${csvCell(r.real_name || r.display_name)},${csvCell(r.email)}\r\n`;
        yield out;
      }
    },
  };
};
