import type { ActionType, ResolvedAudienceInput, Sender } from '@flywheel/shared/delivery';
import { LOCKS, xactLock } from '../../db/locks.ts';
import { AppError } from '../../lib/errors.ts';
import type { Recipients } from '../audience/service.ts';
import { budgetOf, overBudget } from './limits.ts';
import { limitsRepo } from './limits-repo.ts';
import { deliveryRepo, type NewReceipt } from './repo.ts';
import type { DeliveryCore } from './core.ts';

export type SendRequest = {
  teamId: string;
  userId: string | null;
  actionType: ActionType;
  sender: Sender;
  adminUser: string | null;
  text: string;
  images: string[];
  threadTs?: string;
  /** Interactive blocks after the text and images (a form's button). */
  blocks?: Record<string, unknown>[];
  audience: ResolvedAudienceInput;
  /** Already resolved recipients (a reply goes to its channel) instead of an audience. */
  recipients?: Recipients;
  /** A sender that may ask twice (a schedule's run, a join) names the send: one receipt per key. */
  idempotencyKey?: string;
  description?: string;
  /** A caller sending many at once wakes the workspace's sender itself, once, after them (`wake`). */
  deferWake?: boolean;
  /**
   * Who asks: a person (default; a send over the daily budget is refused with a 429 and leaves nothing) or an
   * automation (a schedule's run, a workflow's step, a form's recurrence: refused, it leaves a receipt that
   * sends nothing and says why).
   */
  origin?: 'person' | 'automation';
  /**
   * A person's send that must name its count when it goes to the whole workspace, a Members filter or more than
   * SEND_CONFIRM_OVER recipients: the count they confirmed, or null. Undefined: not asked (internal sends).
   */
  confirm?: number | null;
  /** At most one message per member from `scope` within `windowMs` before `at` (a workflow's step). */
  memberLimit?: { scope: string; windowMs: number; at: Date };
  /** The request's field naming the channels, for the 400 of an admin outside them (default channel_ids). */
  channelField?: string;
};

/** One send of `sendMany`: its receipt, or the error `send` would have thrown (with the refused receipt, if any). */
export type SendResult =
  | { receipt_id: number; total: number; existing: boolean; budget_remaining?: number | null }
  | { error: Error; receipt_id?: number };

/** A checked send waiting for its receipt (`admit`). */
export type Admission = { i: number; req: SendRequest; receipt: NewReceipt; recipients: Recipients };

export const nobody = () =>
  new AppError(
    'VALIDATION_ERROR',
    400,
    'Nobody to send to: the chosen members, tags and channels hold no active member',
  );

export const alreadyReached = (windowMs: number) =>
  new AppError(
    'VALIDATION_ERROR',
    400,
    `Nobody left to send to: every member this step reaches got it from this workflow in the last ${Math.round(windowMs / 3_600_000)} hours`,
  );

/** Writes the receipts of checked sends (sending.ts), under the workspace's sends lock. */
export const receiptWriter = ({ deps }: DeliveryCore) => {
  /**
   * Writes a workspace's receipts, in order, in one transaction under `LOCKS.sends(teamId)` (one batch of a
   * workspace at a time across every process): a key already used answers its receipt (nothing new is spent);
   * a step's per-member limit leaves out the members its scope reached within its window; the daily budget takes
   * what fits and refuses the rest (a person's send: a 429 naming what is left; an automation's: a receipt that
   * sends nothing and says why, and the same error).
   */
  async function admit(teamId: string, items: Admission[], results: SendResult[]): Promise<void> {
    await deps.db.transaction(async (tx) => {
      await xactLock(tx, LOCKS.sends(teamId));
      const txRepo = deliveryRepo(tx);
      const keys = [
        ...new Set(items.flatMap((it) => (it.req.idempotencyKey ? [it.req.idempotencyKey] : []))),
      ];
      const earlier = await limitsRepo.receiptsByKey(tx, keys);
      const budget = await budgetOf(tx, deps.limits, teamId);
      let remaining = budget === null ? Infinity : budget - (await limitsRepo.usedToday(tx, teamId));
      const left = () => (budget === null ? null : Math.max(0, remaining));
      const keyed: { it: Admission; receipt: NewReceipt & { idempotencyKey: string } }[] = [];
      const seen = new Set<string>();
      for (const it of items) {
        const key = it.req.idempotencyKey;
        if (key && seen.has(key)) continue; // answered after the batch, as its first use
        if (key) seen.add(key);
        const before = key ? earlier.get(key) : undefined;
        if (before) {
          results[it.i] = before.error
            ? { error: new AppError('SEND_BUDGET_EXCEEDED', 429, before.error), receipt_id: before.id }
            : { receipt_id: before.id, total: before.total, existing: true, budget_remaining: left() };
          continue;
        }
        let recipients = it.recipients;
        const limit = it.req.memberLimit;
        if (limit) {
          const since = new Date(limit.at.getTime() - limit.windowMs);
          const reached = await limitsRepo.reachedSince(tx, teamId, limit.scope, recipients.members, since);
          if (reached.size > 0) {
            recipients = { ...recipients, members: recipients.members.filter((m) => !reached.has(m)) };
            if (recipients.members.length + recipients.channels.length === 0) {
              results[it.i] = { error: alreadyReached(limit.windowMs) };
              continue;
            }
          }
        }
        const needed = new Set(recipients.members).size + new Set(recipients.channels).size;
        if (needed > remaining) {
          const refusal = overBudget(needed, remaining, budget!);
          if (it.req.origin === 'automation') {
            const id = await limitsRepo.refusedReceipt(tx, it.receipt, refusal.message);
            deps.logger.warn(
              { teamId, receipt: id, needed, remaining: left(), description: it.receipt.description },
              'send refused by the daily budget',
            );
            results[it.i] = { error: refusal, receipt_id: id };
          } else results[it.i] = { error: refusal };
          continue;
        }
        remaining -= needed;
        if (limit) await limitsRepo.markReached(tx, teamId, limit.scope, recipients.members, limit.at);
        if (key) {
          keyed.push({ it: { ...it, recipients }, receipt: { ...it.receipt, idempotencyKey: key } });
          continue;
        }
        const created = await txRepo.createReceipt(it.receipt, recipients);
        results[it.i] = {
          receipt_id: created.id,
          total: created.total,
          existing: !!created.existing,
          budget_remaining: left(),
        };
      }
      const created = await txRepo.createKeyedReceipts(
        keyed.map((k) => ({ receipt: k.receipt, recipients: k.it.recipients })),
      );
      keyed.forEach((k, n) => {
        const c = created[n]!;
        results[k.it.i] = {
          receipt_id: c.id,
          total: c.total,
          existing: c.existing,
          budget_remaining: left(),
        };
      });
    });
  }

  return admit;
};
