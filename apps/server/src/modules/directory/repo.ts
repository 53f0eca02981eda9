import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import type { MemberHit } from '@flywheel/shared/member-directory';
import { typedResult } from '../../db/sql.ts';
import { slackChannels, slackMembers } from '../workspace-data/table.ts';

const HIT_COLUMNS = sql`member_id, real_name, display_name, coalesce(email, '') as email, deleted`;

/** Reads of the workspace's people and channels, for pickers, search and the top bar. */
export const directoryRepo = (db: Db) => ({
  async memberNames(teamId: string, memberIds: string[]): Promise<Map<string, string>> {
    if (memberIds.length === 0) return new Map();
    const r = await typedResult<{
      member_id: string;
      real_name: string;
    }>(
      db,
      sql`select member_id, real_name from ${slackMembers}
      where team_id = ${teamId} and member_id = any(${sql.param(memberIds)}::text[])`,
    );
    return new Map(r.rows.map((row) => [row.member_id, row.real_name]));
  },
  /**
   * Members whose real name, display name or e-mail holds `query` (case-insensitive substring), names that
   * start with it first, then by name; `limit` hits and whether there are more. Bots are never listed.
   */
  async searchMembers(
    teamId: string,
    query: string,
    opts: { limit: number; includeLeft: boolean },
  ): Promise<{ hits: MemberHit[]; more: boolean }> {
    const q = query.trim().toLowerCase();
    const r = await typedResult<MemberHit>(
      db,
      sql`select ${HIT_COLUMNS} from ${slackMembers}
      where team_id = ${teamId} and not is_bot ${opts.includeLeft ? sql`` : sql`and not deleted`}
        and (strpos(lower(real_name), ${q}) > 0 or strpos(lower(display_name), ${q}) > 0
          or strpos(lower(coalesce(email, '')), ${q}) > 0)
      order by strpos(lower(real_name), ${q}) <> 1, lower(real_name), member_id
      limit ${opts.limit + 1}`,
    );
    return { hits: r.rows.slice(0, opts.limit), more: r.rows.length > opts.limit };
  },
  /**
   * The members with these ids, and those a typed entry names exactly: e-mail, real name, display name or id,
   * case-insensitively (entries resolve to members by e-mail or by name).
   */
  async lookupMembers(teamId: string, memberIds: string[], entries: string[]): Promise<MemberHit[]> {
    const typed = [...new Set(entries.map((e) => e.trim().replace(/^@/, '').toLowerCase()))];
    const r = await typedResult<MemberHit>(
      db,
      sql`select ${HIT_COLUMNS} from ${slackMembers}
      where team_id = ${teamId} and member_id = any(${sql.param(memberIds)}::text[])
      ${
        typed.length
          ? sql`union
      select ${HIT_COLUMNS} from ${slackMembers}
      where team_id = ${teamId} and not is_bot and (lower(email) = any(${sql.param(typed)}::text[])
        or lower(real_name) = any(${sql.param(typed)}::text[])
        or lower(display_name) = any(${sql.param(typed)}::text[])
        or lower(member_id) = any(${sql.param(typed)}::text[]))`
          : sql``
      }`,
    );
    return r.rows;
  },
  async channels(teamId: string) {
    const r = await typedResult<{
      channel_id: string;
      channel_name: string;
      is_private: boolean;
      is_archived: boolean;
    }>(
      db,
      sql`select channel_id, name as channel_name, is_private, is_archived from ${slackChannels}
      where team_id = ${teamId} order by name`,
    );
    return r.rows;
  },
});
