import type { WebClient } from '@slack/web-api';
import { DELIVERY_TEXTS, MAX_IMAGE_BYTES, type Sender } from '@flywheel/shared/delivery';
import type { Tx } from '../../db/sql.ts';
import { AppError } from '../../lib/errors.ts';
import { truncateText } from '@flywheel/shared/text';
import { messageContent, sectionsOf } from './engine.ts';
import { imageFileName, imageKind, postFile, type StoredImage } from './uploads.ts';
import type { SendRequest } from './admit.ts';
import { GONE, type DeliveryCore } from './core.ts';

/**
 * What is done to single messages: a reply in a thread, pins, reactions, edits and deletes of what a receipt
 * posted, image uploads, and a test send to the admin. `send` is sending.ts's.
 */
export const deliveryPosted = (
  { deps, postedRepo, images, senderHandle, checkedSender, act, checkChannel }: DeliveryCore,
  sending: {
    send(req: SendRequest): Promise<{ receipt_id: number; total: number; budget_remaining: number | null }>;
  },
) => ({
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
    const root = await postedRepo.threadRoot(r.teamId, r.channel, r.ts);
    if (!root) throw new AppError('VALIDATION_ERROR', 400, 'No such message in this channel');
    return sending.send({
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
    postedRepo.postedMessages(teamId, receiptId, runner),

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
    return sending.send({
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
});

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
