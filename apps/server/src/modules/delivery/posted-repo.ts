import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { typedRows, type Tx } from '../../db/sql.ts';
import { slackMessages } from '../workspace-data/table.ts';

/** What posted.ts looks up about posted messages: a reply's thread, and the channel messages a receipt posted. */
export const deliveryPostedRepo = (db: Db) => ({
  /** The thread a reply to this message goes in (its parent's ts), or null when the message is unknown. */
  async threadRoot(teamId: string, channelId: string, ts: string): Promise<string | null> {
    const [row] = await typedRows<{ root: string }>(
      db,
      sql`select coalesce(nullif(thread_ts, ''), ts) as root from ${slackMessages}
        where team_id = ${teamId} and channel_id = ${channelId} and ts = ${ts}`,
    );
    return row?.root ?? null;
  },

  /** The channel messages a receipt posted (channel and ts), and how many of its recipients are still open. */
  async postedMessages(
    teamId: string,
    receiptId: number,
    runner: Tx = db,
  ): Promise<{ messages: { channel: string; ts: string }[]; open: number }> {
    const rows = await typedRows<{ channel: string | null; ts: string | null; state: string }>(
      runner,
      sql`select coalesce(channel_id, target_id) as channel, ts, state from delivery_recipients
        where receipt_id = ${receiptId} and team_id = ${teamId} and kind = 'channel'`,
    );
    return {
      messages: rows
        .filter((r) => r.state === 'sent' && r.channel && r.ts)
        .map((r) => ({ channel: r.channel!, ts: r.ts! })),
      open: rows.filter((r) => r.state === 'pending' || r.state === 'sending').length,
    };
  },
});
export type DeliveryPostedRepo = ReturnType<typeof deliveryPostedRepo>;
