import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { memberTags, tags } from './table.ts';
import { typedResult } from '../../db/sql.ts';
import { slackMembers } from '../workspace-data/table.ts';

export type TagRef = { id: number; name: string };

export const tagsRepo = (db: Db) => ({
  list: (teamId: string) =>
    db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(eq(tags.teamId, teamId))
      .orderBy(asc(tags.name)),

  /** Inserts the tag; undefined when a tag with that name (any case) exists already. */
  async create(teamId: string, name: string): Promise<TagRef | undefined> {
    const [row] = await db
      .insert(tags)
      .values({ teamId, name })
      .onConflictDoNothing()
      .returning({ id: tags.id, name: tags.name });
    return row;
  },

  async findByName(teamId: string, name: string): Promise<TagRef | undefined> {
    const [row] = await db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(and(eq(tags.teamId, teamId), sql`lower(${tags.name}) = lower(${name})`));
    return row;
  },

  /** Which of these tag ids belong to the workspace. */
  async existing(teamId: string, ids: number[]): Promise<TagRef[]> {
    if (ids.length === 0) return [];
    return db
      .select({ id: tags.id, name: tags.name })
      .from(tags)
      .where(and(eq(tags.teamId, teamId), inArray(tags.id, ids)));
  },

  /** Which of these member ids are members of the workspace. */
  async existingMembers(teamId: string, memberIds: string[]): Promise<Set<string>> {
    if (memberIds.length === 0) return new Set();
    const r = await typedResult<{
      member_id: string;
    }>(
      db,
      sql`select member_id from ${slackMembers}
      where team_id = ${teamId} and member_id = any(${sql.param(memberIds)}::text[])`,
    );
    return new Set(r.rows.map((x) => x.member_id));
  },

  /** Adds every tag to every member; returns how many assignments were new. */
  async assign(teamId: string, memberIds: string[], tagIds: number[]): Promise<number> {
    let added = 0;
    for (const tagId of tagIds) {
      for (let i = 0; i < memberIds.length; i += 5000) {
        const chunk = memberIds.slice(i, i + 5000);
        const r = await typedResult<unknown>(
          db,
          sql`insert into member_tags (team_id, member_id, tag_id)
          select ${teamId}, m, ${tagId}::int from unnest(${sql.param(chunk)}::text[]) as m
          on conflict do nothing returning 1`,
        );
        added += r.rows.length;
      }
    }
    return added;
  },

  async unassign(teamId: string, memberId: string, tagId: number): Promise<boolean> {
    const rows = await db
      .delete(memberTags)
      .where(
        and(eq(memberTags.teamId, teamId), eq(memberTags.memberId, memberId), eq(memberTags.tagId, tagId)),
      )
      .returning({ tagId: memberTags.tagId });
    return rows.length > 0;
  },

  /** Tags of the given members (all tagged members when `memberIds` is null), oldest assignment first. */
  async ofMembers(teamId: string, memberIds: string[] | null): Promise<Map<string, TagRef[]>> {
    const only = memberIds ? sql`and mt.member_id = any(${sql.param(memberIds)}::text[])` : sql``;
    const r = await typedResult<{
      member_id: string;
      id: number;
      name: string;
    }>(
      db,
      sql`select mt.member_id, t.id, t.name from member_tags mt
      join tags t on t.id = mt.tag_id
      where mt.team_id = ${teamId} ${only}
      order by mt.member_id, mt.created_at, t.name`,
    );
    const out = new Map<string, TagRef[]>();
    for (const row of r.rows) {
      const list = out.get(row.member_id) ?? [];
      list.push({ id: row.id, name: row.name });
      out.set(row.member_id, list);
    }
    return out;
  },
});
