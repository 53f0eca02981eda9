import { z } from 'zod';

/**
 * The catalogue of Slack Events API payloads: one zod schema per event type Flywheel reads, used by workspace data's
 * ingest and by every module's listener (`defineEventListener` takes its schema from here by the event's type).
 * Loose: Slack adds fields freely, and only the fields named here are read; a listener checks what it needs beyond
 * them (a reaction without a user, a message that is not a DM) in its handler. Web API answers are typed with the
 * SDK's response types instead.
 */

const opt = z.string().nullish();

/** A user object (team_join, user_change; users.list answers the SDK's `Member`, which has this shape). */
export const slackUserSchema = z.looseObject({
  id: z.string(),
  name: opt,
  real_name: opt,
  profile: z
    .looseObject({ real_name: opt, display_name: opt, email: opt, image_192: opt, image_72: opt })
    .nullish(),
  is_admin: z.boolean().nullish(),
  is_owner: z.boolean().nullish(),
  is_bot: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
  tz: opt,
  updated: z.number().nullish(),
});
export type SlackUser = z.infer<typeof slackUserSchema>;

const reactionSchema = z.looseObject({ name: opt, users: z.array(z.string()).nullish() });

/** A message as events and history carry it (history answers the SDK's `MessageElement`, of this shape). */
export const slackMessageSchema = z.looseObject({
  ts: z.string(),
  user: opt,
  subtype: opt,
  thread_ts: opt,
  text: opt,
  bot_id: opt,
  reactions: z.array(reactionSchema).nullish(),
  /** Slack message metadata: Flywheel's own sends carry `flywheel_delivery`. */
  metadata: z.looseObject({ event_type: opt }).nullish(),
  /** On a `message_changed`'s inner message: when it was edited. */
  edited: z.looseObject({ ts: opt }).nullish(),
});
/** What recording a message reads (the SDK's history and replies messages fit it too). */
export type SlackMessage = {
  ts?: string | null;
  user?: string | null;
  subtype?: string | null;
  thread_ts?: string | null;
  text?: string | null;
  bot_id?: string | null;
  reactions?: { name?: string | null; users?: string[] | null }[] | null;
  metadata?: { event_type?: string | null } | null;
  /** When it was last edited (history, replies and a `message_changed`'s copy carry it). */
  edited?: { ts?: string | null } | null;
};

export const messageEventSchema = slackMessageSchema.extend({
  ts: opt,
  channel: z.string(),
  channel_type: opt,
  deleted_ts: opt,
  files: z.array(z.unknown()).nullish(),
  event_ts: opt,
  message: slackMessageSchema.nullish(),
});

export const reactionEventSchema = z.looseObject({
  user: opt,
  reaction: z.string(),
  item: z.looseObject({ type: z.string(), channel: opt, ts: opt }).nullish(),
  event_ts: opt,
});

export const userEventSchema = z.looseObject({ user: slackUserSchema, event_ts: opt });
export const channelMemberEventSchema = z.looseObject({
  user: z.string(),
  channel: z.string(),
  event_ts: opt,
});
export const channelObjectEventSchema = z.looseObject({
  channel: z.looseObject({
    id: z.string(),
    name: z.string(),
    is_private: z.boolean().nullish(),
    created: z.number().nullish(),
  }),
});
export const channelIdEventSchema = z.looseObject({
  channel: z.union([z.string(), z.looseObject({ id: z.string() })]),
});
export const tokensRevokedEventSchema = z.looseObject({
  tokens: z
    .looseObject({ oauth: z.array(z.string()).nullish(), bot: z.array(z.string()).nullish() })
    .nullish(),
});

/** pin_added / pin_removed (the `item` is the pinned message). */
export const pinEventSchema = z.looseObject({
  user: opt,
  channel_id: opt,
  item: z
    .looseObject({ type: opt, channel: opt, message: z.looseObject({ ts: z.string() }).nullish() })
    .nullish(),
  event_ts: opt,
});
export const emojiChangedEventSchema = z.looseObject({ subtype: opt });

/**
 * Each event type Flywheel reads, with its payload's schema: the one place a listener's payload is declared
 * (`defineEventListener({ type, handle })` in modules/intake/listeners.ts looks the schema up here).
 */
export const slackEventPayloads = {
  message: messageEventSchema,
  reaction_added: reactionEventSchema,
  reaction_removed: reactionEventSchema,
  team_join: userEventSchema,
  user_change: userEventSchema,
  member_joined_channel: channelMemberEventSchema,
  member_left_channel: channelMemberEventSchema,
  channel_created: channelObjectEventSchema,
  channel_rename: channelObjectEventSchema,
  group_rename: channelObjectEventSchema,
  channel_unarchive: channelIdEventSchema,
  channel_archive: channelIdEventSchema,
  channel_deleted: channelIdEventSchema,
  group_unarchive: channelIdEventSchema,
  group_archive: channelIdEventSchema,
  group_deleted: channelIdEventSchema,
  tokens_revoked: tokensRevokedEventSchema,
  app_uninstalled: z.looseObject({}),
  pin_added: pinEventSchema,
  pin_removed: pinEventSchema,
  emoji_changed: emojiChangedEventSchema,
} as const;
export type SlackEventType = keyof typeof slackEventPayloads;
export type SlackEventOf<T extends SlackEventType> = z.infer<(typeof slackEventPayloads)[T]>;

/** The envelope of an Events API delivery as stored in the inbox. */
export type SlackEnvelope = {
  type?: string;
  event_id?: string;
  team_id?: string;
  event_time?: number;
  event?: { type?: string; event_ts?: string; [field: string]: unknown };
};
