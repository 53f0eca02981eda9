import { z } from 'zod';
import { DAY_CODES } from './clock.ts';
import { confirmRecipientsSchema, DELIVERY_TEXTS, hasInvalidCharacters, senderSchema } from './delivery.ts';

/*
 * Forms. A form is sent as a Slack message with a button; the button opens a modal built
 * from the questions; each send or recurrence is an instance, with the members' responses.
 */

/** Limits. */
export const FORM_LIMITS = {
  description: 125,
  name: 24,
  questionTitle: 48,
  optionValue: 48,
  options: 5,
  questions: 20,
  ackMessage: 1000,
  /** An answer to a short question (a single-line Slack input). */
  shortAnswer: 150,
  /** An answer to a descriptive question (a multi-line Slack input holds at most 3,000). */
  longAnswer: 3000,
} as const;

/** The default acknowledgement. */
export const DEFAULT_ACK_MESSAGE = 'Your response has been recorded successfully';

/** Validation texts. */
export const FORM_TEXTS = {
  descriptionEmpty: "Form Description can't be empty",
  descriptionTooLong: `Form Description can be at most ${FORM_LIMITS.description} characters`,
  nameEmpty: "Name of the Form can't be empty",
  nameTooLong: `Name of the Form can be at most ${FORM_LIMITS.name} characters`,
  questionEmpty: "Ques title can't be empty.",
  questionTooLong: `Ques title can be at most ${FORM_LIMITS.questionTitle} characters`,
  optionEmpty: "Option Value can't be empty",
  optionTooLong: `Option Value can be at most ${FORM_LIMITS.optionValue} characters`,
  maxOptions: 'Max 5 options are allowed',
  numberBounds: "A number question's max can't be less than its min",
  wholeBounds: 'min and max must be whole numbers unless decimals are allowed',
  boundsRange: `min and max must lie between -${1e9} and ${1e9}`,
  noQuestions: 'Add at least one question',
  tooManyQuestions: `A form holds at most ${FORM_LIMITS.questions} questions`,
  pastTime: "Scheduled time can't be less than current time.",
  invalidDateTime: 'Invalid date and time',
  noFieldEmpty: 'No field Can be empty',
  createTarget: 'Select at least one member and/or channel and/or tag',
  sendTarget: 'Select at least one member or channel or tag',
  chooseSender: DELIVERY_TEXTS.chooseSender,
  created: 'Form created successfully',
  sent: 'Form sent successfully',
  deleted: 'Form deleted successfully',
  /** Shown in the Slack modal. */
  answerRequired: 'Please answer this question',
  chooseOption: 'Choose one of the options',
  answerTooLong: (max: number) => `Keep your answer under ${max} characters`,
  notANumber: 'Enter a number',
  notWhole: 'Enter a whole number',
  tooSmall: (min: number) => `Enter a number of at least ${min}`,
  tooLarge: (max: number) => `Enter a number of at most ${max}`,
  notADate: 'Pick a date',
  closed: 'This form is no longer accepting responses',
  notRecipient: 'This form was not sent to you',
  /** The form instance data page. */
  selectInstance: 'Select an Instance',
  noData: (instance: string) => `No data found on ${instance}`,
} as const;

/** The export's title and file name, and its single row when there is nothing. */
export const FORM_CSV_TITLE = 'Form details';
export const FORM_CSV_EMPTY = 'Details of no data';

export const QUESTION_TYPES = [
  'descriptive',
  'mcq',
  'shortDesc',
  'checkboxes',
  'number',
  'date',
  'rating',
  'yesno',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];
/** The types whose answers are picked among the question's own options. */
export const OPTION_TYPES: readonly QuestionType[] = ['mcq', 'checkboxes'];
/** A rating question's scale, and the answers of a yes/no question. */
export const RATING_SCALE = ['1', '2', '3', '4', '5'] as const;
export const YES_NO = ['Yes', 'No'] as const;
/** How far a number question's bounds may go (a Slack number_input holds them as text). */
export const NUMBER_BOUND = 1e9;
/** A checkboxes answer's options, joined in one cell (the table, the export). */
export const CHECKBOX_JOIN = '; ';

const teamId = z.string({ error: 'team_id is required' }).min(1, 'team_id is required').max(32);
const channelIds = (field: string) =>
  z
    .array(z.string().regex(/^[CG][A-Z0-9]{2,30}$/, `${field} must be Slack channel ids`))
    .max(1000)
    .default([]);
const memberEntries = z.array(z.string().trim().min(1).max(254)).max(50_000).default([]);
const tagIds = z.array(z.coerce.number().int().positive('tags must be tag ids')).max(200).default([]);
const plainText = (empty: string, max: number, tooLong: string) =>
  z
    .string({ error: empty })
    .trim()
    .min(1, empty)
    .max(max, tooLong)
    .refine((t) => !hasInvalidCharacters(t), DELIVERY_TEXTS.invalidCharacters);

/** Editor question (heading) / Form questions (question, type, options as strings, optional). */
export const formQuestionSchema = z.preprocess(
  (v) =>
    v && typeof v === 'object' && !('question' in v) && 'heading' in v
      ? { ...v, question: (v as { heading: unknown }).heading }
      : v,
  z
    .object({
      question: plainText(FORM_TEXTS.questionEmpty, FORM_LIMITS.questionTitle, FORM_TEXTS.questionTooLong),
      /** A hint under the question (the modal's input hint). */
      description: z.string().trim().max(150, 'A question hint can be at most 150 characters').default(''),
      type: z.enum(QUESTION_TYPES, { error: `type must be one of ${QUESTION_TYPES.join(', ')}` }),
      options: z
        .array(plainText(FORM_TEXTS.optionEmpty, FORM_LIMITS.optionValue, FORM_TEXTS.optionTooLong))
        .max(FORM_LIMITS.options, FORM_TEXTS.maxOptions)
        .default([]),
      optional: z.boolean().default(false),
      /** A number question: its bounds (either may be left out) and whether decimals are allowed. */
      min: z.number({ error: 'min must be a number' }).finite().nullish(),
      max: z.number({ error: 'max must be a number' }).finite().nullish(),
      decimal: z.boolean({ error: 'decimal must be true or false' }).default(false),
    })
    .superRefine((q, ctx) => {
      const picks = OPTION_TYPES.includes(q.type);
      if (picks && q.options.length === 0)
        ctx.addIssue({ code: 'custom', message: FORM_TEXTS.optionEmpty, path: ['options'] });
      if (picks && new Set(q.options.map((o) => o.toLowerCase())).size < q.options.length)
        ctx.addIssue({ code: 'custom', message: 'Options of a question must differ', path: ['options'] });
      if (q.type !== 'number') return;
      const bounds = [q.min, q.max].filter((b): b is number => typeof b === 'number');
      if (bounds.some((b) => Math.abs(b) > NUMBER_BOUND))
        ctx.addIssue({ code: 'custom', message: FORM_TEXTS.boundsRange, path: ['min'] });
      else if (!q.decimal && bounds.some((b) => !Number.isInteger(b)))
        ctx.addIssue({ code: 'custom', message: FORM_TEXTS.wholeBounds, path: ['min'] });
      else if (typeof q.min === 'number' && typeof q.max === 'number' && q.min > q.max)
        ctx.addIssue({ code: 'custom', message: FORM_TEXTS.numberBounds, path: ['max'] });
    })
    .transform(({ min, max, decimal, ...q }) => ({
      ...q,
      options: OPTION_TYPES.includes(q.type) ? q.options : [],
      ...(q.type === 'number' ? { min: min ?? null, max: max ?? null, decimal } : {}),
    })),
);
export type FormQuestion = z.output<typeof formQuestionSchema>;

/** Days as codes or as the picker's {value, label}. */
const days = z
  .array(
    z.preprocess(
      (d) => (d && typeof d === 'object' && 'value' in d ? (d as { value: unknown }).value : d),
      z.enum(DAY_CODES, { error: `days must be among ${DAY_CODES.join(', ')}` }),
    ),
  )
  .max(7)
  .default([]);

/** POST /actions/createform. */
export const createFormBody = z
  .object({
    team_id: teamId,
    form_title: plainText(FORM_TEXTS.nameEmpty, FORM_LIMITS.name, FORM_TEXTS.nameTooLong),
    form_description: plainText(
      FORM_TEXTS.descriptionEmpty,
      FORM_LIMITS.description,
      FORM_TEXTS.descriptionTooLong,
    ),
    sender: senderSchema,
    admin_user: z
      .string()
      .regex(/^[UW][A-Z0-9]{2,30}$/)
      .nullish(),
    channel_ids: channelIds('channel_ids'),
    dms: z
      .object({ members: memberEntries, tags: tagIds, channels: channelIds('dms.channels') })
      .default({ members: [], tags: [], channels: [] }),
    sendtoworkspace: z.boolean().default(false),
    /** The recipients it reaches now, confirmed (the whole workspace, or more than SEND_CONFIRM_OVER). */
    confirm_recipients: confirmRecipientsSchema,
    /** Every Day or Weekly (with `time`, and `days` when weekly); else one time, instant or at `post_at`. */
    recurring: z.boolean().default(false),
    /** 'Send Instantaneous': a one-time form sent now. */
    instant: z.boolean().default(false),
    frequency: z.enum(['Everyday', 'Weekly'], { error: FORM_TEXTS.noFieldEmpty }).optional(),
    days,
    /** HH:MM in the workspace's timezone. */
    time: z.string().optional(),
    /** A scheduled one-time form: date DD/MM/YYYY and time HH:MM in the workspace's timezone. */
    post_at: z.object({ date: z.string().optional(), time: z.string().optional() }).optional(),
    questions: z
      .array(formQuestionSchema)
      .min(1, FORM_TEXTS.noQuestions)
      .max(FORM_LIMITS.questions, FORM_TEXTS.tooManyQuestions),
    ackMessage: z
      .string()
      .max(FORM_LIMITS.ackMessage, `The acknowledgement can be at most ${FORM_LIMITS.ackMessage} characters`)
      .refine((t) => !hasInvalidCharacters(t), DELIVERY_TEXTS.invalidCharacters)
      .optional(),
  })
  .refine((v) => v.sender !== 'admin' || !!v.admin_user, {
    message: 'Choose which admin sends (admin_user)',
    path: ['admin_user'],
  })
  .refine(
    (v) =>
      v.channel_ids.length + v.dms.members.length + v.dms.tags.length + v.dms.channels.length > 0 ||
      v.sendtoworkspace,
    { message: FORM_TEXTS.createTarget, path: ['dms'] },
  )
  .superRefine((v, ctx) => {
    if (v.recurring) {
      if (!v.frequency)
        ctx.addIssue({ code: 'custom', message: FORM_TEXTS.noFieldEmpty, path: ['frequency'] });
      if (!v.time) ctx.addIssue({ code: 'custom', message: FORM_TEXTS.noFieldEmpty, path: ['time'] });
      if (v.frequency === 'Weekly' && v.days.length === 0)
        ctx.addIssue({ code: 'custom', message: FORM_TEXTS.noFieldEmpty, path: ['days'] });
    } else if (!v.instant && (!v.post_at?.date || !v.post_at?.time))
      ctx.addIssue({ code: 'custom', message: FORM_TEXTS.noFieldEmpty, path: ['post_at'] });
  });
export type CreateFormRequest = z.input<typeof createFormBody>;

/** POST /actions/executeform: the Send-form popup (members, channels to post in, tags). */
export const executeFormBody = z
  .object({
    team_id: teamId,
    master_form_id: z.coerce
      .number()
      .int()
      .positive('master_form_id must be a form id')
      .max(2_147_483_647, 'master_form_id must be a form id'),
    send_ids: z
      .object({ members: memberEntries, channels: channelIds('send_ids.channels'), tags: tagIds })
      .default({ members: [], channels: [], tags: [] }),
    confirm_recipients: confirmRecipientsSchema,
  })
  .refine((v) => v.send_ids.members.length + v.send_ids.channels.length + v.send_ids.tags.length > 0, {
    message: FORM_TEXTS.sendTarget,
    path: ['send_ids'],
  });
export type ExecuteFormRequest = z.input<typeof executeFormBody>;

/** POST /actions/getformresponses and /actions/exportformresponse. */
export const formResponsesBody = z.object({
  team_id: teamId,
  master_form_id: z.coerce
    .number()
    .int()
    .positive('master_form_id must be a form id')
    .max(2_147_483_647, 'master_form_id must be a form id'),
  form_id: z.coerce.number().int().positive('form_id must be a form instance id'),
});
export type FormResponsesRequest = z.input<typeof formResponsesBody>;

/** A row of the Form Table. */
export const formRowSchema = z.object({
  master_form_id: z.number().int(),
  form_title: z.string(),
  form_description: z.string(),
  sender: z.enum(['b', 'a']),
  sender_label: z.string(),
  admin_user: z.string().nullable(),
  recurring: z.boolean(),
  /** One time, 'Every Day at 09:00' or 'Weekly (mon, fri) at 09:00'. */
  schedule: z.string(),
  frequency: z.enum(['Everyday', 'Weekly', 'onetime']),
  days: z.array(z.enum(DAY_CODES)),
  time: z.string().nullable(),
  /** Null when not recurring (spec: cron_string null = not recurring). */
  cron_string: z.string().nullable(),
  next_run: z.string().nullable(),
  user_ids: z.array(z.string()),
  channel_ids: z.array(z.string()),
  tag_ids: z.array(z.number()),
  sendtoworkspace: z.boolean(),
  questions: z.array(
    z.object({
      question: z.string(),
      description: z.string(),
      type: z.enum(QUESTION_TYPES),
      options: z.array(z.string()),
      optional: z.boolean(),
      min: z.number().nullable().optional(),
      max: z.number().nullable().optional(),
      decimal: z.boolean().optional(),
    }),
  ),
  ackMessage: z.string(),
  instances: z.number().int(),
  responses: z.number().int(),
  created_at: z.string(),
});
export type FormRow = z.infer<typeof formRowSchema>;
export const formsListResponse = z.object({ data: z.array(formRowSchema) });
export const formResponse = z.object({ message: z.string(), data: formRowSchema });

/** Form instance: form_id, execution_time, responses (count). */
export const formInstanceSchema = z.object({
  form_id: z.number().int(),
  master_form_id: z.number().int(),
  execution_time: z.string(),
  /** The execution time in the workspace's timezone, 'YYYY-MM-DD HH:MM' (the instance page's URL segment). */
  label: z.string(),
  responses: z.number().int(),
  status: z.enum(['due', 'sent', 'failed', 'skipped']),
  recipients: z.number().int(),
  receipt_id: z.number().int().nullable(),
});
export type FormInstance = z.infer<typeof formInstanceSchema>;
export const formInstancesResponse = z.object({ data: z.array(formInstanceSchema) });
export const executeFormResponse = z.object({ message: z.string(), data: formInstanceSchema });

/** Form response: name, list of {question, answer}. */
export const formAnswerRowSchema = z.object({
  member_id: z.string(),
  name: z.string(),
  email: z.string(),
  submitted_at: z.string(),
  /** `values`: a checkboxes answer's options, one by one (`answer` joins them). */
  answers: z.array(
    z.object({ question: z.string(), answer: z.string(), values: z.array(z.string()).optional() }),
  ),
});
export type FormAnswerRow = z.infer<typeof formAnswerRowSchema>;
export const formResponsesResponse = z.object({
  data: z.object({
    form_title: z.string(),
    instance: formInstanceSchema,
    questions: z.array(z.string()),
    /** The questions with their types and settings (the charts of the instance page). */
    question_details: formRowSchema.shape.questions,
    rows: z.array(formAnswerRowSchema),
  }),
});
export type FormResponses = z.infer<typeof formResponsesResponse>['data'];

/** The form message's button (block_actions action_id) and the modal's callback_id. */
export const FORM_OPEN_ACTION = 'flywheel_form_open';
export const FORM_MODAL_CALLBACK = 'flywheel_form';
