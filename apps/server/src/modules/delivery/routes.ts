import { sendCsv } from '../../lib/csv-reply.ts';
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DELIVERY_TEXTS,
  MAX_IMAGE_BYTES,
  adminChannelsQuery,
  adminChannelsResponse,
  RECIPIENT_KINDS,
  directMessageBody,
  dmManyBody,
  idempotencyHeaders,
  pinBody,
  reactionBody,
  dmRepliesResponse,
  receiptResponse,
  receiptsResponse,
  repliesQuery,
  replyBody,
  retryBody,
  retryResponse,
  sendBudgetResponse,
  sendMessageBody,
  sendResponse,
  testMessageBody,
  uploadImageResponse,
  type ActionType,
  type Sender,
} from '@flywheel/shared/delivery';
import { messageResponse } from '@flywheel/shared/http';
import { AppError } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { scopedOptions, teamIdParam, type WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, receiptKeyOf, type IdempotencyService } from './idempotency.ts';
import type { DeliveryService, SendRequest } from './service.ts';
import { isStoredImage, type ImageUploads, type StoredImage } from './uploads.ts';

const tags = ['delivery'];
const noAudience = { channel_ids: [], dms: { members: [], tags: [], channels: [] }, sendtoworkspace: false };
const queued = (r: { receipt_id: number; total: number; budget_remaining?: number | null }) => ({
  message: `Sending to ${r.total} recipient${r.total === 1 ? '' : 's'}: follow it in Receipts`,
  data: r,
});

/**
 * Quick actions: send a message, DM one or many members, reply in a thread, pin, unpin and
 * react, upload an image; and the Receipts page. Every send answers at once with its receipt.
 */
export function deliveryRoutes(deps: {
  delivery: DeliveryService;
  idempotency: IdempotencyService;
  guard: WorkspaceGuard;
  uploads: ImageUploads;
}) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const opts = scopedOptions(deps.guard);
    const userOf = (req: Parameters<typeof currentUser>[0]) => currentUser(req).id;
    /**
     * A send from a request: who asks, what, to whom; answers 202 with the receipt. Under an Idempotency-Key the
     * same key answers the same receipt; a send to the whole workspace, a Members filter or many recipients needs
     * `confirm_recipients` (409 with the count otherwise).
     */
    const sendFor = async (
      req: Parameters<typeof currentUser>[0],
      reply: FastifyReply,
      b: {
        team_id: string;
        sender: Sender;
        admin_user?: string | null;
        images: string[];
        confirm_recipients?: number;
      },
      actionType: ActionType,
      text: string,
      audience: SendRequest['audience'],
    ) =>
      answerOnce(deps.idempotency, req, reply, b.team_id, async (token) => {
        const result = await deps.delivery.send({
          teamId: b.team_id,
          userId: userOf(req),
          actionType,
          sender: b.sender,
          adminUser: b.admin_user ?? null,
          text,
          images: b.images,
          audience,
          confirm: b.confirm_recipients ?? null,
          idempotencyKey: receiptKeyOf(token),
        });
        return { status: 202, body: queued(result) };
      });

    r.post(
      '/quickaction/sendmessage',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'Send Message: to channels (channel_ids) and as DMs to members, tags, channels, the workspace or a Members filter',
          headers: idempotencyHeaders,
          body: sendMessageBody,
          response: { 202: sendResponse },
        },
      },
      async (req, reply) =>
        sendFor(
          req,
          reply,
          req.body,
          req.body.channel_ids.length === 0 ? 'Bulk DM' : 'Send Message',
          req.body.message,
          req.body,
        ),
    );

    r.post(
      '/quickaction/dmtomultipleusers',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Send DM to many members (ids or e-mails)',
          headers: idempotencyHeaders,
          body: dmManyBody,
          response: { 202: sendResponse },
        },
      },
      async (req, reply) =>
        sendFor(req, reply, req.body, 'Bulk DM', req.body.text, {
          ...noAudience,
          dms: { members: req.body.users, tags: [], channels: [] },
        }),
    );

    r.post(
      '/member/directmessage',
      {
        ...opts,
        schema: {
          tags,
          summary: 'DM one member (member detail message button)',
          headers: idempotencyHeaders,
          body: directMessageBody,
          response: { 202: sendResponse },
        },
      },
      async (req, reply) =>
        sendFor(req, reply, req.body, 'Direct Message', req.body.text, {
          ...noAudience,
          dms: { members: [req.body.id], tags: [], channels: [] },
        }),
    );

    r.post(
      '/quickaction/sendtest',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "Send a test to me: the message as a DM to the signed-in admin's own Slack user, from the chosen sender, through the same delivery as every send",
          headers: idempotencyHeaders,
          body: testMessageBody,
          response: { 202: sendResponse },
        },
      },
      async (req, reply) => {
        const b = req.body;
        return answerOnce(deps.idempotency, req, reply, b.team_id, async (token) => {
          const result = await deps.delivery.sendTest({
            teamId: b.team_id,
            userId: userOf(req),
            sender: b.sender,
            adminUser: b.admin_user ?? null,
            text: b.text,
            images: b.images,
            idempotencyKey: receiptKeyOf(token),
          });
          return {
            status: 202,
            body: { message: 'Sending the test to you: it arrives as a DM in Slack', data: result },
          };
        });
      },
    );

    r.get(
      '/delivery/adminchannels/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "Which of these channels an admin's Slack user is not in (asked of Slack with their token): a send as them there is refused",
          params: z.object({ teamId: teamIdParam }),
          querystring: adminChannelsQuery,
          response: { 200: adminChannelsResponse },
        },
      },
      async (req) => ({
        data: await deps.delivery.adminChannels(
          req.params.teamId,
          req.query.admin_user,
          req.query.channel_ids,
        ),
      }),
    );

    // /mentions/replytomention and /mentions/addreaction live in conversations (they also mark the mention 'Seen').
    for (const url of ['/quickaction/replytothread']) {
      r.post(
        url,
        {
          ...opts,
          schema: {
            tags,
            summary: 'Reply in a thread (ts = the message replied to)',
            headers: idempotencyHeaders,
            body: replyBody,
            response: { 202: sendResponse },
          },
        },
        async (req, reply) => {
          const b = req.body;
          return answerOnce(deps.idempotency, req, reply, b.team_id, async (token) => {
            const result = await deps.delivery.reply({
              teamId: b.team_id,
              userId: userOf(req),
              sender: b.sender,
              adminUser: b.admin_user ?? null,
              text: b.text,
              images: b.images,
              channel: b.channel_id,
              ts: b.ts,
              idempotencyKey: receiptKeyOf(token),
            });
            return { status: 202, body: queued(result) };
          });
        },
      );
    }

    for (const [url, on] of [
      ['/quickaction/pinpost', true],
      ['/quickaction/unpinpost', false],
    ] as const) {
      r.post(
        url,
        {
          ...opts,
          schema: {
            tags,
            summary: on ? 'Pin a message' : 'Unpin a message',
            body: pinBody,
            response: { 200: messageResponse },
          },
        },
        async (req) => ({
          message: await deps.delivery.pin(req.body.team_id, req.body.channel_id, req.body.ts, on),
        }),
      );
    }

    for (const url of ['/quickaction/addreaction']) {
      r.post(
        url,
        {
          ...opts,
          schema: {
            tags,
            summary: 'React to a message',
            body: reactionBody,
            response: { 200: messageResponse },
          },
        },
        async (req) => {
          const b = req.body;
          return {
            message: await deps.delivery.react(b.team_id, {
              channel: b.channel_id,
              ts: b.ts,
              name: b.name,
              sender: b.sender,
              adminUser: b.admin_user ?? null,
            }),
          };
        },
      );
    }

    // Images: multipart (image, team_id), a few at once per process, each streamed to a temporary file (5 MB at
    // most) and checked by its bytes.
    const uploads = deps.uploads;
    await app.register(async (upload) => {
      await upload.register(multipart, {
        attachFieldsToBody: 'keyValues',
        throwFileSizeLimit: false,
        limits: { fileSize: MAX_IMAGE_BYTES, files: 1, fields: 4, fieldSize: 1024 },
        async onFile(part) {
          const stored = await uploads.receive(this, part);
          (part as unknown as { value: StoredImage }).value = stored;
        },
      });
      upload.withTypeProvider<ZodTypeProvider>().post(
        '/quickaction/uploadimage',
        {
          ...opts,
          // The token first (401), then a slot (503 with Retry-After when the process is taking its most).
          onRequest: [opts.onRequest, uploads.admit],
          schema: {
            tags,
            summary:
              "Uploads an image (multipart: image, team_id) to Slack for a later message; png or jpeg by its bytes, 5 MB; named with its type's extension; 503 with Retry-After when the server is taking its most uploads",
            consumes: ['multipart/form-data'],
            response: { 201: uploadImageResponse },
          },
        },
        async (req, reply) => {
          const body = (req.body ?? {}) as { team_id?: unknown; image?: unknown };
          if (!isStoredImage(body.image))
            throw new AppError(
              'VALIDATION_ERROR',
              400,
              'image: send the image as a multipart file field named image',
            );
          const data = await uploads.during(
            req,
            deps.delivery.uploadImage(String(body.team_id), userOf(req), body.image),
          );
          return reply.code(201).send({ message: 'Image uploaded', data });
        },
      );
    });

    r.get(
      '/delivery/budget/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "The workspace's daily message budget (SEND_DAILY_BUDGET...): its size, what the last 24 hours used, what is left, and the count over which a send asks for a confirmation",
          params: z.object({ teamId: teamIdParam }),
          response: { 200: sendBudgetResponse },
        },
      },
      async (req) => ({ data: await deps.delivery.budget(req.params.teamId) }),
    );

    r.get(
      '/receipts/getallreceipts/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary: 'Receipts of the workspace, newest first, with their counts (the 1,000 newest)',
          params: z.object({ teamId: teamIdParam }),
          response: { 200: receiptsResponse },
        },
      },
      async (req) => ({ data: await deps.delivery.receipts(req.params.teamId) }),
    );

    r.get(
      '/receipts/getreceipt/:teamId/:id',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'One receipt with its counts and why its failed recipients failed (Slack error codes, most common first)',
          params: z.object({
            teamId: teamIdParam,
            id: z.coerce.number().int().positive('id must be a receipt id'),
          }),
          response: { 200: receiptResponse },
        },
      },
      async (req) => ({ data: await deps.delivery.receipt(req.params.teamId, req.params.id) }),
    );

    r.get(
      '/receipts/getreplies/:teamId',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'What members wrote back in their DM with the bot (newest first, at most 500): the replies to one receipt (receipt_id) or one member’s (member_id)',
          params: z.object({ teamId: teamIdParam }),
          querystring: repliesQuery,
          response: { 200: dmRepliesResponse },
        },
      },
      async (req) => ({
        data: await deps.delivery.replies(
          req.params.teamId,
          req.query.receipt_id !== undefined
            ? { receiptId: req.query.receipt_id }
            : { memberId: req.query.member_id! },
        ),
      }),
    );

    r.get(
      '/receipts/exportrecipients/:teamId/:id/:kind',
      {
        ...opts,
        schema: {
          tags,
          summary:
            'CSV of a receipt’s recipients: total, successful or failed (RecipientName, RecipientType, RecipientEmail, Status, Error, RecipientId)',
          params: z.object({
            teamId: teamIdParam,
            id: z.coerce.number().int().positive('id must be a receipt id'),
            kind: z.enum(RECIPIENT_KINDS, { error: 'kind must be total, successful or failed' }),
          }),
          produces: ['text/csv'],
        },
      },
      async (req, reply) => {
        const { teamId, id, kind } = req.params;
        return sendCsv(
          reply,
          deps.delivery.recipientsCsv(teamId, id, kind),
          `Receipt ${id} ${kind} recipients.csv`,
        );
      },
    );

    r.post(
      '/receipts/retry',
      {
        ...opts,
        schema: {
          tags,
          summary:
            "Retry: failed recipients whose error is worth another try are sent again ('Action initiated')",
          body: retryBody,
          response: { 200: retryResponse },
        },
      },
      async (req) => {
        const requeued = await deps.delivery.retry(req.body.team_id, req.body.id);
        return { message: DELIVERY_TEXTS.actionInitiated, data: { requeued } };
      },
    );
  };
}
