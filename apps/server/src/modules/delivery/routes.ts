import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DELIVERY_TEXTS, MAX_IMAGE_BYTES, type ActionType, type Sender } from '@flywheel/shared/delivery';
import {
  addReaction,
  directMessage,
  dmToMultipleUsers,
  exportRecipients,
  getAdminChannels,
  getAllReceipts,
  getReceipt,
  getReplies,
  getSendBudget,
  pinPost,
  replyToThread,
  retryReceipt,
  sendMessage,
  sendTest,
  unpinPost,
  uploadImage,
} from '@flywheel/shared/endpoints/delivery';
import { sendCsv } from '../../lib/csv-reply.ts';
import { AppError } from '../../lib/errors.ts';
import { currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import type { WorkspaceGuard } from '../../plugins/workspace-guard.ts';
import { answerOnce, receiptKeyOf, type IdempotencyService } from './idempotency.ts';
import type { DeliveryService, SendRequest } from './service.ts';
import { isStoredImage, type ImageUploads, type StoredImage } from './uploads.ts';

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
    const route = endpointRoutes(app, { guard: deps.guard });
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

    route(sendMessage, async (req, reply) =>
      sendFor(
        req,
        reply,
        req.body,
        req.body.channel_ids.length === 0 ? 'Bulk DM' : 'Send Message',
        req.body.message,
        req.body,
      ),
    );

    route(dmToMultipleUsers, async (req, reply) =>
      sendFor(req, reply, req.body, 'Bulk DM', req.body.text, {
        ...noAudience,
        dms: { members: req.body.users, tags: [], channels: [] },
      }),
    );

    route(directMessage, async (req, reply) =>
      sendFor(req, reply, req.body, 'Direct Message', req.body.text, {
        ...noAudience,
        dms: { members: [req.body.id], tags: [], channels: [] },
      }),
    );

    route(sendTest, async (req, reply) => {
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
    });

    route(getAdminChannels, async (req) => ({
      data: await deps.delivery.adminChannels(req.params.teamId, req.query.admin_user, req.query.channel_ids),
    }));

    // /mentions/replytomention and /mentions/addreaction live in conversations (they also mark the mention 'Seen').
    route(replyToThread, async (req, reply) => {
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
    });

    for (const [contract, on] of [
      [pinPost, true],
      [unpinPost, false],
    ] as const) {
      route(contract, async (req) => ({
        message: await deps.delivery.pin(req.body.team_id, req.body.channel_id, req.body.ts, on),
      }));
    }

    route(addReaction, async (req) => {
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
    });

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
      endpointRoutes(upload, { guard: deps.guard })(
        uploadImage,
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
        // The token first (401), then a slot (503 with Retry-After when the process is taking its most).
        { onRequest: uploads.admit },
      );
    });

    route(getSendBudget, async (req) => ({ data: await deps.delivery.budget(req.params.teamId) }));

    route(getAllReceipts, async (req) => ({ data: await deps.delivery.receipts(req.params.teamId) }));

    route(getReceipt, async (req) => ({
      data: await deps.delivery.receipt(req.params.teamId, req.params.id),
    }));

    route(getReplies, async (req) => ({
      data: await deps.delivery.replies(
        req.params.teamId,
        req.query.receipt_id !== undefined
          ? { receiptId: req.query.receipt_id }
          : { memberId: req.query.member_id! },
      ),
    }));

    route(exportRecipients, async (req, reply) => {
      const { teamId, id, kind } = req.params;
      return sendCsv(
        reply,
        deps.delivery.recipientsCsv(teamId, id, kind),
        `Receipt ${id} ${kind} recipients.csv`,
      );
    });

    route(retryReceipt, async (req) => {
      const requeued = await deps.delivery.retry(req.body.team_id, req.body.id);
      return { message: DELIVERY_TEXTS.actionInitiated, data: { requeued } };
    });
  };
}
