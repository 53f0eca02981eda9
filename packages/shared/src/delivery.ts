import { z } from 'zod';
import { membersFilterSchema } from './members.ts';

/*
 * Sending: who sends (Bot or an Admin), what (text in Slack mrkdwn, with images
 * uploaded to Slack first), to whom (members, tags, channels, the whole workspace, a Members filter), and the
 * receipt every send leaves (one row per recipient).
 */

const teamId = z.string({ error: 'team_id is required' }).min(1, 'team_id is required').max(32);
const slackUserId = z.string().regex(/^[UW][A-Z0-9]{2,30}$/, 'a Slack user id looks like U0123ABCD');
const channelId = (field: string) =>
  z.string().regex(/^[CGD][A-Z0-9]{2,30}$/, `${field} must be a Slack channel id like C0123ABCD`);
const slackTs = (field: string) =>
  z
    .string()
    .regex(/^\d{6,12}\.\d{1,8}$/, `${field} must be a Slack message timestamp like 1700000000.000100`);

/** A sender is stored as b or a; the API takes bot/admin or b/a. */
export const SENDERS = ['bot', 'admin'] as const;
export type Sender = (typeof SENDERS)[number];
export const senderSchema = z.preprocess(
  (v) => (v === 'b' ? 'bot' : v === 'a' ? 'admin' : v),
  z.enum(SENDERS, { error: 'Choose a Sender' }),
);

/** Validation texts. */
export const DELIVERY_TEXTS = {
  chooseSender: 'Choose a Sender',
  chooseTarget: 'Choose at least one member or channel or tag',
  chooseMember: 'Please select atleast one member',
  emptyMessage: 'The message cannot be empty!',
  emptyReply: 'Please enter some text!',
  invalidCharacters: 'INVALID CHARACTER(S) FOUND. PLEASE TRY AGAIN!',
  tooManyImages: 'Only 10 files can be sent at a time!',
  imageType: 'Only jpg/jpeg/png images are supported!',
  imageSize: 'Image size should be less than 5MB!',
  actionInitiated: 'Action initiated',
} as const;

export const MAX_IMAGES = 10;
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg'] as const;
/** Slack refuses longer texts (msg_too_long). */
export const MAX_MESSAGE_CHARS = 40_000;

/** Control characters other than tab, newline and carriage return, and lone surrogates, cannot go to Slack. */
export function hasInvalidCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0x7f) return true;
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true;
      i++;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

const messageText = (emptyText: string) =>
  z
    .string({ error: emptyText })
    .max(MAX_MESSAGE_CHARS, `The message is too long (${MAX_MESSAGE_CHARS} characters at most)`)
    .refine((t) => t.trim().length > 0, emptyText)
    .refine((t) => !hasInvalidCharacters(t), DELIVERY_TEXTS.invalidCharacters);

/** Images are uploaded first (POST /quickaction/uploadimage) and named by the Slack file id it returns. */
export const imagesSchema = z
  .array(
    z.string().regex(/^F[A-Z0-9]{2,30}$/, 'images must be file ids returned by /quickaction/uploadimage'),
  )
  .max(MAX_IMAGES, DELIVERY_TEXTS.tooManyImages)
  .default([]);

const senderFields = {
  team_id: teamId,
  sender: senderSchema,
  /** The Slack user id of the admin who sends (sender admin); null or absent for the bot. */
  admin_user: slackUserId.nullish(),
};

/** Member ids, or e-mail-like entries matched to members. */
const memberEntries = z.array(z.string().trim().min(1).max(254)).max(50_000);

/**
 * Whom a send reaches (the product's automation/schedule shape): messages posted in `channel_ids`; a DM to each
 * member of `dms.members`, `dms.tags`, `dms.channels`, of the whole workspace (`sendtoworkspace`) and of a
 * Members filter (`filter`). Members are counted once, bots and deactivated members are left out.
 */
export const audienceSchema = z.object({
  channel_ids: z.array(channelId('channel_ids')).max(1000).default([]),
  dms: z
    .object({
      members: memberEntries.default([]),
      tags: z.array(z.coerce.number().int().positive('tags must be tag ids')).max(200).default([]),
      channels: z.array(channelId('dms.channels')).max(1000).default([]),
    })
    .default({ members: [], tags: [], channels: [] }),
  sendtoworkspace: z.boolean().default(false),
  /** Buckets (saved segments): a DM to each member of their last runs. */
  buckets: z
    .array(z.coerce.number().int().positive('buckets must be bucket ids'))
    .max(100, 'buckets: at most 100 buckets')
    .optional(),
  /** The Members screen's filters (without team_id, paging or sort): DM everything filtered. */
  filter: membersFilterSchema
    .omit({ team_id: true, sort: true, search: true })
    .extend({
      search: z.string().max(200).optional(),
      member_ids: z.array(z.string()).max(50_000).optional(),
    })
    .nullish(),
});
export type Audience = z.input<typeof audienceSchema>;
export type ResolvedAudienceInput = z.output<typeof audienceSchema>;

/** Whether an audience names anyone (channels, members, tags, channels' members, the workspace or a filter). */
export const hasTarget = (a: z.output<typeof audienceSchema>) =>
  a.channel_ids.length > 0 ||
  a.dms.members.length > 0 ||
  a.dms.tags.length > 0 ||
  a.dms.channels.length > 0 ||
  a.sendtoworkspace ||
  (a.buckets?.length ?? 0) > 0 ||
  !!a.filter;

/**
 * The count a person confirms for a send to the whole workspace, a Members filter or more recipients than the
 * server's threshold (SEND_CONFIRM_OVER): without it (or with another count) the API answers 409 with the count.
 */
export const confirmRecipientsSchema = z
  .number({ error: 'confirm_recipients must be the number of recipients you confirm' })
  .int('confirm_recipients must be a whole number')
  .min(0, 'confirm_recipients must be the number of recipients you confirm')
  .max(10_000_000, 'confirm_recipients must be the number of recipients you confirm')
  .optional();

/** The header every send and every creation of a future send takes: one key per person's submit. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** What a key may be: 1-200 visible ASCII characters (a UUID is a good one). */
export const idempotencyKeySchema = z
  .string()
  .min(1, 'Idempotency-Key must be 1 to 200 visible ASCII characters (a UUID is a good one)')
  .max(200, 'Idempotency-Key must be 1 to 200 visible ASCII characters (a UUID is a good one)')
  .regex(
    /^[\x21-\x7e]+$/,
    'Idempotency-Key must be 1 to 200 visible ASCII characters (a UUID is a good one)',
  );
/** The request headers of a route that takes an Idempotency-Key (other headers pass through). */
export const idempotencyHeaders = z.looseObject({ 'idempotency-key': idempotencyKeySchema.optional() });

/** '493 members', '1 channel', '490 members and 3 channels'. */
export function recipientsLabel(r: { members: number; channels: number }): string {
  const part = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;
  if (r.channels === 0) return part(r.members, 'member');
  if (r.members === 0) return part(r.channels, 'channel');
  return `${part(r.members, 'member')} and ${part(r.channels, 'channel')}`;
}

/** The daily budget of a workspace's messages (each DM and each channel post is one), over the last 24 hours. */
export const sendBudgetSchema = z.object({
  /** False when the server runs without a budget (SEND_DAILY_BUDGET=0). */
  limited: z.boolean(),
  /** Messages a workspace may queue in any 24 hours (null when not limited). */
  budget: z.number().int().nullable(),
  /** Messages queued in the last 24 hours. */
  used: z.number().int(),
  /** What is left now (null when not limited). */
  remaining: z.number().int().nullable(),
  window_hours: z.number().int(),
  /** Sends to more recipients than this (or to the whole workspace or a Members filter) ask for a confirmation. */
  confirm_over: z.number().int(),
});
export type SendBudget = z.infer<typeof sendBudgetSchema>;
export const sendBudgetResponse = z.object({ data: sendBudgetSchema });

const adminNeedsUser = (v: { sender: Sender; admin_user?: string | null }) =>
  v.sender !== 'admin' || !!v.admin_user;
const adminNeedsUserIssue = { message: 'Choose which admin sends (admin_user)', path: ['admin_user'] };

/** POST /quickaction/sendmessage (Members screen Send Message, Send Message popup). */
export const sendMessageBody = z
  .object({
    ...senderFields,
    message: messageText(DELIVERY_TEXTS.emptyMessage),
    htmlmessage: z.string().max(200_000).optional(),
    images: imagesSchema,
    confirm_recipients: confirmRecipientsSchema,
  })
  .extend(audienceSchema.shape)
  .refine(adminNeedsUser, adminNeedsUserIssue)
  .refine(hasTarget, { message: DELIVERY_TEXTS.chooseTarget, path: ['dms'] });
export type SendMessageRequest = z.input<typeof sendMessageBody>;

/** POST /quickaction/dmtomultipleusers (Send-DM popup): spec "Direct message: id or users, text, …". */
export const dmManyBody = z
  .object({
    ...senderFields,
    users: memberEntries.min(1, DELIVERY_TEXTS.chooseMember),
    text: messageText(DELIVERY_TEXTS.emptyMessage),
    htmlmessage: z.string().max(200_000).optional(),
    images: imagesSchema,
    confirm_recipients: confirmRecipientsSchema,
  })
  .refine(adminNeedsUser, adminNeedsUserIssue);
export type DmManyRequest = z.input<typeof dmManyBody>;

/** POST /member/directmessage (member detail message button). */
export const directMessageBody = z
  .object({
    ...senderFields,
    id: z.string({ error: DELIVERY_TEXTS.chooseMember }).min(1, DELIVERY_TEXTS.chooseMember).max(254),
    text: messageText(DELIVERY_TEXTS.emptyMessage),
    htmlmessage: z.string().max(200_000).optional(),
    images: imagesSchema,
  })
  .refine(adminNeedsUser, adminNeedsUserIssue);
export type DirectMessageRequest = z.input<typeof directMessageBody>;

/** POST /quickaction/replytothread and /mentions/replytomention: spec "Reply payload". */
export const replyBody = z
  .object({
    ...senderFields,
    text: messageText(DELIVERY_TEXTS.emptyReply),
    ts: slackTs('ts'),
    channel_id: channelId('channel_id'),
    images: imagesSchema,
    mention_id: z.string().max(64).nullish(),
  })
  .refine(adminNeedsUser, adminNeedsUserIssue);
export type ReplyRequest = z.input<typeof replyBody>;

/** POST /quickaction/pinpost and /quickaction/unpinpost. */
export const pinBody = z.object({ team_id: teamId, channel_id: channelId('channel_id'), ts: slackTs('ts') });
export type PinRequest = z.input<typeof pinBody>;

/** Emoji names as Slack writes them (no colons): letters, digits, _ + - and ' (skin tones with ::). */
const emojiName = z
  .string({ error: 'name (the emoji) is required' })
  .transform((s) => s.trim().replace(/^:|:$/g, ''))
  .pipe(z.string().regex(/^[a-z0-9_+'-]+(::skin-tone-[2-6])?$/, 'name must be an emoji name like thumbsup'));

/** POST /quickaction/addreaction and /mentions/addreaction: spec "Reaction payload". */
export const reactionBody = z
  .object({
    ...senderFields,
    sender: senderSchema.default('bot'),
    channel_id: channelId('channel_id'),
    ts: slackTs('ts'),
    name: emojiName,
    mention_id: z.string().max(64).nullish(),
  })
  .refine(adminNeedsUser, adminNeedsUserIssue);
export type ReactionRequest = z.input<typeof reactionBody>;

/** POST /quickaction/sendtest: the message as a DM to the signed-in admin's own Slack user, before the real send. */
export const testMessageBody = z
  .object({
    ...senderFields,
    text: messageText(DELIVERY_TEXTS.emptyMessage),
    htmlmessage: z.string().max(200_000).optional(),
    images: imagesSchema,
  })
  .refine(adminNeedsUser, adminNeedsUserIssue);
export type TestMessageRequest = z.input<typeof testMessageBody>;

/**
 * GET /delivery/adminchannels/:teamId?admin_user=U…&channel_ids=C1,C2: which of these channels the admin's
 * Slack user is not in (Slack refuses a post as them there), asked before a send as that admin.
 */
export const adminChannelsQuery = z.object({
  admin_user: slackUserId,
  channel_ids: z
    .string({ error: 'channel_ids: name one channel id or more, separated by commas' })
    .transform((s) =>
      s
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean),
    )
    .pipe(
      z
        .array(channelId('channel_ids'))
        .min(1, 'channel_ids: name one channel id or more, separated by commas')
        .max(1000, 'channel_ids: at most 1000 channels'),
    ),
});
export const adminChannelsSchema = z.object({
  /** The admin's name as Slack shows it. */
  admin: z.string(),
  /** The channels they are not in (empty: a send as them may go). */
  channels: z.array(z.object({ channel_id: z.string(), name: z.string() })),
});
export type AdminChannels = z.infer<typeof adminChannelsSchema>;
export const adminChannelsResponse = z.object({ data: adminChannelsSchema });

/** Every send answers at once with its receipt; the Receipts page follows it. */
export const sendResponse = z.object({
  message: z.string(),
  data: z.object({
    receipt_id: z.number().int(),
    total: z.number().int(),
    /** Messages the workspace's daily budget has left after this send (null: no budget). */
    budget_remaining: z.number().int().nullable().optional(),
  }),
});
export type SendResponse = z.infer<typeof sendResponse>;

export const uploadImageResponse = z.object({
  message: z.string(),
  data: z.object({ file_id: z.string(), url: z.string(), name: z.string() }),
});
export type UploadImageResponse = z.infer<typeof uploadImageResponse>;

export const ACTION_TYPES = [
  'Send Message',
  'Direct Message',
  'Bulk DM',
  'Thread Reply',
  'Automation',
  'Scheduled Message',
  'Form',
  'Poll',
  'Workflow',
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** Receipt (recipient id lists are CSV downloads: a receipt may have 50,000 recipients). */
export const receiptSchema = z.object({
  id: z.number().int(),
  action_type: z.string(),
  description: z.string(),
  sender: z.enum(SENDERS),
  created_at: z.string(),
  total_recipient_count: z.number().int(),
  successful_recipient_count: z.number().int(),
  failed_recipient_count: z.number().int(),
  /** Failed recipients whose error is worth trying again (rate limits, Slack outages). */
  retryable_recipient_count: z.number().int(),
  /** Why nothing was sent (a scheduled or workflow send over the daily budget), else null. */
  error: z.string().nullable().default(null),
  /** What members wrote back in their DM with the bot, answering this send (deleted replies not counted). */
  reply_count: z.number().int().default(0),
});
export type Receipt = z.infer<typeof receiptSchema>;
export const receiptsResponse = z.object({ data: z.array(receiptSchema) });

/** GET /receipts/getreceipt/:teamId/:id: one receipt and why its failed recipients failed (Slack's codes). */
export const receiptDetailSchema = receiptSchema.extend({
  failures: z.array(z.object({ error: z.string(), count: z.number().int() })),
});
export type ReceiptDetail = z.infer<typeof receiptDetailSchema>;
export const receiptResponse = z.object({ data: receiptDetailSchema });

/** A member's reply in their DM with the bot (Events API message.im), with the send it answers (if any). */
export const dmReplySchema = z.object({
  id: z.number().int(),
  receipt_id: z.number().int().nullable(),
  receipt_description: z.string().nullable(),
  action_type: z.string().nullable(),
  member_id: z.string(),
  member_name: z.string(),
  text: z.string(),
  /** Files attached (they stay in Slack). */
  files: z.number().int(),
  ts: z.string(),
  channel_id: z.string(),
  /** Written in the thread of the message it answers (else after it in the DM). */
  in_thread: z.boolean(),
  sent_at: z.string(),
  edited: z.boolean(),
});
export type DmReply = z.infer<typeof dmReplySchema>;
export const dmRepliesResponse = z.object({ data: z.array(dmReplySchema) });
/** At most this many replies per call (newest first). */
export const MAX_REPLIES = 500;
/** GET /receipts/getreplies/:teamId: one receipt's replies or one member's; exactly one of the two. */
export const repliesQuery = z
  .object({
    receipt_id: z.coerce.number().int().positive('receipt_id must be a receipt id').optional(),
    member_id: slackUserId.optional(),
  })
  .superRefine((q, ctx) => {
    if ((q.receipt_id === undefined) === (q.member_id === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['receipt_id'],
        message: 'Name either receipt_id or member_id (one of the two)',
      });
  });

/** Why a recipient failed, in words (Slack's error codes and the engine's own), for toasts and tooltips. */
const FAILURE_TEXTS: Record<string, string> = {
  not_in_channel: 'the sender is not a member of the channel',
  channel_not_found: 'Slack did not find the channel (or the sender cannot see it)',
  is_archived: 'the channel is archived',
  user_deactivated: 'the member is deactivated',
  user_not_found: 'Slack did not find the member',
  cannot_dm_bot: 'a bot cannot get a DM',
  admin_not_authorized: 'the admin has not authorized Flywheel to send as them',
  workspace_disconnected: 'the workspace is disconnected from Slack',
  restricted_action: 'the workspace does not allow the sender to post there',
  msg_too_long: 'the message is too long for Slack',
  invalid_blocks: 'Slack could not show the message (its images or layout)',
  ratelimited: 'Slack kept rate-limiting the sends',
  token_revoked: "the sender's access to Slack was revoked",
  invalid_auth: "the sender's access to Slack is no longer valid",
  account_inactive: "the sender's Slack account is deactivated",
};
export function failureText(code: string): string {
  const base = code.replace(/^unconfirmed:/, '');
  return FAILURE_TEXTS[base] ?? `Slack answered ${base}`;
}

/** 'Processed' when every recipient is done, else 'N% Processed' (whole number). */
export function receiptStatus(
  r: Pick<Receipt, 'total_recipient_count' | 'successful_recipient_count' | 'failed_recipient_count'>,
): string {
  const done = r.successful_recipient_count + r.failed_recipient_count;
  if (done >= r.total_recipient_count) return 'Processed';
  return `${Math.floor((done / Math.max(1, r.total_recipient_count)) * 100)}% Processed`;
}

export const RECIPIENT_KINDS = ['total', 'successful', 'failed'] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];
/**
 * The recipients CSV: the product's columns (RecipientName, RecipientType, RecipientEmail) in their places, then Status,
 * Error and the Slack id (member or channel) to match rows on while people read names.
 */
export const RECEIPT_CSV_COLUMNS = [
  'RecipientName',
  'RecipientType',
  'RecipientEmail',
  'Status',
  'Error',
  'RecipientId',
] as const;

export const retryBody = z.object({
  team_id: teamId,
  id: z.coerce.number().int().positive('id must be a receipt id'),
});
export const retryResponse = z.object({
  message: z.string(),
  data: z.object({ requeued: z.number().int() }),
});
