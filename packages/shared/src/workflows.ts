import { z } from 'zod';
import { ENGAGEMENT_LEVELS } from './levels.ts';
import {
  DELIVERY_TEXTS,
  hasInvalidCharacters,
  imagesSchema,
  MAX_MESSAGE_CHARS,
  senderSchema,
} from './delivery.ts';
import { cutText } from './text.ts';
import { FORM_LIMITS, FORM_TEXTS, formQuestionSchema } from './forms.ts';

/*
 * Workflows. A workflow is a trigger followed by up to
 * ten tasks (a message or a form), each sent a delay after the previous step. Each member the trigger fires for
 * (or, for a time trigger, its audience once) runs the chain on its own.
 */

export const TRIGGER_TYPES = [
  'time',
  'activity',
  'inactivity',
  'workspace_join',
  'channel_join',
  'level_change',
] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

/** The list's Type column and the details modal's trigger card. */
export const TRIGGER_LABELS: Record<TriggerType, string> = {
  time: 'Time Trigger',
  activity: 'Member Activity',
  inactivity: 'Member Inactivity',
  workspace_join: 'Workspace Join',
  channel_join: 'Channel Join',
  level_change: 'Member Level',
};

export const DELAY_UNITS = ['minutes', 'hours', 'days'] as const;
export type DelayUnit = (typeof DELAY_UNITS)[number];

/** A workflow's limits. */
export const WORKFLOW_LIMITS = {
  /** Cards on the create page: the trigger and up to ten delays and actions (index 10 forced last). */
  cards: 11,
  /** Titles in the details modal: over 75 characters cut to 72 plus '...'. */
  titleCut: 75,
  titleKeep: 72,
  /** Delay maximum per unit, and the unit in seconds. */
  delayMax: { minutes: 43_200, hours: 720, days: 30 } as Record<DelayUnit, number>,
  delaySeconds: { minutes: 60, hours: 3_600, days: 86_400 } as Record<DelayUnit, number>,
  /** Member activity / inactivity: the time range in days. */
  activityDaysMin: 0,
  activityDaysMax: 365,
  /** A time trigger lies 15 minutes to 30 days ahead. */
  minLeadMs: 15 * 60_000,
  maxLeadMs: 30 * 86_400_000,
  name: 80,
  messageTitle: 150,
} as const;

/**
 * The texts, and where a rule has none of its own, this
 * product's own words for each rule, shown under the field and returned by the API as the 400's message.
 */
export const WORKFLOW_TEXTS = {
  title: 'Workflows',
  createButton: 'Create New WorkFlow',
  empty: 'No workflows found!',
  detailsTitle: 'Workflow Details',
  createTitle: 'Create Your WorkFlow',
  initializeCard: 'Initialize the workflow',
  initializeDialog: 'Initialize the Workflow',
  delayDialog: 'Set Delay',
  actionDialog: 'Create an Action',
  noData: 'No Data found!',
  created: 'Workflow created successfully!',
  started: 'Workflow started successfully!',
  stopped: 'Workflow stopped successfully!',
  deleted: 'Workflow deleted successfully',
  cannotStopTime: 'Cannot stop time trigger, Please delete instead!',
  formCsvTitle: 'Form details',
  // Trigger.
  nameEmpty: "Workflow name can't be empty",
  nameTooLong: `Workflow name can be at most ${WORKFLOW_LIMITS.name} characters`,
  chooseSender: DELIVERY_TEXTS.chooseSender,
  chooseAdmin: 'Choose the admin who sends',
  chooseType: 'Choose a trigger type',
  chooseLevel: 'Choose the level that fires the trigger',
  noNewcomerTrigger: 'Members are Newcomers from the day they join: use the Workspace Join trigger',
  chooseChannel: 'Choose the channel to watch',
  chooseActivity: 'Choose active or inactive',
  daysEmpty: 'Enter the time range in days',
  daysRange: 'The time range must be 0 to 365 days',
  dateMissing: 'Select the trigger date',
  timeMissing: 'Select the trigger time',
  invalidDateTime: 'Invalid date and time',
  invalidRange: 'Invalid date and time range',
  // Delay.
  chooseDelayType: 'Choose No Delay or Delay',
  chooseDelayUnit: 'Choose minutes, hours or days',
  delayPositive: 'The delay must be more than 0',
  delayMax: (unit: DelayUnit) => `The delay can be at most ${WORKFLOW_LIMITS.delayMax[unit]} ${unit}`,
  // Action.
  chooseActionType: 'Choose Send Message or Send Form',
  chooseRecipient: 'Choose at least one recipient',
  messageTitleEmpty: "Message title can't be empty",
  messageTitleTooLong: `Message title can be at most ${WORKFLOW_LIMITS.messageTitle} characters`,
  messageEmpty: DELIVERY_TEXTS.emptyMessage,
  formTitleEmpty: FORM_TEXTS.nameEmpty,
  formDescriptionEmpty: FORM_TEXTS.descriptionEmpty,
  questionEmpty: FORM_TEXTS.questionEmpty,
  optionEmpty: FORM_TEXTS.optionEmpty,
  noQuestions: FORM_TEXTS.noQuestions,
  unknownTriggerAudience: 'Recipients from the trigger must be among its tags and segments',
  criteriaNotForTime: 'A time trigger has no members in criteria: choose its tags or segments instead',
  noTasks: 'Add at least one action after the trigger',
  tooManyTasks: 'A workflow holds at most ten steps after the trigger',
} as const;

const teamId = z.string({ error: 'team_id is required' }).min(1, 'team_id is required').max(32);
const channelId = (field: string) =>
  z.string().regex(/^[CG][A-Z0-9]{2,30}$/, `${field} must be Slack channel ids`);
const memberEntries = z.array(z.string().trim().min(1).max(254)).max(50_000).default([]);
const tagIds = (field: string) =>
  z
    .array(z.coerce.number().int().positive(`${field} must be ids`).max(2_147_483_647))
    .max(200)
    .default([]);
const text = (empty: string, max: number, tooLong: string) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(max, tooLong)
    .refine((t) => !hasInvalidCharacters(t), DELIVERY_TEXTS.invalidCharacters);

/**
 * A task's delay after the previous step: null (or absent) is 'No Delay'. `delay_in_secs` is the duration in
 * seconds; it must be a whole number of `delay_unit`, above 0 and at most the unit's maximum.
 */
export const delaySchema = z
  .object({
    delay_unit: z.enum(DELAY_UNITS, { error: WORKFLOW_TEXTS.chooseDelayUnit }),
    delay_in_secs: z.coerce.number({ error: WORKFLOW_TEXTS.delayPositive }).int(WORKFLOW_TEXTS.delayPositive),
  })
  .superRefine((d, ctx) => {
    const per = WORKFLOW_LIMITS.delaySeconds[d.delay_unit];
    if (d.delay_in_secs <= 0)
      ctx.addIssue({ code: 'custom', message: WORKFLOW_TEXTS.delayPositive, path: ['delay_in_secs'] });
    else if (d.delay_in_secs > WORKFLOW_LIMITS.delayMax[d.delay_unit] * per)
      ctx.addIssue({
        code: 'custom',
        message: WORKFLOW_TEXTS.delayMax(d.delay_unit),
        path: ['delay_in_secs'],
      });
    else if (d.delay_in_secs % per !== 0)
      ctx.addIssue({
        code: 'custom',
        message: `delay_in_secs must be a whole number of ${d.delay_unit}`,
        path: ['delay_in_secs'],
      });
  })
  .nullish()
  .transform((d) => d ?? null);
export type WorkflowDelay = z.output<typeof delaySchema>;

/** Who a task reaches, besides its own channels and DMs. */
const recipientFields = {
  /** Posted in these channels. */
  channels: z.array(channelId('channels')).max(1000).default([]),
  /** A DM to these members (ids or e-mails), tags' members and channels' members. */
  dms: z
    .object({
      members: memberEntries,
      tags: tagIds('dms.tags'),
      channels: z.array(channelId('dms.channels')).max(1000).default([]),
    })
    .default({ members: [], tags: [], channels: [] }),
  /** 'Users in criteria': a DM to the member the trigger fired for (not for time triggers). */
  sendToSelectedUsers: z.boolean().default(false),
  /** A DM to every member of the workspace. */
  sendToWorkspace: z.boolean().default(false),
  /** A time trigger's tags and segments (buckets) this task DMs: a subset of the trigger's. */
  triggerTags: tagIds('triggerTags'),
  triggerSegments: tagIds('triggerSegments'),
};

const hasRecipient = (t: {
  channels: string[];
  dms: { members: string[]; tags: number[]; channels: string[] };
  sendToSelectedUsers: boolean;
  sendToWorkspace: boolean;
  triggerTags: number[];
  triggerSegments: number[];
}) =>
  t.channels.length +
    t.dms.members.length +
    t.dms.tags.length +
    t.dms.channels.length +
    t.triggerTags.length +
    t.triggerSegments.length >
    0 ||
  t.sendToSelectedUsers ||
  t.sendToWorkspace;

export const messageTaskSchema = z.object({
  type: z.literal('message'),
  /** The client's id for the card (kept, not used by the server). */
  id: z.union([z.string(), z.number()]).optional(),
  msgTitle: text(
    WORKFLOW_TEXTS.messageTitleEmpty,
    WORKFLOW_LIMITS.messageTitle,
    WORKFLOW_TEXTS.messageTitleTooLong,
  ),
  text: z
    .string({ error: WORKFLOW_TEXTS.messageEmpty })
    .max(MAX_MESSAGE_CHARS, `The message is too long (${MAX_MESSAGE_CHARS} characters at most)`)
    .refine((t) => t.trim().length > 0, WORKFLOW_TEXTS.messageEmpty)
    .refine((t) => !hasInvalidCharacters(t), DELIVERY_TEXTS.invalidCharacters),
  images: imagesSchema,
  delay: delaySchema,
  ...recipientFields,
});

export const formTaskSchema = z.object({
  type: z.literal('form'),
  id: z.union([z.string(), z.number()]).optional(),
  formTitle: text(WORKFLOW_TEXTS.formTitleEmpty, FORM_LIMITS.name, FORM_TEXTS.nameTooLong),
  formDescription: text(
    WORKFLOW_TEXTS.formDescriptionEmpty,
    FORM_LIMITS.description,
    FORM_TEXTS.descriptionTooLong,
  ),
  questions: z
    .array(formQuestionSchema)
    .min(1, WORKFLOW_TEXTS.noQuestions)
    .max(FORM_LIMITS.questions, FORM_TEXTS.tooManyQuestions),
  /** The API's flag for the Slack modal (forms always open one here); accepted and ignored. */
  slack_form_dialog: z.boolean().optional(),
  ackMessage: z
    .string()
    .max(FORM_LIMITS.ackMessage, `The acknowledgement can be at most ${FORM_LIMITS.ackMessage} characters`)
    .refine((t) => !hasInvalidCharacters(t), DELIVERY_TEXTS.invalidCharacters)
    .optional(),
  delay: delaySchema,
  ...recipientFields,
});

export const workflowTaskSchema = z
  .discriminatedUnion('type', [messageTaskSchema, formTaskSchema], {
    error: WORKFLOW_TEXTS.chooseActionType,
  })
  .refine(hasRecipient, { message: WORKFLOW_TEXTS.chooseRecipient, path: ['dms'] });
export type WorkflowTaskInput = z.input<typeof workflowTaskSchema>;
export type WorkflowTask = z.output<typeof workflowTaskSchema>;

/**
 * POST /workflows/createworkflow. `trigger_at` is the time trigger's date (DD-MM-YYYY
 * or DD/MM/YYYY) and time (HH:MM) in the workspace's timezone; `days` the activity range; `channel` the
 * channel-join channel; `tags` and `segments` (bucket ids) the time trigger's audience.
 */
export const createWorkflowBody = z
  .object({
    team_id: teamId,
    workflow_name: text(WORKFLOW_TEXTS.nameEmpty, WORKFLOW_LIMITS.name, WORKFLOW_TEXTS.nameTooLong),
    sender: senderSchema,
    admin_user: z
      .string()
      .regex(/^[UW][A-Z0-9]{2,30}$/, 'admin_user must be a Slack user id')
      .nullish(),
    trigger_type: z.enum(TRIGGER_TYPES, { error: WORKFLOW_TEXTS.chooseType }),
    channel: channelId('channel').nullish(),
    /** Member Level: fires when a member's engagement level becomes this one (packages/shared/src/levels.ts). */
    level: z
      .enum(ENGAGEMENT_LEVELS, { error: `level must be one of ${ENGAGEMENT_LEVELS.join(', ')}` })
      .nullish(),
    days: z.coerce
      .number({ error: WORKFLOW_TEXTS.daysEmpty })
      .int(WORKFLOW_TEXTS.daysRange)
      .min(WORKFLOW_LIMITS.activityDaysMin, WORKFLOW_TEXTS.daysRange)
      .max(WORKFLOW_LIMITS.activityDaysMax, WORKFLOW_TEXTS.daysRange)
      .nullish(),
    trigger_at: z
      .object({ date: z.string().max(20).optional(), time: z.string().max(10).optional() })
      .nullish(),
    tags: tagIds('tags'),
    segments: tagIds('segments'),
    tasks: z
      .array(z.unknown())
      .min(1, WORKFLOW_TEXTS.noTasks)
      .max(WORKFLOW_LIMITS.cards - 1, WORKFLOW_TEXTS.tooManyTasks)
      .pipe(z.array(workflowTaskSchema)),
  })
  .superRefine((v, ctx) => {
    const issue = (message: string, path: string) => ctx.addIssue({ code: 'custom', message, path: [path] });
    if (v.sender === 'admin' && !v.admin_user) issue(WORKFLOW_TEXTS.chooseAdmin, 'admin_user');
    if (v.trigger_type === 'channel_join' && !v.channel) issue(WORKFLOW_TEXTS.chooseChannel, 'channel');
    if (v.trigger_type === 'level_change' && !v.level) issue(WORKFLOW_TEXTS.chooseLevel, 'level');
    // Newcomer is only ever a first level (joining): Workspace Join is that trigger.
    if (v.trigger_type === 'level_change' && v.level === 'newcomer')
      issue(WORKFLOW_TEXTS.noNewcomerTrigger, 'level');
    if ((v.trigger_type === 'activity' || v.trigger_type === 'inactivity') && (v.days ?? null) === null)
      issue(WORKFLOW_TEXTS.daysEmpty, 'days');
    if (v.trigger_type === 'time') {
      if (!v.trigger_at?.date?.trim() || /[_Dd]/.test(v.trigger_at.date))
        issue(WORKFLOW_TEXTS.dateMissing, 'trigger_at');
      else if (!v.trigger_at?.time?.trim() || /[_Hh]/.test(v.trigger_at.time))
        issue(WORKFLOW_TEXTS.timeMissing, 'trigger_at');
    }
    // Steps after the trigger: a delay card and an action card per task (11 cards: ten steps).
    const steps = v.tasks.reduce((n, t) => n + (t.delay ? 2 : 1), 0);
    if (steps > WORKFLOW_LIMITS.cards - 1) issue(WORKFLOW_TEXTS.tooManyTasks, 'tasks');
    for (const [i, t] of v.tasks.entries()) {
      if (v.trigger_type === 'time' && t.sendToSelectedUsers)
        ctx.addIssue({ code: 'custom', message: WORKFLOW_TEXTS.criteriaNotForTime, path: ['tasks', i] });
      const tags = new Set(v.tags);
      const segments = new Set(v.segments);
      if (t.triggerTags.some((x) => !tags.has(x)) || t.triggerSegments.some((x) => !segments.has(x)))
        ctx.addIssue({ code: 'custom', message: WORKFLOW_TEXTS.unknownTriggerAudience, path: ['tasks', i] });
    }
  });
export type CreateWorkflowRequest = z.input<typeof createWorkflowBody>;
export type CreateWorkflowBody = z.output<typeof createWorkflowBody>;

/** PATCH /workflows/pauseworkflow: `status` true activates, false stops; absent toggles. */
export const pauseWorkflowBody = z.object({
  team_id: teamId,
  workflow_id: z.coerce.number().int().positive('workflow_id must be a workflow id').max(2_147_483_647),
  status: z.boolean().optional(),
});
export type PauseWorkflowRequest = z.input<typeof pauseWorkflowBody>;

const named = z.object({ id: z.number(), name: z.string() });

/** A task as the list and the details modal show it. */
export const workflowTaskRow = z.object({
  task_id: z.number(),
  position: z.number(),
  details: z.object({
    type: z.enum(['message', 'form']),
    msgTitle: z.string().optional(),
    formTitle: z.string().optional(),
    delay: z.object({ delay_unit: z.enum(DELAY_UNITS), delay_in_secs: z.number() }).nullable(),
  }),
  /** The form this task sends (its instances hold the responses). */
  form_id: z.number().nullable(),
  /** 'Send the message "<title>" after 2 day delay' (titles over 75 characters cut to 72 plus '...'). */
  summary: z.string(),
  /** Sent so far (one per triggered member or time-trigger run). */
  sent: z.number(),
  /** Waiting for their time. */
  pending: z.number(),
});
export type WorkflowTaskRow = z.infer<typeof workflowTaskRow>;

/** A workflow in the list and the details modal. */
export const workflowRow = z.object({
  workflow_id: z.number(),
  workflow_name: z.string(),
  /** b = bot, a = admin. */
  sender: z.enum(['b', 'a']),
  /** 'Bot', the chosen admin's name, or 'Admin'. */
  sender_label: z.string(),
  admin_user: z.string().nullable(),
  trigger_type: z.enum(TRIGGER_TYPES),
  type_label: z.string(),
  /** true: active. */
  status: z.boolean(),
  channel: z.string().nullable(),
  channel_name: z.string().nullable(),
  /** Member Level: the level that fires it. */
  level: z.enum(ENGAGEMENT_LEVELS).nullable().optional(),
  days: z.number().nullable(),
  trigger_at: z.object({ date: z.string(), time: z.string() }).nullable(),
  /** The trigger card: 'When a member joins the workspace', 'At 05-12-2026 09:30 (Europe/Berlin) for …'. */
  trigger_summary: z.string(),
  tags: z.array(named),
  segments: z.array(named),
  tasks: z.array(workflowTaskRow),
  /** How many times the trigger fired. */
  triggered: z.number(),
  timezone: z.string(),
  created_at: z.string(),
});
export type WorkflowRow = z.infer<typeof workflowRow>;

/** GET /workflows/getworkflow: a workflow with each task's full content (for the details modal and Details). */
export const workflowDetail = workflowRow.extend({
  task_contents: z.array(workflowTaskSchema.and(z.object({ task_id: z.number() }))),
});
export type WorkflowDetail = z.infer<typeof workflowDetail>;

export const workflowsListResponse = z.object({ data: z.array(workflowRow) });
export const workflowResponse = z.object({ message: z.string(), data: workflowRow });
/**
 * GET /workflows/getworkflow's answer: the row, and each task as it was created (`workflowTaskSchema`'s output,
 * every field kept) with its id.
 */
export const workflowDetailResponse = z.object({
  data: workflowRow.extend({
    task_contents: z.array(z.looseObject({ type: z.enum(['message', 'form']), task_id: z.number() })),
  }),
});
export const pauseWorkflowResponse = z.object({
  message: z.string(),
  data: z.object({ workflow_id: z.number(), status: z.boolean() }),
});

/** GET /workflows/gettriggerinfo/{team_id}/{workflow_id}: the trigger's history, newest first. */
export const triggerHistoryRow = z.object({
  id: z.number(),
  trigger_time: z.string(),
  /** The member's name (member triggers), or the time trigger's audience ('Tags: … · Segments: …'). */
  triggered_for: z.string(),
  member_id: z.string().nullable(),
});
export type TriggerHistoryRow = z.infer<typeof triggerHistoryRow>;
export const triggerHistoryResponse = z.object({
  data: z.object({ workflow_name: z.string(), rows: z.array(triggerHistoryRow) }),
});
export type TriggerHistory = z.infer<typeof triggerHistoryResponse>['data'];

/**
 * GET /workflows/getuserdetail/{team_id}/{workflow_id}/{task_id}: one task's sends, newest first. A step not
 * sent yet is listed with its due time and status 'pending'.
 */
export const actionHistoryRow = z.object({
  id: z.number(),
  status: z.enum(['pending', 'sent', 'failed', 'cancelled']),
  /** When it went (sent), or is due (pending). */
  sent_at: z.string(),
  due_at: z.string(),
  triggered_for: z.string(),
  member_id: z.string().nullable(),
  /** 'Jane Doe', '3 members, #general', … from the receipt. */
  sent_to: z.string(),
  receipt_id: z.number().nullable(),
  /** Form tasks: the instance this step sent ('View Details', 'Export Details'). */
  form_id: z.number().nullable(),
  form_instance_id: z.number().nullable(),
  error: z.string().nullable(),
});
export type ActionHistoryRow = z.infer<typeof actionHistoryRow>;
export const actionHistoryResponse = z.object({
  data: z.object({
    workflow_name: z.string(),
    task: workflowTaskRow,
    rows: z.array(actionHistoryRow),
  }),
});
export type ActionHistory = z.infer<typeof actionHistoryResponse>['data'];

/** The details modal's title rule. */
export const cutTitle = (t: string) =>
  t.length > WORKFLOW_LIMITS.titleCut ? `${cutText(t, WORKFLOW_LIMITS.titleKeep)}...` : t;

/** 'after 2 day delay' / 'no delay'. */
export function delayPhrase(d: WorkflowDelay): string {
  if (!d) return 'no delay';
  const n = d.delay_in_secs / WORKFLOW_LIMITS.delaySeconds[d.delay_unit];
  return `after ${n} ${d.delay_unit.replace(/s$/, '')} delay`;
}

/** A task card's text: 'Send the message "<title>" after 2 day delay' or '… with no delay'. */
export function taskSummary(t: { type: 'message' | 'form'; title: string; delay: WorkflowDelay }): string {
  const what = t.type === 'message' ? 'message' : 'form';
  return `Send the ${what} "${cutTitle(t.title)}" ${t.delay ? delayPhrase(t.delay) : 'with no delay'}`;
}

/** Client-side checks of the trigger dialog's time: null when valid. */
export function timeTriggerProblem(
  date: string,
  time: string,
  parse: (d: string, t: string) => number | null,
  now: number,
): string | null {
  if (!date.trim() || /[_Dd]/.test(date)) return WORKFLOW_TEXTS.dateMissing;
  if (!time.trim() || /[_Hh]/.test(time)) return WORKFLOW_TEXTS.timeMissing;
  const at = parse(date.replace(/-/g, '/'), time);
  if (at === null) return WORKFLOW_TEXTS.invalidDateTime;
  if (at < now + WORKFLOW_LIMITS.minLeadMs || at > now + WORKFLOW_LIMITS.maxLeadMs)
    return WORKFLOW_TEXTS.invalidRange;
  return null;
}
