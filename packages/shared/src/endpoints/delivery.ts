import { z } from 'zod';
import {
  RECIPIENT_KINDS,
  adminChannelsQuery,
  adminChannelsResponse,
  directMessageBody,
  dmManyBody,
  dmRepliesResponse,
  idempotencyHeaders,
  pinBody,
  reactionBody,
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
} from '../delivery.ts';
import { defineEndpoint, teamIdParam, teamParams } from '../endpoint.ts';
import { messageResponse } from '../http.ts';

/*
 * Quick actions and Receipts (apps/server/src/modules/delivery/routes.ts): every send answers 202 at once with its
 * receipt and takes an Idempotency-Key; the image upload is multipart; the recipients' CSV is a file.
 */

const tags = ['delivery'] as const;
const receiptId = z.coerce.number().int().positive('id must be a receipt id');

export const sendMessage = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/quickaction/sendmessage',
  scope: 'act',
  tags,
  summary:
    'Send Message: to channels (channel_ids) and as DMs to members, tags, channels, the workspace or a Members filter',
  headers: idempotencyHeaders,
  body: sendMessageBody,
  response: { 202: sendResponse },
});

export const dmToMultipleUsers = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/quickaction/dmtomultipleusers',
  scope: 'act',
  tags,
  summary: 'Send DM to many members (ids or e-mails)',
  headers: idempotencyHeaders,
  body: dmManyBody,
  response: { 202: sendResponse },
});

export const directMessage = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/member/directmessage',
  scope: 'act',
  tags,
  summary: 'DM one member (member detail message button)',
  headers: idempotencyHeaders,
  body: directMessageBody,
  response: { 202: sendResponse },
});

export const sendTest = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/quickaction/sendtest',
  scope: 'act',
  tags,
  summary:
    "Send a test to me: the message as a DM to the signed-in admin's own Slack user, from the chosen sender, through the same delivery as every send",
  headers: idempotencyHeaders,
  body: testMessageBody,
  response: { 202: sendResponse },
});

export const getAdminChannels = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/delivery/adminchannels/:teamId',
  scope: 'read',
  tags,
  summary:
    "Which of these channels an admin's Slack user is not in (asked of Slack with their token): a send as them there is refused",
  params: teamParams,
  query: adminChannelsQuery,
  response: { 200: adminChannelsResponse },
});

/** /mentions/replytomention and /mentions/addreaction are the conversations module's (they mark the mention 'Seen'). */
export const replyToThread = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/quickaction/replytothread',
  scope: 'act',
  tags,
  summary: 'Reply in a thread (ts = the message replied to)',
  headers: idempotencyHeaders,
  body: replyBody,
  response: { 202: sendResponse },
});

export const pinPost = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/quickaction/pinpost',
  scope: 'act',
  tags,
  summary: 'Pin a message',
  body: pinBody,
  response: { 200: messageResponse },
});

export const unpinPost = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/quickaction/unpinpost',
  scope: 'act',
  tags,
  summary: 'Unpin a message',
  body: pinBody,
  response: { 200: messageResponse },
});

export const addReaction = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/quickaction/addreaction',
  scope: 'act',
  tags,
  summary: 'React to a message',
  body: reactionBody,
  response: { 200: messageResponse },
});

/** Multipart (image, team_id): the handler reads the fields (no body schema). */
export const uploadImage = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/quickaction/uploadimage',
  scope: 'act',
  tags,
  summary:
    "Uploads an image (multipart: image, team_id) to Slack for a later message; png or jpeg by its bytes, 5 MB; named with its type's extension; 503 with Retry-After when the server is taking its most uploads",
  consumes: ['multipart/form-data'],
  response: { 201: uploadImageResponse },
});

export const getSendBudget = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/delivery/budget/:teamId',
  scope: 'read',
  tags,
  summary:
    "The workspace's daily message budget (SEND_DAILY_BUDGET...): its size, what the last 24 hours used, what is left, and the count over which a send asks for a confirmation",
  params: teamParams,
  response: { 200: sendBudgetResponse },
});

export const getAllReceipts = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/receipts/getallreceipts/:teamId',
  scope: 'read',
  tags,
  summary: 'Receipts of the workspace, newest first, with their counts (the 1,000 newest)',
  params: teamParams,
  response: { 200: receiptsResponse },
});

export const getReceipt = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/receipts/getreceipt/:teamId/:id',
  scope: 'read',
  tags,
  summary:
    'One receipt with its counts and why its failed recipients failed (Slack error codes, most common first)',
  params: z.object({ teamId: teamIdParam, id: receiptId }),
  response: { 200: receiptResponse },
});

export const getReplies = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/receipts/getreplies/:teamId',
  scope: 'read',
  tags,
  summary:
    'What members wrote back in their DM with the bot (newest first, at most 500): the replies to one receipt (receipt_id) or one member’s (member_id)',
  params: teamParams,
  query: repliesQuery,
  response: { 200: dmRepliesResponse },
});

export const exportRecipients = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/receipts/exportrecipients/:teamId/:id/:kind',
  scope: 'read',
  tags,
  summary:
    'CSV of a receipt’s recipients: total, successful or failed (RecipientName, RecipientType, RecipientEmail, Status, Error, RecipientId)',
  params: z.object({
    teamId: teamIdParam,
    id: receiptId,
    kind: z.enum(RECIPIENT_KINDS, { error: 'kind must be total, successful or failed' }),
  }),
  produces: ['text/csv'],
});

export const retryReceipt = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/receipts/retry',
  scope: 'act',
  tags,
  summary: "Retry: failed recipients whose error is worth another try are sent again ('Action initiated')",
  body: retryBody,
  response: { 200: retryResponse },
});
