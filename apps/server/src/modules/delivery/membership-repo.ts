import { sql } from 'drizzle-orm';
import { typedRows, type Tx } from '../../db/sql.ts';
import { channelMembers } from '../workspace-data/table.ts';

/** What Flywheel holds of a member's channels (the history import's conversations.members, then the events). */
export const membershipRepo = {
  /** The channels among `channelIds` the member is in, as last seen. */
  async storedChannels(
    runner: Tx,
    teamId: string,
    memberId: string,
    channelIds: string[],
  ): Promise<Set<string>> {
    if (channelIds.length === 0) return new Set();
    const rows = await typedRows<{ channel_id: string }>(
      runner,
      sql`select channel_id from ${channelMembers}
        where team_id = ${teamId} and member_id = ${memberId}
          and channel_id = any(${sql.param([...new Set(channelIds)])}::text[])`,
    );
    return new Set(rows.map((r) => r.channel_id));
  },
};
