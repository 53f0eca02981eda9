import { recipientsLabel, type ResolvedAudienceInput, type SendBudget } from '@flywheel/shared/delivery';
import type { Tx } from '../../db/sql.ts';
import { AppError } from '../../lib/errors.ts';
import type { Recipients } from '../audience/service.ts';
import { BUDGET_WINDOW_HOURS, limitsRepo } from './limits-repo.ts';

/**
 * What one workspace may send (docs/product/sending.md, "Sending limits"):
 * - a daily budget of messages (each DM and each channel post is one; the last 24 hours count): a fixed number
 *   (`dailyBudget`; 0 turns the budget off), or by default `perMember` times the workspace's reachable members,
 *   at least `minimum`;
 * - a person's send to the whole workspace, a Members filter or more than `confirmOver` recipients names its
 *   count (`confirm_recipients`), so no client sends such a send by accident.
 */
export type SendLimits = {
  dailyBudget: number | null;
  perMember: number;
  minimum: number;
  confirmOver: number;
};

/** A workspace's budget (null: no budget). */
export async function budgetOf(runner: Tx, limits: SendLimits, teamId: string): Promise<number | null> {
  if (limits.dailyBudget === 0) return null;
  if (limits.dailyBudget !== null) return limits.dailyBudget;
  const members = await limitsRepo.reachableMembers(runner, teamId);
  return Math.max(limits.minimum, Math.ceil(limits.perMember * members));
}

/** The budget's state for the API (and the web's send dialogs). */
export async function budgetState(runner: Tx, limits: SendLimits, teamId: string): Promise<SendBudget> {
  const [budget, used] = await Promise.all([
    budgetOf(runner, limits, teamId),
    limitsRepo.usedToday(runner, teamId),
  ]);
  return {
    limited: budget !== null,
    budget,
    used,
    remaining: budget === null ? null : Math.max(0, budget - used),
    window_hours: BUDGET_WINDOW_HOURS,
    confirm_over: limits.confirmOver,
  };
}

const n = (v: number) => v.toLocaleString('en-US');

/** The refusal of a send the budget cannot take (429: nothing was queued). */
export function overBudget(needed: number, remaining: number, budget: number): AppError {
  return new AppError(
    'SEND_BUDGET_EXCEEDED',
    429,
    `Not sent: this needs ${n(needed)} message${needed === 1 ? '' : 's'} but the workspace's daily budget has ` +
      `${n(Math.max(0, remaining))} of ${n(budget)} left (messages queued in the last ${BUDGET_WINDOW_HOURS} hours count). ` +
      'Send to fewer members, or later.',
    {},
    { remaining: Math.max(0, remaining), budget, needed },
  );
}

/** Whether a send of this audience and size must name its count. */
export const needsConfirmation = (limits: SendLimits, audience: ResolvedAudienceInput, r: Recipients) =>
  audience.sendtoworkspace || !!audience.filter || r.members.length + r.channels.length > limits.confirmOver;

/**
 * The 409 a send that must name its count answers when `given` is not its count (absent, or the audience
 * changed since the person saw it); null when it may go.
 */
export function confirmationError(
  limits: SendLimits,
  audience: ResolvedAudienceInput,
  r: Recipients,
  given: number | null,
): AppError | null {
  const total = r.members.length + r.channels.length;
  if (!needsConfirmation(limits, audience, r) || given === total) return null;
  const label = recipientsLabel({ members: r.members.length, channels: r.channels.length });
  const why = audience.sendtoworkspace
    ? 'the whole workspace'
    : audience.filter
      ? 'everything the Members filters show'
      : `more than ${n(limits.confirmOver)} recipients`;
  const message =
    given === null
      ? `This goes to ${label} (${why}): confirm by sending it again with confirm_recipients: ${total}`
      : `This now goes to ${label}, not ${n(given)}: confirm again with confirm_recipients: ${total}`;
  return new AppError(
    'CONFIRM_RECIPIENTS',
    409,
    message,
    {},
    {
      recipients: total,
      members: r.members.length,
      channels: r.channels.length,
    },
  );
}
