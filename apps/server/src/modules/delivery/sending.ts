import type { ResolvedAudienceInput } from '@flywheel/shared/delivery';
import { AppError } from '../../lib/errors.ts';
import type { Recipients } from '../audience/service.ts';
import { truncateText } from '@flywheel/shared/text';
import { budgetOf, budgetState, confirmationError } from './limits.ts';
import type { NewReceipt } from './repo.ts';
import type { DeliveryMessage } from './table.ts';
import { receiptWriter, type SendRequest, type SendResult, nobody, type Admission } from './admit.ts';
import { plural, type DeliveryCore } from './core.ts';

/** An audience not resolved yet (sendMany). */
const NOT_YET: Recipients = { members: [], channels: [] };

function describe(text: string, r: Recipients): string {
  const whom = [
    r.members.length ? plural(r.members.length, 'member') : '',
    r.channels.length ? plural(r.channels.length, 'channel') : '',
  ]
    .filter(Boolean)
    .join(', ');
  const snippet = text.replace(/\s+/g, ' ').trim();
  return `${truncateText(snippet, 80, '...')} (to ${whom})`;
}

/** Sends to audiences: checked, resolved, admitted against the limits, queued for the engine (engine.ts). */
export const deliverySending = (core: DeliveryCore) => {
  const { deps, adminOutside, adminOutsideError, assertSender, checkedSender, checkImages, checkChannels } =
    core;
  const admit = receiptWriter(core);
  return {
    /** Queues a message to an audience: one receipt, one row per recipient; answers at once. */
    async send(
      req: SendRequest,
    ): Promise<{ receipt_id: number; total: number; budget_remaining: number | null }> {
      const [result] = await this.sendMany([req]);
      if ('error' in result!) throw result.error;
      return {
        receipt_id: result!.receipt_id,
        total: result!.total,
        budget_remaining: result!.budget_remaining ?? null,
      };
    },

    /** The workspace's daily budget: its size, what the last 24 hours used and what is left. */
    budget: (teamId: string) => budgetState(deps.db, deps.limits, teamId),

    /**
     * For the send dialogs, before sending: the channels among `channelIds` an admin of this workspace is not
     * in (a send as them there is refused). 400 when `adminUser` is not one of the workspace's senders.
     */
    async adminChannels(teamId: string, adminUser: string, channelIds: string[]) {
      await assertSender(teamId, adminUser);
      await checkChannels(teamId, channelIds);
      return adminOutside(teamId, adminUser, channelIds);
    },

    /**
     * For a future send a person sets up (a schedule, an automation, a form): its audience now must name its
     * count when it is the whole workspace, a Members filter or more than SEND_CONFIRM_OVER recipients (409
     * otherwise), and one send of it must fit in the daily budget (400 otherwise). Answers the recipients.
     */
    async confirmAudience(
      teamId: string,
      audience: ResolvedAudienceInput,
      confirm: number | null,
    ): Promise<Recipients> {
      const recipients = await deps.audience.resolve(teamId, audience);
      const refused = confirmationError(deps.limits, audience, recipients, confirm);
      if (refused) throw refused;
      const budget = await budgetOf(deps.db, deps.limits, teamId);
      const total = recipients.members.length + recipients.channels.length;
      if (budget !== null && total > budget)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          `Each send of this would need ${total.toLocaleString('en-US')} messages, more than the workspace's daily budget (${budget.toLocaleString('en-US')})`,
        );
      return recipients;
    },

    /**
     * Many sends at once (a minute's schedules), each checked as one send would be and answered in order: its
     * receipt, or the error that send would have thrown. Each sender, image set and workspace's audiences are
     * checked once for the batch, and the keyed receipts are written in one statement.
     */
    async sendMany(reqs: SendRequest[]): Promise<SendResult[]> {
      const once = new Map<string, Promise<unknown>>();
      const memo = (key: string, run: () => Promise<unknown>) => {
        let p = once.get(key);
        if (!p) once.set(key, (p = run()));
        return p;
      };
      const checked = await Promise.all(
        reqs.map(async (req) => {
          try {
            await memo(`sender\n${req.teamId}\n${req.sender}\n${req.adminUser ?? ''}`, () =>
              checkedSender(req.teamId, req.sender, req.adminUser),
            );
            await memo(`images\n${req.teamId}\n${req.images.join(',')}`, () =>
              checkImages(req.teamId, req.images),
            );
            return null;
          } catch (err) {
            return err as Error;
          }
        }),
      );

      // Audiences, one batch per workspace.
      const resolved: (Recipients | Error)[] = reqs.map((req, i) => checked[i] ?? req.recipients ?? NOT_YET);
      const byTeam = new Map<string, number[]>();
      resolved.forEach((r, i) => {
        if (r === NOT_YET) byTeam.set(reqs[i]!.teamId, [...(byTeam.get(reqs[i]!.teamId) ?? []), i]);
      });
      for (const [teamId, idx] of byTeam) {
        const answers = await deps.audience
          .resolveMany(
            teamId,
            idx.map((i) => reqs[i]!.audience),
          )
          .catch((err: Error) => idx.map(() => err));
        idx.forEach((i, k) => (resolved[i] = answers[k]!));
      }

      const results: SendResult[] = new Array<SendResult>(reqs.length);
      const byTeamItems = new Map<string, Admission[]>();
      for (const [i, req] of reqs.entries()) {
        const recipients = resolved[i]!;
        if (recipients instanceof Error) {
          results[i] = { error: recipients };
          continue;
        }
        if (recipients.members.length + recipients.channels.length === 0) {
          results[i] = { error: nobody() };
          continue;
        }
        // A person's post as an admin into a channel the admin is not in would only come back not_in_channel.
        if (
          req.sender === 'admin' &&
          req.adminUser &&
          req.origin !== 'automation' &&
          recipients.channels.length > 0
        ) {
          const outside = await memo(
            `outside\n${req.teamId}\n${req.adminUser}\n${[...recipients.channels].sort().join(',')}\n${req.channelField ?? ''}`,
            () =>
              adminOutsideError(
                req.teamId,
                req.adminUser!,
                recipients.channels,
                req.channelField ?? 'channel_ids',
              ),
          );
          if (outside) {
            results[i] = { error: outside as AppError };
            continue;
          }
        }
        if (req.confirm !== undefined) {
          const refused = confirmationError(deps.limits, req.audience, recipients, req.confirm);
          if (refused) {
            results[i] = { error: refused };
            continue;
          }
        }
        const message: DeliveryMessage = { text: req.text, images: req.images };
        if (req.threadTs) message.threadTs = req.threadTs;
        if (req.blocks?.length) message.blocks = req.blocks;
        const receipt: NewReceipt = {
          teamId: req.teamId,
          actionType: req.actionType,
          description: req.description ?? describe(req.text, recipients),
          sender: req.sender,
          adminUser: req.sender === 'admin' ? req.adminUser : null,
          message,
          createdBy: req.userId,
          idempotencyKey: req.idempotencyKey ?? null,
        };
        const item: Admission = { i, req, receipt, recipients };
        byTeamItems.set(req.teamId, [...(byTeamItems.get(req.teamId) ?? []), item]);
      }
      for (const [teamId, items] of byTeamItems) {
        try {
          await admit(teamId, items, results);
        } catch (err) {
          for (const item of items) results[item.i] = { error: err as Error };
        }
      }
      // A key given twice in one batch answers the receipt its first use made.
      for (const [i, req] of reqs.entries())
        if (!results[i] && req.idempotencyKey) {
          const first = results[reqs.findIndex((r) => r.idempotencyKey === req.idempotencyKey)]!;
          results[i] = 'error' in first ? first : { ...first, existing: true };
        }

      const woken = new Set<string>();
      for (const [i, req] of reqs.entries()) {
        const r = results[i]!;
        if ('error' in r || r.existing || req.deferWake || woken.has(req.teamId)) continue;
        woken.add(req.teamId);
        await deps.wake(req.teamId);
      }
      return results;
    },
  };
};
