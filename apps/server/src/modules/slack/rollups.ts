import { sql } from 'drizzle-orm';
import type { Tx } from './facts-repo.ts';

type Delta = {
  teamId: string;
  day: string;
  memberId: string;
  channelId: string;
  messages: number;
  replies: number;
  reactions: number;
};

/**
 * Collects rollup changes (per team, local day, member, channel) and last-active times during a batch,
 * then writes them with one upsert each, inside the batch's transaction.
 */
export function rollupBuffer() {
  const deltas = new Map<string, Delta>();
  const lastActive = new Map<string, { teamId: string; memberId: string; at: Date }>();

  return {
    add(
      teamId: string,
      day: string,
      memberId: string,
      channelId: string,
      d: Partial<Pick<Delta, 'messages' | 'replies' | 'reactions'>>,
    ) {
      const key = `${teamId}|${day}|${memberId}|${channelId}`;
      let row = deltas.get(key);
      if (!row) {
        row = { teamId, day, memberId, channelId, messages: 0, replies: 0, reactions: 0 };
        deltas.set(key, row);
      }
      row.messages += d.messages ?? 0;
      row.replies += d.replies ?? 0;
      row.reactions += d.reactions ?? 0;
    },
    active(teamId: string, memberId: string, at: Date) {
      const key = `${teamId}|${memberId}`;
      const prev = lastActive.get(key);
      if (!prev || prev.at < at) lastActive.set(key, { teamId, memberId, at });
    },
    async flush(tx: Tx) {
      const rows = [...deltas.values()].filter((d) => d.messages || d.replies || d.reactions);
      for (let i = 0; i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000);
        await tx.execute(sql`
          insert into activity_daily as a (team_id, day, member_id, channel_id, messages, replies, reactions)
          select * from unnest(${sql.param(chunk.map((r) => r.teamId))}::text[], ${sql.param(chunk.map((r) => r.day))}::date[],
            ${sql.param(chunk.map((r) => r.memberId))}::text[], ${sql.param(chunk.map((r) => r.channelId))}::text[],
            ${sql.param(chunk.map((r) => r.messages))}::int[], ${sql.param(chunk.map((r) => r.replies))}::int[], ${sql.param(chunk.map((r) => r.reactions))}::int[])
          on conflict (team_id, day, member_id, channel_id) do update set
            messages = a.messages + excluded.messages, replies = a.replies + excluded.replies,
            reactions = a.reactions + excluded.reactions`);
      }
      const actives = [...lastActive.values()];
      for (let i = 0; i < actives.length; i += 1000) {
        const chunk = actives.slice(i, i + 1000);
        await tx.execute(sql`
          update slack_members s set last_active_at = greatest(s.last_active_at, v.at)
          from unnest(${sql.param(chunk.map((a) => a.teamId))}::text[], ${sql.param(chunk.map((a) => a.memberId))}::text[],
            ${sql.param(chunk.map((a) => a.at.toISOString()))}::timestamptz[]) as v(team_id, member_id, at)
          where s.team_id = v.team_id and s.member_id = v.member_id`);
      }
      deltas.clear();
      lastActive.clear();
    },
  };
}

export type RollupBuffer = ReturnType<typeof rollupBuffer>;
