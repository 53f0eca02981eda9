import { z } from 'zod';
import { DAY_CODES, FREQUENCIES } from './clock.ts';
import {
  confirmRecipientsSchema,
  DELIVERY_TEXTS,
  hasInvalidCharacters,
  imagesSchema,
  MAX_MESSAGE_CHARS,
  senderSchema,
} from './delivery.ts';
import { MAX_ROW_ID } from './input.ts';

/*
 * Automations (Member Join triggers) and schedules. The sender is stored as b or a.
 */

export const ACTION_TEXTS = {
  automationTarget: 'Select at least one member and/or channel and/or tag and/or DM the new user',
  scheduleTarget: 'Select at least one member and/or channel and/or tag',
  emptyMessage: DELIVERY_TEXTS.emptyMessage,
  noFieldEmpty: 'No field Can be empty',
  pastTime: "Scheduled time can't be less than current time.",
  invalidDateTime: 'Invalid date and time',
  invalidRange: 'Invalid date and time range',
  chooseTriggerName: 'Choose a Trigger name',
  scheduleDate: 'Select schedule date of message',
  scheduleTime: 'Select schedule time of message',
  bulkDmEdit: 'Edit option is not availble for bulk DM',
} as const;

const teamId = z.string({ error: 'team_id is required' }).min(1, 'team_id is required').max(32);
const channelIds = (field: string) =>
  z
    .array(z.string().regex(/^[CG][A-Z0-9]{2,30}$/, `${field} must be Slack channel ids`))
    .max(1000)
    .default([]);
const message = z
  .string({ error: ACTION_TEXTS.emptyMessage })
  .max(MAX_MESSAGE_CHARS, `The message is too long (${MAX_MESSAGE_CHARS} characters at most)`)
  .refine((t) => t.trim().length > 0, ACTION_TEXTS.emptyMessage)
  .refine((t) => !hasInvalidCharacters(t), DELIVERY_TEXTS.invalidCharacters);

const dms = z
  .object({
    members: z.array(z.string().trim().min(1).max(254)).max(50_000).default([]),
    tags: z.array(z.coerce.number().int().positive('dms.tags must be tag ids')).max(200).default([]),
    channels: channelIds('dms.channels'),
  })
  .default({ members: [], tags: [], channels: [] });

const common = {
  team_id: teamId,
  trigger_name: z
    .string({ error: ACTION_TEXTS.chooseTriggerName })
    .trim()
    .min(1, ACTION_TEXTS.chooseTriggerName)
    .max(120, 'The name is too long (120 characters at most)'),
  message_sender: senderSchema,
  admin_user: z
    .string()
    .regex(/^[UW][A-Z0-9]{2,30}$/)
    .nullish(),
  message,
  htmlmessage: z.string().max(200_000).optional(),
  images: imagesSchema,
  channel_ids: channelIds('channel_ids'),
  dms,
  sendtoworkspace: z.boolean().default(false),
  /** The recipients a run reaches now, confirmed (the whole workspace, or more than SEND_CONFIRM_OVER). */
  confirm_recipients: confirmRecipientsSchema,
};
const adminNeedsUser = (v: { message_sender: 'bot' | 'admin'; admin_user?: string | null }) =>
  v.message_sender !== 'admin' || !!v.admin_user;
const adminIssue = { message: 'Choose which admin sends (admin_user)', path: ['admin_user'] };
const targets = (v: { channel_ids: string[]; dms: z.output<typeof dms>; sendtoworkspace: boolean }) =>
  v.channel_ids.length + v.dms.members.length + v.dms.tags.length + v.dms.channels.length > 0 ||
  v.sendtoworkspace;

/** POST /actions/createautomation. Trigger: Member Join only. */
export const createAutomationBody = z
  .object({
    ...common,
    trigger_name: common.trigger_name.default('Member Join'),
    send_dm: z.boolean().default(false),
  })
  .refine(adminNeedsUser, adminIssue)
  .refine((v) => v.send_dm || targets(v), { message: ACTION_TEXTS.automationTarget, path: ['dms'] });
export type CreateAutomationRequest = z.input<typeof createAutomationBody>;

/** POST /actions/createscheduled. */
export const createScheduledBody = z
  .object({
    ...common,
    frequency: z.enum(FREQUENCIES, { error: ACTION_TEXTS.noFieldEmpty }),
    /** Weekly: day codes. */
    days: z
      .array(z.enum(DAY_CODES, { error: `days must be among ${DAY_CODES.join(', ')}` }))
      .max(7)
      .default([]),
    /** Every Day and Weekly: HH:MM in the workspace's timezone. */
    time: z.string().optional(),
    /** One Time: date DD/MM/YYYY and time HH:MM in the workspace's timezone. */
    post_at: z.object({ date: z.string().optional(), time: z.string().optional() }).optional(),
  })
  .refine(adminNeedsUser, adminIssue)
  .refine(targets, { message: ACTION_TEXTS.scheduleTarget, path: ['dms'] })
  .superRefine((v, ctx) => {
    if (v.frequency === 'Weekly' && v.days.length === 0)
      ctx.addIssue({ code: 'custom', message: ACTION_TEXTS.noFieldEmpty, path: ['days'] });
    if (v.frequency === 'onetime') {
      if (!v.post_at?.date)
        ctx.addIssue({ code: 'custom', message: ACTION_TEXTS.scheduleDate, path: ['post_at', 'date'] });
      if (!v.post_at?.time)
        ctx.addIssue({ code: 'custom', message: ACTION_TEXTS.scheduleTime, path: ['post_at', 'time'] });
    } else if (!v.time) ctx.addIssue({ code: 'custom', message: ACTION_TEXTS.scheduleTime, path: ['time'] });
  });
export type CreateScheduledRequest = z.input<typeof createScheduledBody>;

const ACTION_ID_MESSAGE = 'id must be an automation or schedule id';
/** An automation's or schedule's id: a whole number the database's integer holds. */
export const actionId = z.coerce
  .number({ error: ACTION_ID_MESSAGE })
  .int(ACTION_ID_MESSAGE)
  .positive(ACTION_ID_MESSAGE)
  .max(MAX_ROW_ID, ACTION_ID_MESSAGE);

/** PATCH /actions/updateactions {team_id, id, user_ids, channel_ids, message, htmlmessage}. */
export const updateActionBody = z.object({
  team_id: teamId,
  id: actionId,
  user_ids: z.array(z.string().trim().min(1).max(254)).max(50_000).optional(),
  channel_ids: z
    .array(z.string().regex(/^[CG][A-Z0-9]{2,30}$/, 'channel_ids must be Slack channel ids'))
    .max(1000)
    .optional(),
  message: message.optional(),
  htmlmessage: z.string().max(200_000).optional(),
});
export type UpdateActionRequest = z.input<typeof updateActionBody>;

/** A row of the Automate or Schedule table. */
export const actionRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['automation', 'schedule']),
  trigger_name: z.string(),
  message_sender: z.enum(['b', 'a']),
  sender_label: z.string(),
  admin_user: z.string().nullable(),
  message: z.string(),
  htmlmessage: z.string(),
  images: z.array(z.string()),
  channel_ids: z.array(z.string()),
  channels: z.array(z.string()),
  user_ids: z.array(z.string()),
  users: z.array(z.string()),
  dms: z.object({ members: z.array(z.string()), tags: z.array(z.number()), channels: z.array(z.string()) }),
  sendtoworkspace: z.boolean(),
  send_dm: z.boolean(),
  /** DMs to tags, channels' members or the workspace: not editable (spec tooltip). */
  bulkdm: z.boolean(),
  frequency: z.enum(FREQUENCIES).nullable(),
  days: z.array(z.enum(DAY_CODES)),
  time: z.string().nullable(),
  /** One Time: date DD/MM/YYYY; else the days. */
  days_date: z.string(),
  timezone: z.string(),
  next_run: z.string().nullable(),
  last_run: z.string().nullable(),
  active: z.boolean(),
});
export type ActionRow = z.infer<typeof actionRowSchema>;
export const actionsListResponse = z.object({ data: z.array(actionRowSchema) });
export const actionResponse = z.object({ message: z.string(), data: actionRowSchema });
