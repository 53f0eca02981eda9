import { ACTION_TEXTS } from '@flywheel/shared/actions';
import {
  MAX_LEAD_MS,
  MIN_LEAD_MS,
  parseLocalDateTime,
  type DayCode,
  type Frequency,
} from '@flywheel/shared/clock';
import { EMPTY_EDITOR_VALUE, editorError, type EditorValue } from '../../../components/RichEditor.tsx';
import { NO_TARGETS, type PickedTargets } from '../../../components/TargetPickers.tsx';
import { isBlankMessage, isChosen, NO_SENDER, type SenderChoice } from '../../../entities/messages/index.ts';
import { postAtOf } from '../../../lib/schedule-time.ts';

/** Step 2 of both wizards ('Compose Message'): whom it goes to, the message and its images. */
export type ComposeDraft = {
  /** Automations only: DM the member who joined. */
  sendDm: boolean;
  /** DM every member of the workspace. */
  toWorkspace: boolean;
  /** 'Send Direct Message': members, tags (ids as strings) and the members of channels. */
  dm: PickedTargets;
  /** 'Send Message On Channel'. */
  post: string[];
  message: EditorValue;
  files: File[];
};

export const EMPTY_COMPOSE: ComposeDraft = {
  sendDm: false,
  toWorkspace: false,
  dm: NO_TARGETS,
  post: [],
  message: EMPTY_EDITOR_VALUE,
  files: [],
};

export type ComposeProblems = { target: string | null; message: string | null };

/** A target (for automations the new member counts) and a message that is not blank. */
export function composeProblems(kind: 'automation' | 'schedule', d: ComposeDraft): ComposeProblems {
  const anyone =
    d.toWorkspace ||
    d.post.length + d.dm.members.length + d.dm.tags.length + d.dm.channels.length > 0 ||
    (kind === 'automation' && d.sendDm);
  return {
    target: anyone
      ? null
      : kind === 'automation'
        ? ACTION_TEXTS.automationTarget
        : ACTION_TEXTS.scheduleTarget,
    message: isBlankMessage(d.message) ? ACTION_TEXTS.emptyMessage : editorError(d.message),
  };
}

/** The recipients part of a create body. */
const audienceOf = (d: ComposeDraft) => ({
  channel_ids: d.post,
  dms: { members: d.dm.members, tags: d.dm.tags.map(Number), channels: d.dm.channels },
  sendtoworkspace: d.toWorkspace,
});

/** What a trigger and a schedule send alike: sender, message, uploaded images and targets. */
export const messageFieldsOf = (sender: SenderChoice, d: ComposeDraft, images: string[]) => ({
  message_sender: sender.sender ?? 'bot',
  admin_user: sender.sender === 'admin' ? sender.adminUser : null,
  message: d.message.mrkdwn,
  htmlmessage: d.message.html,
  images,
  ...audienceOf(d),
});

export type TriggerStart = { trigger: string | null; sender: SenderChoice };
export const EMPTY_TRIGGER_START: TriggerStart = { trigger: null, sender: NO_SENDER };
export const MEMBER_JOIN = 'Member Join';

/** Step 1 of Create Trigger: Next stays disabled until a trigger and a sender are chosen. */
export const triggerStartProblem = (s: TriggerStart): string | null =>
  s.trigger && isChosen(s.sender) ? null : ACTION_TEXTS.noFieldEmpty;

export type ScheduleStart = {
  heading: string;
  sender: SenderChoice;
  frequency: Frequency | null;
  days: DayCode[];
  /** Every Day and Weekly: HH:MM. */
  time: string;
  /** One Time: YYYY-MM-DDTHH:MM from the date-time picker, in the workspace's timezone. */
  at: string;
};
export const EMPTY_SCHEDULE_START: ScheduleStart = {
  heading: '',
  sender: NO_SENDER,
  frequency: null,
  days: [],
  time: '',
  at: '',
};

/**
 * Step 1 of Schedule Message. `basic` (heading, sender, frequency missing) keeps Next disabled; `detail` is
 * shown when Next is pressed.
 */
export function scheduleStartProblems(
  s: ScheduleStart,
  timeZone: string,
  now = Date.now(),
): { basic: string | null; detail: string | null } {
  if (!s.heading.trim() || !isChosen(s.sender) || !s.frequency)
    return { basic: ACTION_TEXTS.noFieldEmpty, detail: null };
  if (s.frequency === 'Weekly' && s.days.length === 0)
    return { basic: null, detail: ACTION_TEXTS.noFieldEmpty };
  if (s.frequency !== 'onetime')
    return { basic: null, detail: /^\d{2}:\d{2}$/.test(s.time) ? null : ACTION_TEXTS.scheduleTime };
  if (!s.at) return { basic: null, detail: ACTION_TEXTS.scheduleDate };
  const post = postAtOf(s.at);
  const at = post ? parseLocalDateTime(post.date, post.time, timeZone) : null;
  if (at === null) return { basic: null, detail: ACTION_TEXTS.invalidDateTime };
  if (at <= now) return { basic: null, detail: ACTION_TEXTS.pastTime };
  if (at < now + MIN_LEAD_MS || at > now + MAX_LEAD_MS)
    return { basic: null, detail: ACTION_TEXTS.invalidRange };
  return { basic: null, detail: null };
}
