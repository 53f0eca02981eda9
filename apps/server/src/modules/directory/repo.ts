import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedResult } from '../../db/sql.ts';

/** Reads of the workspace's people and channels, for pickers, search and the top bar. */
export const directoryRepo = (db: Db) => ({
  async memberNames(teamId: string, memberIds: string[]): Promise<Map<string, string>> {
    if (memberIds.length === 0) return new Map();
    const r = await typedResult<{
      member_id: string;
      real_name: string;
    }>(
      db,
      sql`select member_id, real_name from slack_members
      where team_id = ${teamId} and member_id = any(${sql.param(memberIds)}::text[])`,
    );
    return new Map(r.rows.map((row) => [row.member_id, row.real_name]));
  },
  async channels(teamId: string) {
    const r = await typedResult<{
      channel_id: string;
      channel_name: string;
      is_private: boolean;
      is_archived: boolean;
    }>(
      db,
      sql`select channel_id, name as channel_name, is_private, is_archived from slack_channels
      where team_id = ${teamId} order by name`,
    );
    return r.rows;
  },
});
