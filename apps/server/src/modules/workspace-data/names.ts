import { sql } from 'drizzle-orm';
import { typedRows, type Tx } from '../../db/sql.ts';

/** Names of the workspace's members among `ids` (real name, else display name, else the id), by id. */
export async function memberNames(db: Tx, teamId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await typedRows<{ id: string; name: string }>(
    db,
    sql`select member_id as id, coalesce(nullif(real_name, ''), nullif(display_name, ''), member_id) as name
      from slack_members where team_id = ${teamId} and member_id = any(${sql.param([...new Set(ids)])}::text[])`,
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Names of the workspace's channels among `ids`, by id. */
export async function channelNames(db: Tx, teamId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await typedRows<{ id: string; name: string }>(
    db,
    sql`select channel_id as id, name from slack_channels
      where team_id = ${teamId} and channel_id = any(${sql.param([...new Set(ids)])}::text[])`,
  );
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Which of `ids` are people of the workspace (members it has that are not bots); Slack's own ids are not. */
export async function humanMembers(db: Tx, teamId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await typedRows<{ id: string }>(
    db,
    sql`select member_id as id from slack_members
      where team_id = ${teamId} and member_id = any(${sql.param([...new Set(ids)])}::text[])
        and not is_bot and member_id <> 'USLACKBOT'`,
  );
  return new Set(rows.map((r) => r.id));
}
