import { MAX_LEAD_MS, MIN_LEAD_MS, parseLocalDateTime, wallClock } from '@flywheel/shared/clock';
import {
  defaultPollEnd,
  POLL_BUTTON_MAX_OPTIONS,
  POLL_MAX_DURATION_MS,
  POLL_MAX_OPTIONS,
  POLL_TEXTS,
  pollOptionsProblem,
  RECURRING_POLL_TEXTS,
  type CreatePollRequest,
  type CreateRecurringPollRequest,
  type PollVoting,
} from '@flywheel/shared/polls';
import {
  EMPTY_RECURRENCE,
  recurrenceComplete,
  type RecurrenceDraft,
} from '../../components/RecurrenceFields.tsx';
import { EMPTY_EDITOR_VALUE, editorError, type EditorValue } from '../../components/RichEditor.tsx';
import { isChosen, NO_SENDER, type SenderChoice } from '../../entities/messages/index.ts';
import { postAtOf } from '../../lib/schedule-time.ts';

/** A button poll's settings (the wizard's Voting: Buttons). */
export type BallotDraft = {
  anonymous: boolean;
  multiple: boolean;
  /** Multiple choice: the most a member may choose; empty for no limit. */
  maxChoices: number | '';
  allowAdd: boolean;
  results: 'live' | 'closed';
};
export const DEFAULT_BALLOT: BallotDraft = {
  anonymous: false,
  multiple: false,
  maxChoices: '',
  allowAdd: false,
  results: 'live',
};

/**
 * Step 1 of Create Poll: channels, sender, Scheduled (with its date and time), Non-scheduled or Recurring, and
 * how members vote (emoji reactions, or buttons with their settings; a recurring poll's every occurrence too).
 */
export type PollStart = {
  channels: string[];
  sender: SenderChoice;
  type: 'scheduled' | 'instant' | 'recurring';
  /** Scheduled: YYYY-MM-DDTHH:MM from the date-time picker, in the workspace's timezone. */
  at: string;
  /** Recurring: Every Day or Weekly at a time. */
  recurrence: RecurrenceDraft;
  voting: PollVoting;
  ballot: BallotDraft;
};
export const EMPTY_POLL_START: PollStart = {
  channels: [],
  sender: NO_SENDER,
  type: 'instant',
  at: '',
  recurrence: EMPTY_RECURRENCE,
  voting: 'emoji',
  ballot: DEFAULT_BALLOT,
};

/** The most options a poll of this voting holds (emoji 5, buttons 10). */
export const maxOptionsOf = (voting: PollVoting) =>
  voting === 'buttons' ? POLL_BUTTON_MAX_OPTIONS : POLL_MAX_OPTIONS;

export type OptionDraft = { emoji: string; emoji_code: string; value: string };
export const EMPTY_OPTION: OptionDraft = { emoji: '', emoji_code: '', value: '' };

/** Step 2: the question, its images, the options and the end time (picker value in the workspace's timezone). */
export type PollDraft = {
  question: EditorValue;
  files: File[];
  options: OptionDraft[];
  /** YYYY-MM-DDTHH:MM; empty until the step opens, then the default end (24 hours after the start). */
  end: string;
  /** A recurring poll: how many hours each occurrence stays open. */
  hours?: number | string;
};
export const EMPTY_POLL_DRAFT: PollDraft = {
  question: EMPTY_EDITOR_VALUE,
  files: [],
  options: [EMPTY_OPTION],
  end: '',
  hours: 24,
};

/** The picker's value for an instant in `timeZone` (YYYY-MM-DDTHH:MM). */
export function localInput(at: number, timeZone: string): string {
  const w = wallClock(at, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}

/** A picker value as the instant it names in `timeZone`, or null. */
export function instantOf(value: string, timeZone: string): number | null {
  const p = postAtOf(value);
  return p ? parseLocalDateTime(p.date, p.time, timeZone) : null;
}

/** When the poll starts: its scheduled time, else now. */
export const startOf = (s: PollStart, timeZone: string, now = Date.now()) =>
  (s.type === 'scheduled' ? instantOf(s.at, timeZone) : null) ?? now;

/** The end defaults to one day after the scheduled date, or after now. */
export const defaultEnd = (s: PollStart, timeZone: string, now = Date.now()) =>
  localInput(defaultPollEnd(startOf(s, timeZone, now)), timeZone);

/**
 * Step 1: Next stays disabled (`basic`) without a channel and a sender; a scheduled time is
 * checked when Next is pressed (`detail`), with the schedule texts of section 5.
 */
export function pollStartProblems(
  s: PollStart,
  timeZone: string,
  now = Date.now(),
): { basic: string | null; detail: string | null } {
  if (s.channels.length === 0) return { basic: POLL_TEXTS.chooseChannel, detail: null };
  if (!isChosen(s.sender)) return { basic: 'Choose a Sender', detail: null };
  if (s.type === 'recurring')
    return { basic: null, detail: recurrenceComplete(s.recurrence) ? null : RECURRING_POLL_TEXTS.schedule };
  if (s.type !== 'scheduled') return { basic: null, detail: null };
  if (!s.at) return { basic: null, detail: POLL_TEXTS.scheduleTime };
  const at = instantOf(s.at, timeZone);
  if (at === null) return { basic: null, detail: POLL_TEXTS.scheduleTime };
  if (at <= now) return { basic: null, detail: POLL_TEXTS.pastTime };
  if (at < now + MIN_LEAD_MS || at > now + MAX_LEAD_MS)
    return { basic: null, detail: POLL_TEXTS.invalidRange };
  return { basic: null, detail: null };
}

export type PollProblems = { question: string | null; options: string | null; end: string | null };
export const NO_POLL_PROBLEMS: PollProblems = { question: null, options: null, end: null };

/** Step 2: a question, every option with its emoji and value, an end after the start. */
export function pollDraftProblems(
  s: PollStart,
  d: PollDraft,
  timeZone: string,
  now = Date.now(),
): PollProblems {
  const blank = d.question.text.trim() === '' || d.question.mrkdwn.trim() === '';
  const end = instantOf(d.end, timeZone);
  const hours = Number(d.hours ?? 24);
  return {
    question: blank ? POLL_TEXTS.emptyQuestion : editorError(d.question),
    options: pollOptionsProblem(d.options, s.voting) ?? maxChoicesProblem(s, d),
    end:
      s.type === 'recurring'
        ? Number.isInteger(hours) && hours >= 1 && hours <= POLL_MAX_DURATION_MS / 3_600_000
          ? null
          : RECURRING_POLL_TEXTS.duration
        : end === null || end <= startOf(s, timeZone, now)
          ? POLL_TEXTS.endAfterStart
          : null,
  };
}

/** A multiple-choice button poll's limit: from 1 to the number of options. */
function maxChoicesProblem(s: PollStart, d: PollDraft): string | null {
  const max = s.ballot.maxChoices;
  if (s.voting !== 'buttons' || !s.ballot.multiple || max === '') return null;
  return max < 1 || max > d.options.length ? POLL_TEXTS.maxChoices : null;
}

export const canAddOption = (d: PollDraft, voting: PollVoting = 'emoji') =>
  d.options.length < maxOptionsOf(voting);

/** The create body (images are the uploaded file ids). */
export function createBodyOf(
  teamId: string,
  s: PollStart,
  d: PollDraft,
  images: string[],
  timeZone: string,
  createdBy?: string,
): CreatePollRequest {
  const start = s.type === 'scheduled' ? instantOf(s.at, timeZone) : null;
  const end = instantOf(d.end, timeZone);
  return {
    team_id: teamId,
    channel_ids: s.channels,
    poll_question: d.question.mrkdwn,
    htmlquestion: d.question.html,
    options: d.options.map((o) => ({ emoji: o.emoji, emoji_code: o.emoji_code, value: o.value.trim() })),
    expiry_ts: end === null ? null : new Date(end).toISOString(),
    sender: s.sender.sender ?? 'bot',
    admin_user: s.sender.sender === 'admin' ? s.sender.adminUser : null,
    ...(createdBy ? { created_by: createdBy } : {}),
    type: s.type === 'scheduled' ? 'scheduled' : 'instant',
    post_at: start === null ? null : new Date(start).toISOString(),
    images,
    ...votingOf(s),
  };
}

/** How members vote, in a create body (a one-off or a recurring poll's): the button settings for buttons only. */
function votingOf(s: PollStart) {
  return {
    voting: s.voting,
    ...(s.voting === 'buttons'
      ? {
          anonymous: s.ballot.anonymous,
          multiple: s.ballot.multiple,
          max_choices: s.ballot.multiple && s.ballot.maxChoices !== '' ? s.ballot.maxChoices : null,
          allow_add: s.ballot.allowAdd,
          results: s.ballot.results,
        }
      : {}),
  };
}

/** The recurring poll's create body (images are the uploaded file ids). */
export function createRecurringBodyOf(
  teamId: string,
  s: PollStart,
  d: PollDraft,
  images: string[],
  createdBy?: string,
): CreateRecurringPollRequest {
  return {
    team_id: teamId,
    channel_ids: s.channels,
    poll_question: d.question.mrkdwn,
    htmlquestion: d.question.html,
    options: d.options.map((o) => ({ emoji: o.emoji, emoji_code: o.emoji_code, value: o.value.trim() })),
    sender: s.sender.sender ?? 'bot',
    admin_user: s.sender.sender === 'admin' ? s.sender.adminUser : null,
    ...(createdBy ? { created_by: createdBy } : {}),
    frequency: s.recurrence.frequency ?? 'Everyday',
    days: s.recurrence.frequency === 'Weekly' ? s.recurrence.days : [],
    time: s.recurrence.time,
    duration_hours: Number(d.hours ?? 24),
    images,
    ...votingOf(s),
  };
}
