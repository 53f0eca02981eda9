import type { WebClient } from '@slack/web-api';
import { mentionedIds, namesFrom, readableMentions } from '@flywheel/shared/mentions';
import {
  DELIVERY_TEXTS,
  MAX_IMAGE_BYTES,
  MAX_REPLIES,
  type DmReply,
  RECEIPT_CSV_COLUMNS,
  receiptStatus,
  type ActionType,
  type Receipt,
  type ReceiptDetail,
  type RecipientKind,
  type ResolvedAudienceInput,
  type Sender,
} from '@flywheel/shared/delivery';
import type { Db } from '../../db/client.ts';
import { LOCKS, xactLock } from '../../db/locks.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SlackApi, TokenSource } from '../../slack/client.ts';
import type { AudienceService, Recipients } from '../audience/service.ts';
import type { BotService } from '../bot/service.ts';
import { csvCell } from '@flywheel/shared/csv';
import { truncateText } from '@flywheel/shared/text';
import { channelNames, memberNames } from '../workspace-data/names.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import {
  messageContent,
  sectionsOf,
  SenderUnavailable,
  type DeliveryConfig,
  type SenderHandle,
} from './engine.ts';
import { pacing as pacingOf } from './pacing.ts';
import { budgetOf, budgetState, confirmationError, overBudget, type SendLimits } from './limits.ts';
import { limitsRepo } from './limits-repo.ts';
import { adminMembership } from './membership.ts';
import { repliesRepo } from './replies.ts';
import { deliveryRepo, imagesRepo, type NewReceipt, type ReceiptRow } from './repo.ts';
import type { DeliveryMessage } from './table.ts';
import { imageFileName, imageKind, postFile, type StoredImage } from './uploads.ts';

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
type Admission = { i: number; req: SendRequest; receipt: NewReceipt; recipients: Recipients };

const nobody = () =>
  new AppError(
    'VALIDATION_ERROR',
    400,
    'Nobody to send to: the chosen members, tags and channels hold no active member',
  );

const alreadyReached = (windowMs: number) =>
  new AppError(
    'VALIDATION_ERROR',
    400,
    `Nobody left to send to: every member this step reaches got it from this workflow in the last ${Math.round(windowMs / 3_600_000)} hours`,
  );

/** An audience not resolved yet (sendMany). */
const NOT_YET: Recipients = { members: [], channels: [] };

/** Slack's pin/reaction answers that mean the wanted state already holds. */
const ALREADY = new Set(['already_pinned', 'no_pin', 'not_pinned', 'already_reacted']);

/** A message to delete that Slack no longer has. */
const GONE = new Set(['message_not_found', 'channel_not_found', 'is_archived']);

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** '#a', '#a and #b', '#a, #b and #c'. */
const listOf = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

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

/**
 * Sending, for every feature: checks the sender and the images, resolves the audience, writes the receipt with
 * one row per recipient, and wakes the delivery engine (jobs). Pins and reactions are single calls made here,
 * paced like everything else.
 */
export const deliveryService = (deps: {
  db: Db;
  audience: AudienceService;
  workspaces: WorkspacesService;
  bot: BotService;
  slack: SlackApi;
  config: DeliveryConfig;
  /** The daily budget and the confirmation threshold (limits.ts). */
  limits: SendLimits;
  logger: Logger;
  /** Wakes the engine for a workspace (queues delivery.send). */
  wake: (teamId: string) => Promise<void>;
}) => {
  const repo = deliveryRepo(deps.db);
  const images = imagesRepo(deps.db);
  const pacing = pacingOf(deps.db);
  const membership = adminMembership({
    db: deps.db,
    pacing,
    perMinute: deps.slack.perMinute('users.conversations'),
    logger: deps.logger,
    clientOf: async (teamId, adminUser) => {
      const token = await deps.workspaces.adminToken(teamId, adminUser);
      return token ? deps.slack.sendingClient(token, 10_000) : null;
    },
  });

  /**
   * The channels (id and name) among `channelIds` an admin's Slack user is not in, and the admin's name: a
   * post as them there would come back `not_in_channel`.
   */
  async function adminOutside(teamId: string, adminUser: string, channelIds: string[]) {
    const missing = await membership.notIn(teamId, adminUser, channelIds);
    const [names, admins] = await Promise.all([
      channelNames(deps.db, teamId, missing),
      memberNames(deps.db, teamId, [adminUser]),
    ]);
    return {
      admin: admins.get(adminUser) ?? adminUser,
      channels: missing.map((id) => ({ channel_id: id, name: names.get(id) ?? id })),
    };
  }

  /** The 400 of a person's send as an admin into channels they are not in (null when they are in every one). */
  async function adminOutsideError(
    teamId: string,
    adminUser: string,
    channelIds: string[],
    field: string,
  ): Promise<AppError | null> {
    const out = await adminOutside(teamId, adminUser, channelIds);
    if (out.channels.length === 0) return null;
    const list = listOf(out.channels.map((c) => `#${c.name}`));
    const them = out.channels.length === 1 ? 'it' : 'them';
    return new AppError(
      'ADMIN_NOT_IN_CHANNEL',
      400,
      `${field}: ${out.admin} (the admin sending) is not a member of ${list} in Slack, so Slack would refuse ` +
        `the message. Send it as the Bot instead, or have ${out.admin} join ${them} in Slack first.`,
      {},
      { channels: out.channels.length },
    );
  }

  /** The Slack client and identity a sender posts with (SenderUnavailable when it cannot). */
  async function senderHandle(
    teamId: string,
    sender: Sender,
    adminUser: string | null,
  ): Promise<SenderHandle> {
    if (sender === 'admin') {
      const token = adminUser ? await deps.workspaces.adminToken(teamId, adminUser) : null;
      if (!token) throw new SenderUnavailable('admin_not_authorized', false);
      return { client: deps.slack.sendingClient(token) };
    }
    let token: TokenSource;
    try {
      token = await deps.workspaces.botToken(teamId);
    } catch (err) {
      if (err instanceof AppError && err.code === 'WORKSPACE_DISCONNECTED')
        throw new SenderUnavailable('workspace_disconnected', true);
      throw err;
    }
    return { client: deps.slack.sendingClient(token), identity: await deps.bot.botIdentity(teamId) };
  }

  const notAuthorized = () =>
    new AppError(
      'VALIDATION_ERROR',
      400,
      'This admin has not authorized Flywheel to send as them yet: they must click Add as Admin first',
    );

  /**
   * 400 unless `adminUser` is a Slack user admins may send as. An admin who only installed the workspace (the
   * install asks for no user token) is told to use Add as Admin.
   */
  async function assertSender(teamId: string, adminUser: string | null): Promise<void> {
    const admins = await deps.workspaces.listAdmins(teamId);
    if (adminUser && admins.some((a) => a.slackUserId === adminUser)) return;
    if (adminUser && (await deps.workspaces.isAdminSlackUser(teamId, adminUser))) throw notAuthorized();
    throw new AppError('VALIDATION_ERROR', 400, 'admin_user is not an admin of this workspace in Flywheel');
  }

  /** The same, answering a person: 400 naming what is wrong. */
  async function checkedSender(
    teamId: string,
    sender: Sender,
    adminUser: string | null,
  ): Promise<SenderHandle> {
    if (sender === 'admin') await assertSender(teamId, adminUser);
    try {
      return await senderHandle(teamId, sender, adminUser);
    } catch (err) {
      if (err instanceof SenderUnavailable && err.code === 'admin_not_authorized') throw notAuthorized();
      if (err instanceof SenderUnavailable)
        throw new AppError(
          'WORKSPACE_DISCONNECTED',
          409,
          'This workspace is disconnected from Slack. Reconnect it with Add as Admin.',
        );
      throw err;
    }
  }

  async function checkImages(teamId: string, fileIds: string[]) {
    const known = await images.known(teamId, fileIds);
    const missing = fileIds.filter((id) => !known.has(id));
    if (missing.length > 0)
      throw new AppError(
        'VALIDATION_ERROR',
        400,
        `Unknown image(s) for this workspace: ${missing.join(', ')}`,
      );
  }

  /** A single paced call (pins, reactions), answered to the person with Slack's error when it refuses. */
  async function act(
    teamId: string,
    method: string,
    perMinute: number,
    call: () => Promise<unknown>,
    already: ReadonlySet<string> = ALREADY,
  ): Promise<'done' | 'already'> {
    const at = await pacing.reserve(teamId, [{ key: method, perMinute }]);
    if (at > Date.now()) await new Promise((r) => setTimeout(r, at - Date.now()));
    try {
      await call();
      return 'done';
    } catch (err) {
      const code = (err as { data?: { error?: string } }).data?.error;
      if (code && already.has(code)) return 'already';
      const retryAfter = (err as { retryAfter?: number }).retryAfter;
      if (retryAfter !== undefined) {
        await pacing.pushBack(teamId, method, retryAfter);
        throw new AppError(
          'SLACK_ERROR',
          429,
          `Slack is rate-limiting ${method}: try again in ${retryAfter} s`,
          {
            'retry-after': String(retryAfter),
          },
        );
      }
      if (code) throw new AppError('SLACK_ERROR', 400, `Slack refused ${method}: ${code}`);
      deps.logger.warn({ err, method }, 'Slack call failed');
      throw new AppError('SLACK_ERROR', 502, `Slack did not answer ${method}; try again`);
    }
  }

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

  return {
    senderHandle,
    teamsWithDueWork: () => repo.teamsWithDueWork(),
    /** Wakes the workspace's sender (after sends made with `deferWake`). */
    wake: (teamId: string) => deps.wake(teamId),

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

    /** A reply in the thread of a message this workspace holds (a reply to a reply joins its thread). */
    async reply(r: {
      teamId: string;
      userId: string | null;
      sender: Sender;
      adminUser: string | null;
      text: string;
      images: string[];
      channel: string;
      ts: string;
      /** A person's Idempotency-Key (its receipt key). */
      idempotencyKey?: string;
    }): Promise<{ receipt_id: number; total: number; budget_remaining: number | null }> {
      await checkChannel(r.teamId, r.channel);
      const root = await repo.threadRoot(r.teamId, r.channel, r.ts);
      if (!root) throw new AppError('VALIDATION_ERROR', 400, 'No such message in this channel');
      return this.send({
        teamId: r.teamId,
        userId: r.userId,
        actionType: 'Thread Reply',
        sender: r.sender,
        adminUser: r.adminUser,
        text: r.text,
        images: r.images,
        threadTs: root,
        audience: {
          channel_ids: [r.channel],
          dms: { members: [], tags: [], channels: [] },
          sendtoworkspace: false,
        },
        recipients: { members: [], channels: [r.channel] },
        channelField: 'channel_id',
        ...(r.idempotencyKey ? { idempotencyKey: r.idempotencyKey } : {}),
      });
    },

    async pin(teamId: string, channel: string, ts: string, on: boolean): Promise<string> {
      await checkChannel(teamId, channel);
      const { client } = await checkedSender(teamId, 'bot', null);
      const method = on ? 'pins.add' : 'pins.remove';
      const result = await act(teamId, method, 20, () =>
        on ? client.pins.add({ channel, timestamp: ts }) : client.pins.remove({ channel, timestamp: ts }),
      );
      if (on) return result === 'already' ? 'The message was already pinned' : 'Message pinned';
      return result === 'already' ? 'The message was not pinned' : 'Message unpinned';
    },

    async react(
      teamId: string,
      r: { channel: string; ts: string; name: string; sender: Sender; adminUser: string | null },
    ): Promise<string> {
      await checkChannel(teamId, r.channel);
      const { client } = await checkedSender(teamId, r.sender, r.adminUser);
      const result = await act(teamId, 'reactions.add', 50, () =>
        client.reactions.add({ channel: r.channel, timestamp: r.ts, name: r.name }),
      );
      return result === 'already' ? `:${r.name}: was already there` : `Reacted with :${r.name}:`;
    },

    /**
     * The channel messages a receipt posted so far, and how many of its recipients are still open (`runner`: an
     * open transaction, e.g. an events listener's).
     */
    postedMessages: (teamId: string, receiptId: number, runner?: Tx) =>
      repo.postedMessages(teamId, receiptId, runner),

    /**
     * Edits a message a receipt posted (chat.update, paced like every call, with the token that posted it): the
     * same text and image blocks a post has. Slack's refusals answer as `send`'s do (429 with Retry-After).
     */
    async editPosted(
      teamId: string,
      m: {
        sender: Sender;
        adminUser: string | null;
        channel: string;
        ts: string;
        text: string;
        images: string[];
        /** Interactive blocks (a button poll's); given, even empty, the message's blocks are replaced. */
        blocks?: Record<string, unknown>[];
      },
    ): Promise<void> {
      const { client } = await senderHandle(teamId, m.sender, m.adminUser);
      const content = messageContent(m);
      // Blocks given but none left (a closed button poll): the text's sections replace the buttons.
      if (m.blocks && !content.blocks) content.blocks = sectionsOf(m.text);
      await act(teamId, 'chat.update', deps.config.updatesPerMinute, () =>
        client.chat.update({ channel: m.channel, ts: m.ts, ...content }),
      );
    },

    /** Deletes a message a receipt posted (chat.delete); one already gone is fine. */
    async deletePosted(
      teamId: string,
      m: { sender: Sender; adminUser: string | null; channel: string; ts: string },
    ): Promise<'done' | 'already'> {
      const { client } = await senderHandle(teamId, m.sender, m.adminUser);
      return act(
        teamId,
        'chat.delete',
        deps.config.updatesPerMinute,
        () => client.chat.delete({ channel: m.channel, ts: m.ts }),
        GONE,
      );
    },

    /**
     * Uploads an image to Slack (files upload flow, not shared yet) for a later message: checked by its bytes,
     * named with the extension of its type, streamed from the file the request wrote.
     */
    async uploadImage(
      teamId: string,
      userId: string | null,
      file: StoredImage,
    ): Promise<{ file_id: string; url: string; name: string }> {
      if (file.truncated || file.size > MAX_IMAGE_BYTES)
        throw new AppError('VALIDATION_ERROR', 400, `image: ${DELIVERY_TEXTS.imageSize}`);
      const kind = imageKind(file.head);
      if (!kind) throw new AppError('VALIDATION_ERROR', 400, `image: ${DELIVERY_TEXTS.imageType}`);
      const { client } = await checkedSender(teamId, 'bot', null);
      const name = imageFileName(file.filename, kind);
      const uploaded = await uploadToSlack(client, name, file);
      await images.save({
        fileId: uploaded.id,
        teamId,
        name,
        url: uploaded.url,
        bytes: file.size,
        createdBy: userId,
      });
      return { file_id: uploaded.id, url: uploaded.url, name };
    },

    /** Receipts newest first; a description's mentions (a workflow step's member) read as @real name. */
    async receipts(teamId: string): Promise<Receipt[]> {
      const listed = await repo.listReceipts(teamId, 1000);
      return readable(teamId, listed);
    },

    /**
     * What members wrote back in their DMs with the bot: a receipt's replies, or a member's (each with the send
     * it answers), newest first. A receipt of another workspace is a 404 like any other.
     */
    async replies(teamId: string, of: { receiptId: number } | { memberId: string }): Promise<DmReply[]> {
      const replies = repliesRepo(deps.db);
      if ('memberId' in of) return replies.ofMember(teamId, of.memberId, MAX_REPLIES);
      if (!(await repo.findReceipt(teamId, of.receiptId)))
        throw notFound('No such receipt in this workspace');
      return replies.ofReceipt(teamId, of.receiptId, MAX_REPLIES);
    },

    /** One receipt (a send dialog follows the send it made) and why its failed recipients failed. */
    async receipt(teamId: string, id: number): Promise<ReceiptDetail> {
      const row = await repo.findReceipt(teamId, id);
      if (!row) throw notFound('No such receipt in this workspace');
      const [[receipt], failures] = await Promise.all([readable(teamId, [row]), repo.failureReasons(id)]);
      return { ...receipt!, failures };
    },

    /**
     * "Send a test to me": the message as a DM to the signed-in admin's own Slack user (from the chosen sender:
     * the bot's DM with them, or the admin's DM with themselves), sent like every message (a receipt, the
     * engine, the sender's token), so what arrives in Slack is what the real send will post.
     */
    async sendTest(r: {
      teamId: string;
      userId: string;
      sender: Sender;
      adminUser: string | null;
      text: string;
      images: string[];
      idempotencyKey?: string;
    }): Promise<{ receipt_id: number; total: number; budget_remaining: number | null }> {
      const me = await deps.workspaces.slackUserOf(r.teamId, r.userId);
      if (!me)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          'Flywheel does not know your own Slack user in this workspace: use Add as Admin to link it, then send the test again',
        );
      const snippet = truncateText(r.text.replace(/\s+/g, ' ').trim(), 80, '...');
      return this.send({
        teamId: r.teamId,
        userId: r.userId,
        actionType: 'Direct Message',
        sender: r.sender,
        adminUser: r.adminUser,
        text: r.text,
        images: r.images,
        description: `Test to you: ${snippet}`,
        audience: {
          channel_ids: [],
          dms: { members: [me], tags: [], channels: [] },
          sendtoworkspace: false,
        },
        ...(r.idempotencyKey ? { idempotencyKey: r.idempotencyKey } : {}),
      });
    },

    async *recipientsCsv(teamId: string, receiptId: number, kind: RecipientKind): AsyncGenerator<string> {
      const receipt = await repo.findReceipt(teamId, receiptId);
      if (!receipt) throw notFound('No such receipt in this workspace');
      const rows = await repo.recipients(receiptId, kind);
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
      const receipt = await repo.findReceipt(teamId, receiptId);
      if (!receipt) throw notFound('No such receipt in this workspace');
      const n = await repo.requeueRetryable(receiptId);
      if (n > 0) await deps.wake(teamId);
      return n;
    },
  };

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

  async function checkChannel(teamId: string, channel: string) {
    await checkChannels(teamId, [channel]);
  }

  /** Every channel must be this workspace's (the audience's 400 names the unknown ones). */
  async function checkChannels(teamId: string, channels: string[]) {
    const known = await deps.audience.resolve(teamId, {
      channel_ids: channels,
      dms: { members: [], tags: [], channels: [] },
      sendtoworkspace: false,
    });
    if (channels.some((c) => !known.channels.includes(c)))
      throw new AppError('VALIDATION_ERROR', 400, 'Unknown channel');
  }
};
export type DeliveryService = ReturnType<typeof deliveryService>;

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

/**
 * Slack's external upload flow: the URL and the completion through the SDK, the bytes POSTed raw to the URL,
 * streamed from disk (the SDK's files.uploadV2 reads the whole file into memory and copies it twice more). Unshared:
 * messages show it by id.
 */
async function uploadToSlack(
  client: WebClient,
  filename: string,
  file: StoredImage,
): Promise<{ id: string; url: string }> {
  const refused = (err: unknown): never => {
    if (err instanceof AppError) throw err;
    const retryAfter = (err as { retryAfter?: number }).retryAfter;
    if (retryAfter !== undefined)
      throw new AppError('SLACK_ERROR', 429, `Slack is rate-limiting uploads: try again in ${retryAfter} s`, {
        'retry-after': String(retryAfter),
      });
    const code = (err as { data?: { error?: string } }).data?.error;
    throw new AppError('SLACK_ERROR', 502, `Slack refused the image upload${code ? `: ${code}` : ''}`);
  };
  const target = await client.files.getUploadURLExternal({ filename, length: file.size }).catch(refused);
  if (!target.upload_url || !target.file_id)
    throw new AppError('SLACK_ERROR', 502, 'Slack gave no upload URL for the image');
  await postFile(target.upload_url, file.path, file.size, 60_000).catch(refused);
  const done = await client.files
    .completeUploadExternal({ files: [{ id: target.file_id, title: filename }] })
    .catch(refused);
  const completed = done.files?.find((f) => f.id === target.file_id);
  if (!completed?.id) throw new AppError('SLACK_ERROR', 502, 'Slack did not confirm the image upload');
  return { id: completed.id, url: completed.permalink ?? completed.url_private ?? '' };
}
