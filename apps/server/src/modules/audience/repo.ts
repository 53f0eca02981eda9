import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { intArray, textArray, typedRows } from '../../db/sql.ts';
import { memberTags, tags } from '../tags/table.ts';
import { channelMembers, slackChannels, slackMembers } from '../workspace-data/table.ts';

/** Slack's own system user, never a recipient. */
const SLACKBOT = 'USLACKBOT';

export type MemberTargets = {
  everyone: boolean;
  ids: string[];
  emails: string[];
  tagIds: number[];
  channelIds: string[];
};

export const audienceRepo = (db: Db) => ({
  /**
   * Every reachable member the targets name, once: the whole workspace, ids, e-mails (any case), members with
   * a tag, members of a channel. Bots, Slackbot and deactivated members are left out.
   */
  async members(teamId: string, t: MemberTargets): Promise<string[]> {
    if (!t.everyone && !t.ids.length && !t.emails.length && !t.tagIds.length && !t.channelIds.length)
      return [];
    const rows = await typedRows<{ member_id: string }>(
      db,
      sql`
        select m.member_id from ${slackMembers} m
        where m.team_id = ${teamId} and not m.is_bot and not m.deleted and m.member_id <> ${SLACKBOT}
          and (${t.everyone}
            or m.member_id = any(${textArray(t.ids)}::text[])
            or lower(m.email) = any(${textArray(t.emails.map((e) => e.toLowerCase()))}::text[])
            or exists (select 1 from ${memberTags} mt where mt.team_id = m.team_id and mt.member_id = m.member_id
                         and mt.tag_id = any(${intArray(t.tagIds)}::int[]))
            or exists (select 1 from ${channelMembers} cm where cm.team_id = m.team_id
                         and cm.member_id = m.member_id and cm.channel_id = any(${textArray(t.channelIds)}::text[])))
        order by m.member_id`,
    );
    return rows.map((r) => r.member_id);
  },

  /** Which of these ids / e-mails name a member of the workspace (in any state). */
  async knownMembers(
    teamId: string,
    ids: string[],
    emails: string[],
  ): Promise<{ ids: Set<string>; emails: Set<string> }> {
    if (!ids.length && !emails.length) return { ids: new Set(), emails: new Set() };
    const rows = await typedRows<{ member_id: string; email: string | null }>(
      db,
      sql`select member_id, lower(email) as email from ${slackMembers}
        where team_id = ${teamId} and (member_id = any(${textArray(ids)}::text[])
          or lower(email) = any(${textArray(emails.map((e) => e.toLowerCase()))}::text[]))`,
    );
    return {
      ids: new Set(rows.map((r) => r.member_id)),
      emails: new Set(rows.map((r) => r.email).filter((e): e is string => !!e)),
    };
  },

  /** These ids / e-mails' members (in any state), with whether a send may reach them. */
  async memberStates(
    teamId: string,
    ids: string[],
    emails: string[],
  ): Promise<{ member_id: string; email: string | null; reachable: boolean }[]> {
    if (!ids.length && !emails.length) return [];
    return await typedRows<{ member_id: string; email: string | null; reachable: boolean }>(
      db,
      sql`select member_id, lower(email) as email,
          (not is_bot and not deleted and member_id <> ${SLACKBOT}) as reachable
        from ${slackMembers}
        where team_id = ${teamId} and (member_id = any(${textArray(ids)}::text[])
          or lower(email) = any(${textArray(emails.map((e) => e.toLowerCase()))}::text[]))`,
    );
  },

  async knownChannels(teamId: string, ids: string[]): Promise<Map<string, { archived: boolean }>> {
    if (!ids.length) return new Map();
    const rows = await typedRows<{ channel_id: string; is_archived: boolean }>(
      db,
      sql`select channel_id, is_archived from ${slackChannels}
        where team_id = ${teamId} and channel_id = any(${textArray(ids)}::text[])`,
    );
    return new Map(rows.map((r) => [r.channel_id, { archived: r.is_archived }]));
  },

  async knownTags(teamId: string, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const rows = await typedRows<{ id: number }>(
      db,
      sql`select id from ${tags} where team_id = ${teamId} and id = any(${intArray(ids)}::int[])`,
    );
    return new Set(rows.map((r) => Number(r.id)));
  },
});
export type AudienceRepo = ReturnType<typeof audienceRepo>;
