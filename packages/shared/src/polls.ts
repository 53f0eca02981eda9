import { z } from 'zod';
import { DAY_CODES } from './clock.ts';
import { POLL_DEFAULT_DURATION_MS, POLL_MAX_OPTIONS } from './constants.ts';
import {
  DELIVERY_TEXTS,
  hasInvalidCharacters,
  imagesSchema,
  MAX_MESSAGE_CHARS,
  senderSchema,
} from './delivery.ts';

/*
 * Polls. A poll is posted in channels; members vote by reacting with an option's emoji on its message (emoji
 * polls), or by pressing an option's button (button polls: anonymous or named, single or multiple choice).
 */

export { POLL_DEFAULT_DURATION_MS, POLL_MAX_OPTIONS };
/** The Poll Details popup's options table and voters table page sizes. */
export const POLL_OPTIONS_PAGE = 5;
export const POLL_VOTERS_PAGE = 15;
/** The longest a poll may stay open. */
export const POLL_MAX_DURATION_MS = 90 * 86_400_000;
export const POLL_OPTION_MAX = 75;
export const POLL_EXPORT_FILE = 'PollDetails.csv';
export const POLL_CSV_COLUMNS = ['email', 'value', 'name'] as const;
/** An anonymous poll's CSV: the options and their counts, no names. */
export const POLL_ANONYMOUS_CSV_COLUMNS = ['value', 'votes'] as const;

/** How members vote: the options' emoji reactions (the first kind), or Block Kit buttons. */
export const POLL_VOTINGS = ['emoji', 'buttons'] as const;
export type PollVoting = (typeof POLL_VOTINGS)[number];
/** A button poll holds up to 10 options (voters may add some, up to this). */
export const POLL_BUTTON_MAX_OPTIONS = 10;
/** When a button poll's counts are shown in Slack: live, or once it is closed. */
export const POLL_RESULTS = ['live', 'closed'] as const;
/** The Slack ids of a button poll's message and modal (one vote button per option: `<prefix><index>`). */
export const POLL_VOTE_ACTION = 'flywheel_poll_vote_';
export const POLL_ADD_ACTION = 'flywheel_poll_add';
export const POLL_ADD_CALLBACK = 'flywheel_poll_add_option';

/** Validation texts (and the few rules without a text of their own, in the same voice). */
export const POLL_TEXTS = {
  fillOptions: 'fill all options with emoji and their value',
  maxOptions: `Max ${POLL_MAX_OPTIONS} options are allowed`,
  chooseChannel: 'Select at least one channel',
  emptyQuestion: 'The poll question cannot be empty!',
  duplicateEmoji: 'Each option needs its own emoji',
  endAfterStart: 'The end time must be after the poll starts',
  endTooFar: 'A poll can stay open for at most 90 days',
  scheduleTime: 'Select schedule date and time of the poll',
  pastTime: "Scheduled time can't be less than current time.",
  invalidRange: 'Invalid date and time range',
  created: 'Poll created successfully',
  scheduled: 'Poll scheduled successfully',
  deleted: 'Poll deleted successfully',
  closed: 'Poll closed',
  reopened: 'Poll reopened',
  maxButtonOptions: `Max ${POLL_BUTTON_MAX_OPTIONS} options are allowed`,
  fillButtonOptions: 'fill all options with their value',
  duplicateValue: 'Each option needs its own text',
  maxChoices: 'max_choices must be between 1 and the number of options',
  anonymous: 'Anonymous — votes are counted without names',
  // Ephemeral answers in Slack.
  votingClosed: 'This poll is closed: your vote was not counted.',
  notMember: 'Only members of this workspace can vote in this poll.',
  choiceLimit: (n: number) =>
    `You can choose at most ${n} option${n === 1 ? '' : 's'}: withdraw one (press it again) to choose another.`,
  optionsFull: `This poll already has ${POLL_BUTTON_MAX_OPTIONS} options.`,
  optionTaken: 'That option is already in the poll.',
  optionEmpty: 'Write the option',
} as const;

const teamId = z.string({ error: 'team_id is required' }).min(1, 'team_id is required').max(32);

/** A Slack emoji name as reactions carry it (`thumbsup`, `+1`, `white_check_mark`, `skin-tone-2` ...). */
export const EMOJI_CODE = /^[a-z0-9_+\-']{1,64}$/;

/** The names Slack gives the same emoji (a reaction event says `+1` for :thumbsup:). */
const EMOJI_ALIASES: Record<string, string> = {
  thumbsup: '+1',
  thumbsdown: '-1',
  thumbs_up: '+1',
  thumbs_down: '-1',
  heart: 'heart',
  simple_smile: 'slightly_smiling_face',
};
/** One name per emoji, so an option chosen as :thumbsup: counts a `+1` reaction (skin tones count as it too). */
export function canonicalEmoji(code: string): string {
  const base = code.replace(/^:|:$/g, '').split('::skin-tone-')[0]!.toLowerCase();
  return EMOJI_ALIASES[base] ?? base;
}

export const pollOptionInput = z.object({
  /** The emoji as a character (shown in the dashboard); optional when the code names it. */
  emoji: z.string().max(32).default(''),
  /** Slack's name of the emoji, without colons: the reaction that votes for this option. */
  emoji_code: z.string().max(66).default(''),
  value: z
    .string()
    .max(POLL_OPTION_MAX, `An option can hold at most ${POLL_OPTION_MAX} characters`)
    .default(''),
});
export type PollOptionInput = z.input<typeof pollOptionInput>;

/**
 * The option rules: at least one; emoji polls at most five, each with an emoji and a value; button polls at
 * most ten, each with its own value (an emoji is optional).
 */
export function pollOptionsProblem(
  options: readonly z.input<typeof pollOptionInput>[],
  voting: PollVoting = 'emoji',
): string | null {
  if (voting === 'buttons') {
    if (options.length === 0) return POLL_TEXTS.fillButtonOptions;
    if (options.length > POLL_BUTTON_MAX_OPTIONS) return POLL_TEXTS.maxButtonOptions;
    if (options.some((o) => !(o.value ?? '').trim())) return POLL_TEXTS.fillButtonOptions;
    const values = options.map((o) => (o.value ?? '').trim().toLowerCase());
    if (new Set(values).size !== values.length) return POLL_TEXTS.duplicateValue;
    return null;
  }
  if (options.length === 0) return POLL_TEXTS.fillOptions;
  if (options.length > POLL_MAX_OPTIONS) return POLL_TEXTS.maxOptions;
  for (const o of options) {
    const code = (o.emoji_code ?? '').replace(/^:|:$/g, '');
    if (!(o.value ?? '').trim() || !(o.emoji ?? '').trim() || !EMOJI_CODE.test(code))
      return POLL_TEXTS.fillOptions;
  }
  const codes = options.map((o) => canonicalEmoji(o.emoji_code ?? ''));
  if (new Set(codes).size !== codes.length) return POLL_TEXTS.duplicateEmoji;
  return null;
}

/**
 * How members vote, in a create body (a one-off poll's and a recurring poll's alike): emoji reactions (default)
 * or buttons; the rest are button polls' settings.
 */
export const pollVotingFields = {
  voting: z.enum(POLL_VOTINGS, { error: 'voting must be emoji or buttons' }).default('emoji'),
  /** Counts only: nobody, admins included, sees who voted for what. */
  anonymous: z.boolean({ error: 'anonymous must be true or false' }).default(false),
  /** Members may choose several options (up to max_choices when given). */
  multiple: z.boolean({ error: 'multiple must be true or false' }).default(false),
  max_choices: z
    .number({ error: 'max_choices must be a number' })
    .int('max_choices must be a whole number')
    .nullish(),
  /** A button lets voters add an option (up to 10). */
  allow_add: z.boolean({ error: 'allow_add must be true or false' }).default(false),
  /** Counts on the message live, or hidden until the poll closes. */
  results: z.enum(POLL_RESULTS, { error: 'results must be live or closed' }).default('live'),
};
type PollVotingValues = {
  options: readonly z.input<typeof pollOptionInput>[];
  voting: PollVoting;
  anonymous: boolean;
  multiple: boolean;
  max_choices?: number | null;
  allow_add: boolean;
  results: (typeof POLL_RESULTS)[number];
};

/** The options' and the button settings' rules, each issue naming its field. */
export function pollVotingProblems(v: PollVotingValues, ctx: z.RefinementCtx): void {
  const problem = pollOptionsProblem(v.options, v.voting);
  // The emoji texts are the product's own; a button poll's name their field.
  if (problem)
    ctx.addIssue({
      code: 'custom',
      message: v.voting === 'buttons' ? `options: ${problem}` : problem,
      path: ['options'],
    });
  if (v.voting === 'emoji') {
    for (const key of ['anonymous', 'multiple', 'allow_add'] as const)
      if (v[key]) ctx.addIssue({ code: 'custom', message: `${key} needs voting: buttons`, path: [key] });
    if (v.max_choices != null || v.results !== 'live')
      ctx.addIssue({
        code: 'custom',
        message: `${v.max_choices != null ? 'max_choices' : 'results'} needs voting: buttons`,
        path: [v.max_choices != null ? 'max_choices' : 'results'],
      });
  } else if (v.max_choices != null) {
    if (!v.multiple)
      ctx.addIssue({ code: 'custom', message: 'max_choices needs multiple: true', path: ['max_choices'] });
    else if (v.max_choices < 1 || v.max_choices > v.options.length)
      ctx.addIssue({ code: 'custom', message: POLL_TEXTS.maxChoices, path: ['max_choices'] });
  }
}

/** A button poll's stored settings from a create body's fields (null for an emoji poll). */
export function pollBallotOf(v: Omit<PollVotingValues, 'options'>): PollBallotSettings | null {
  return v.voting === 'buttons'
    ? {
        anonymous: v.anonymous,
        multiple: v.multiple,
        max_choices: v.multiple ? (v.max_choices ?? null) : null,
        allow_add: v.allow_add,
        results: v.results,
      }
    : null;
}
/** A button poll's settings as stored (polls.ballot, poll_recurrences.ballot). */
export type PollBallotSettings = {
  anonymous: boolean;
  multiple: boolean;
  max_choices: number | null;
  allow_add: boolean;
  results: (typeof POLL_RESULTS)[number];
};

export const POLL_TYPES = ['scheduled', 'instant'] as const;
export type PollType = (typeof POLL_TYPES)[number];

/** POST /poll/createpoll. Times are ISO instants. */
export const createPollBody = z
  .object({
    team_id: teamId,
    channel_ids: z
      .array(z.string().regex(/^[CG][A-Z0-9]{2,30}$/, 'channel_ids must be Slack channel ids'))
      .max(100, 'A poll can go to at most 100 channels')
      .default([]),
    /** The question in Slack mrkdwn (the editor's conversion); `htmlquestion` is what the editor shows. */
    poll_question: z
      .string({ error: POLL_TEXTS.emptyQuestion })
      .max(MAX_MESSAGE_CHARS - 2000, 'The question is too long')
      .refine((t) => t.trim().length > 0, POLL_TEXTS.emptyQuestion)
      .refine((t) => !hasInvalidCharacters(t), DELIVERY_TEXTS.invalidCharacters),
    htmlquestion: z.string().max(200_000).optional(),
    options: z.array(pollOptionInput, { error: POLL_TEXTS.fillOptions }).max(50),
    /** When the poll closes; default 24 hours after it starts. */
    expiry_ts: z.iso.datetime({ offset: true, error: 'expiry_ts must be an ISO date and time' }).nullish(),
    sender: senderSchema,
    admin_user: z
      .string()
      .regex(/^[UW][A-Z0-9]{2,30}$/, 'a Slack user id looks like U0123ABCD')
      .nullish(),
    /** Who created it, as the table shows it (default: the sender's name). */
    created_by: z.string().max(120).optional(),
    type: z.preprocess(
      (v) => (typeof v === 'string' && /^non[-_ ]?scheduled$/i.test(v) ? 'instant' : v),
      z.enum(POLL_TYPES, { error: 'type must be scheduled or instant' }),
    ),
    /** Scheduled polls: when it is posted. */
    post_at: z.iso.datetime({ offset: true, error: POLL_TEXTS.scheduleTime }).nullish(),
    images: imagesSchema,
    ...pollVotingFields,
  })
  .superRefine((v, ctx) => {
    if (v.channel_ids.length === 0)
      ctx.addIssue({ code: 'custom', message: POLL_TEXTS.chooseChannel, path: ['channel_ids'] });
    if (v.sender === 'admin' && !v.admin_user)
      ctx.addIssue({
        code: 'custom',
        message: 'Choose which admin sends (admin_user)',
        path: ['admin_user'],
      });
    pollVotingProblems(v, ctx);
    if (v.type === 'scheduled' && !v.post_at)
      ctx.addIssue({ code: 'custom', message: POLL_TEXTS.scheduleTime, path: ['post_at'] });
  });
export type CreatePollRequest = z.input<typeof createPollBody>;

/** The default end of a poll starting at `start` (one day after the scheduled date or now). */
export const defaultPollEnd = (start: number) => start + POLL_DEFAULT_DURATION_MS;

export const pollOptionSchema = z.object({
  emoji: z.string(),
  emoji_code: z.string(),
  value: z.string(),
  count: z.number().int(),
});
export type PollOption = z.infer<typeof pollOptionSchema>;

export const POLL_STATES = ['scheduled', 'active', 'expired'] as const;
export type PollState = (typeof POLL_STATES)[number];

/** Poll (status true Active, false Expired), plus what the table shows. */
export const pollSchema = z.object({
  id: z.number().int(),
  created_by: z.string(),
  expiry_ts: z.string(),
  question: z.string(),
  htmlquestion: z.string(),
  status: z.boolean(),
  state: z.enum(POLL_STATES),
  poll_options: z.array(pollOptionSchema),
  total_votes: z.number().int(),
  sender: z.enum(['bot', 'admin']),
  admin_user: z.string().nullable(),
  type: z.enum(POLL_TYPES),
  post_at: z.string(),
  images: z.array(z.string()),
  channel_ids: z.array(z.string()),
  channels: z.array(z.string()),
  receipt_id: z.number().int().nullable(),
  created_at: z.string(),
  voting: z.enum(POLL_VOTINGS),
  anonymous: z.boolean(),
  multiple: z.boolean(),
  max_choices: z.number().int().nullable(),
  allow_add: z.boolean(),
  results: z.enum(POLL_RESULTS),
  /** Closed (at its end, or early by an admin) and not reopened. */
  closed: z.boolean(),
  /** Members who voted (a member choosing several options is one voter). */
  voter_count: z.number().int(),
});
export type Poll = z.infer<typeof pollSchema>;

/** Voter: who voted for what. */
export const voterSchema = z.object({
  user_id: z.string(),
  email: z.string(),
  name: z.string(),
  value: z.string(),
  emoji: z.string(),
  voted_at: z.string(),
});
export type Voter = z.infer<typeof voterSchema>;

export const pollsResponse = z.object({ data: z.array(pollSchema) });
export const pollResponse = z.object({ message: z.string(), data: pollSchema });
export const pollInfoResponse = z.object({ data: pollSchema });
export const votersResponse = z.object({ data: z.array(voterSchema) });
/** GET /poll/exportpollinfo: the rows of PollDetails.csv (email, value, name). */
export const pollExportResponse = z.object({
  data: z.array(
    z.object({
      email: z.string(),
      value: z.string(),
      name: z.string(),
      /** An anonymous poll's rows: one per option with its count (no email, no name). */
      votes: z.number().int().optional(),
    }),
  ),
});
/** POST /poll/reopenpoll: a new end (default: the old one, or 24 hours from now when it has passed). */
export const reopenPollBody = z.object({
  expiry_ts: z.iso.datetime({ offset: true, error: 'expiry_ts must be an ISO date and time' }).nullish(),
});

/*
 * Recurring polls: a poll posted Every Day or Weekly (on `days`) at `time` in the workspace's timezone; each
 * occurrence is a poll of its own (its results, details and export), open for `duration_hours`.
 */

export const RECURRING_POLL_TEXTS = {
  frequency: 'frequency must be Everyday or Weekly',
  time: 'time must be HH:MM (24 hours)',
  days: 'days: choose at least one day for a weekly poll',
  schedule: 'Choose how often, the time and, for a weekly poll, its days',
  duration: `duration_hours must be a whole number of hours from 1 to ${POLL_MAX_DURATION_MS / 3_600_000}`,
  created: 'Recurring poll created successfully',
  deleted: 'Recurring poll deleted: no more polls will be posted',
} as const;

/** POST /poll/createrecurringpoll. */
export const createRecurringPollBody = z
  .object({
    team_id: teamId,
    channel_ids: createPollBody.shape.channel_ids,
    poll_question: createPollBody.shape.poll_question,
    htmlquestion: createPollBody.shape.htmlquestion,
    options: createPollBody.shape.options,
    sender: senderSchema,
    admin_user: createPollBody.shape.admin_user,
    created_by: createPollBody.shape.created_by,
    images: imagesSchema,
    ...pollVotingFields,
    frequency: z.enum(['Everyday', 'Weekly'], { error: RECURRING_POLL_TEXTS.frequency }),
    days: z
      .array(z.enum(DAY_CODES, { error: `days must be among ${DAY_CODES.join(', ')}` }))
      .max(7)
      .default([]),
    time: z
      .string({ error: RECURRING_POLL_TEXTS.time })
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, RECURRING_POLL_TEXTS.time),
    /** How long each occurrence stays open. */
    duration_hours: z
      .number({ error: RECURRING_POLL_TEXTS.duration })
      .int(RECURRING_POLL_TEXTS.duration)
      .min(1, RECURRING_POLL_TEXTS.duration)
      .max(POLL_MAX_DURATION_MS / 3_600_000, RECURRING_POLL_TEXTS.duration)
      .default(POLL_DEFAULT_DURATION_MS / 3_600_000),
  })
  .superRefine((v, ctx) => {
    if (v.channel_ids.length === 0)
      ctx.addIssue({ code: 'custom', message: POLL_TEXTS.chooseChannel, path: ['channel_ids'] });
    if (v.sender === 'admin' && !v.admin_user)
      ctx.addIssue({
        code: 'custom',
        message: 'Choose which admin sends (admin_user)',
        path: ['admin_user'],
      });
    pollVotingProblems(v, ctx);
    if (v.frequency === 'Weekly' && v.days.length === 0)
      ctx.addIssue({ code: 'custom', message: RECURRING_POLL_TEXTS.days, path: ['days'] });
  });
export type CreateRecurringPollRequest = z.input<typeof createRecurringPollBody>;

/** A recurring poll: its schedule, its next run and the polls it posted (newest first). */
export const recurringPollSchema = z.object({
  id: z.number().int(),
  question: z.string(),
  htmlquestion: z.string(),
  created_by: z.string(),
  sender: z.enum(['bot', 'admin']),
  admin_user: z.string().nullable(),
  channel_ids: z.array(z.string()),
  channels: z.array(z.string()),
  options: z.array(z.object({ emoji: z.string(), emoji_code: z.string(), value: z.string() })),
  /** Each occurrence's voting and button settings (as a one-off poll's). */
  voting: z.enum(POLL_VOTINGS),
  anonymous: z.boolean(),
  multiple: z.boolean(),
  max_choices: z.number().int().nullable(),
  allow_add: z.boolean(),
  results: z.enum(POLL_RESULTS),
  frequency: z.enum(['Everyday', 'Weekly']),
  days: z.array(z.enum(DAY_CODES)),
  time: z.string(),
  /** 'Every Day at 09:00' or 'Weekly (mon, fri) at 09:00', in the workspace's timezone. */
  schedule: z.string(),
  duration_hours: z.number().int(),
  next_run: z.string().nullable(),
  /** The polls it posted, newest first (the newest 100). */
  instances: z.array(
    z.object({
      poll_id: z.number().int(),
      post_at: z.string(),
      state: z.enum(POLL_STATES),
      total_votes: z.number().int(),
    }),
  ),
  created_at: z.string(),
});
export type RecurringPoll = z.infer<typeof recurringPollSchema>;
export const recurringPollsResponse = z.object({ data: z.array(recurringPollSchema) });
export const recurringPollResponse = z.object({ message: z.string(), data: recurringPollSchema });
