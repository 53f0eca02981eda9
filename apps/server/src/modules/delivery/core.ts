import type { Sender } from '@flywheel/shared/delivery';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { SlackApi, TokenSource } from '../../slack/client.ts';
import type { AudienceService } from '../audience/service.ts';
import type { BotService } from '../bot/service.ts';
import { channelNames, memberNames } from '../workspace-data/names.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { SenderUnavailable, type DeliveryConfig, type SenderHandle } from './engine.ts';
import { pacing as pacingOf } from './pacing.ts';
import type { SendLimits } from './limits.ts';
import { adminMembership } from './membership.ts';
import { deliveryHistoryRepo } from './history-repo.ts';
import { imagesRepo } from './images-repo.ts';
import { deliveryPostedRepo } from './posted-repo.ts';
import { deliveryRunnerRepo } from './runner-repo.ts';

/*
 * What the delivery service's parts share (service.ts puts them together): its dependencies, the repositories,
 * the sender and image checks, and the single paced calls.
 */

/** Slack's pin/reaction answers that mean the wanted state already holds. */
export const ALREADY = new Set(['already_pinned', 'no_pin', 'not_pinned', 'already_reacted']);

/** A message to delete that Slack no longer has. */
export const GONE = new Set(['message_not_found', 'channel_not_found', 'is_archived']);

export const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** '#a', '#a and #b', '#a, #b and #c'. */
export const listOf = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;

export type DeliveryDeps = {
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
};

export const deliveryCore = (deps: DeliveryDeps) => {
  const historyRepo = deliveryHistoryRepo(deps.db);
  const postedRepo = deliveryPostedRepo(deps.db);
  const runnerRepo = deliveryRunnerRepo(deps.db);
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

  return {
    deps,
    historyRepo,
    postedRepo,
    runnerRepo,
    images,
    adminOutside,
    adminOutsideError,
    senderHandle,
    assertSender,
    checkedSender,
    checkImages,
    act,
    checkChannel,
    checkChannels,
  };
};
export type DeliveryCore = ReturnType<typeof deliveryCore>;
