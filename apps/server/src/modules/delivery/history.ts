import { mentionedIds, namesFrom, readableMentions } from '@flywheel/shared/mentions';
import {
  MAX_REPLIES,
  type DmReply,
  RECEIPT_CSV_COLUMNS,
  receiptStatus,
  type Receipt,
  type ReceiptDetail,
  type RecipientKind,
} from '@flywheel/shared/delivery';
import { notFound } from '../../lib/errors.ts';
import { csvCell } from '@flywheel/shared/csv';
import { channelNames, memberNames } from '../workspace-data/names.ts';
import { limitsRepo } from './limits-repo.ts';
import { repliesRepo } from './replies.ts';
import type { ReceiptRow } from './history-repo.ts';
import type { DeliveryCore } from './core.ts';

/** What the Receipts page reads: receipts, one receipt's detail, members' replies, the CSVs, and a retry. */
export const deliveryHistory = ({ deps, historyRepo }: DeliveryCore) => {
  /** Receipts as the API shows them: a refused one's reason, a description's mentions as @real name. */
  async function readable(teamId: string, listed: ReceiptRow[]): Promise<Receipt[]> {
    const errors = await limitsRepo.receiptErrors(
      deps.db,
      teamId,
      listed.map((r) => r.id),
    );
    const replies = await repliesRepo(deps.db).counts(listed.map((r) => r.id));
    const rows = listed.map((r) => ({
      ...toReceipt(r, errors.get(r.id) ?? null),
      reply_count: replies.get(r.id) ?? 0,
    }));
    const ids = mentionedIds(rows.map((r) => r.description).join(' '));
    if (ids.members.length === 0 && ids.channels.length === 0) return rows;
    const names = namesFrom(
      await memberNames(deps.db, teamId, ids.members),
      await channelNames(deps.db, teamId, ids.channels),
    );
    return rows.map((r) => ({ ...r, description: readableMentions(r.description, names) }));
  }

  return {
    /** Receipts newest first; a description's mentions (a workflow step's member) read as @real name. */
    async receipts(teamId: string): Promise<Receipt[]> {
      const listed = await historyRepo.listReceipts(teamId, 1000);
      return readable(teamId, listed);
    },

    /**
     * What members wrote back in their DMs with the bot: a receipt's replies, or a member's (each with the send
     * it answers), newest first. A receipt of another workspace is a 404 like any other.
     */
    async replies(teamId: string, of: { receiptId: number } | { memberId: string }): Promise<DmReply[]> {
      const replies = repliesRepo(deps.db);
      if ('memberId' in of) return replies.ofMember(teamId, of.memberId, MAX_REPLIES);
      if (!(await historyRepo.findReceipt(teamId, of.receiptId)))
        throw notFound('No such receipt in this workspace');
      return replies.ofReceipt(teamId, of.receiptId, MAX_REPLIES);
    },

    /** One receipt (a send dialog follows the send it made) and why its failed recipients failed. */
    async receipt(teamId: string, id: number): Promise<ReceiptDetail> {
      const row = await historyRepo.findReceipt(teamId, id);
      if (!row) throw notFound('No such receipt in this workspace');
      const [[receipt], failures] = await Promise.all([
        readable(teamId, [row]),
        historyRepo.failureReasons(id),
      ]);
      return { ...receipt!, failures };
    },

    async *recipientsCsv(teamId: string, receiptId: number, kind: RecipientKind): AsyncGenerator<string> {
      const receipt = await historyRepo.findReceipt(teamId, receiptId);
      if (!receipt) throw notFound('No such receipt in this workspace');
      const rows = await historyRepo.recipients(receiptId, kind);
      yield `\uFEFF${RECEIPT_CSV_COLUMNS.map(csvCell).join(',')}\r\n`;
      for (let i = 0; i < rows.length; i += 2000) {
        let out = '';
        for (const r of rows.slice(i, i + 2000)) {
          const status = r.state === 'sent' ? 'Sent' : r.state === 'failed' ? 'Failed' : 'Pending';
          out += [r.name, r.type === 'member' ? 'Member' : 'Channel', r.email, status, r.error ?? '', r.id]
            .map(csvCell)
            .join(',');
          out += '\r\n';
        }
        yield out;
      }
    },

    /** Retry: failed recipients with a retryable error go back to the queue of the same receipt. */
    async retry(teamId: string, receiptId: number): Promise<number> {
      const receipt = await historyRepo.findReceipt(teamId, receiptId);
      if (!receipt) throw notFound('No such receipt in this workspace');
      const n = await historyRepo.requeueRetryable(receiptId);
      if (n > 0) await deps.wake(teamId);
      return n;
    },
  };
};

export function toReceipt(r: ReceiptRow, error: string | null = null): Receipt {
  return {
    id: r.id,
    action_type: r.action_type,
    description: r.description,
    sender: r.sender,
    created_at: new Date(r.created_at).toISOString(),
    total_recipient_count: r.total,
    successful_recipient_count: r.sent,
    failed_recipient_count: r.failed,
    retryable_recipient_count: r.retryable,
    error,
    reply_count: 0,
  };
}
export { receiptStatus };
