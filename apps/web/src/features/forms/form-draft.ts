import { parseLocalDateTime, type DayCode } from '@flywheel/shared/clock';
import { DEFAULT_ACK_MESSAGE, FORM_LIMITS, FORM_TEXTS, type CreateFormRequest } from '@flywheel/shared/forms';
import { NO_TARGETS, type PickedTargets } from '../../components/TargetPickers.tsx';
import { questionBody, type FormQuestions } from '../../entities/forms/index.ts';
import { isChosen, NO_SENDER, type SenderChoice } from '../../entities/messages/index.ts';
import { postAtOf } from '../../lib/schedule-time.ts';

/** Step 1 'Create Form': sender, name, targets and when. */
export type FormStart = {
  sender: SenderChoice;
  name: string;
  /** DM members, tags and channels' members. */
  dm: PickedTargets;
  /** Post in channels. */
  post: string[];
  recurring: boolean;
  /** One time: 'Send Instantaneous', else at `at`. */
  instant: boolean;
  /** YYYY-MM-DDTHH:MM in the workspace's timezone. */
  at: string;
  frequency: 'Everyday' | 'Weekly' | null;
  days: DayCode[];
  time: string;
};

export const EMPTY_FORM_START: FormStart = {
  sender: NO_SENDER,
  name: '',
  dm: NO_TARGETS,
  post: [],
  recurring: false,
  instant: true,
  at: '',
  frequency: null,
  days: [],
  time: '',
};

/**
 * Step 1's problems: `basic` keeps Next disabled (name, sender); `detail` shows when Next is
 * pressed (targets, the schedule).
 */
export function startProblems(
  s: FormStart,
  timeZone: string,
  now = Date.now(),
): { basic: string | null; detail: string | null } {
  if (!s.name.trim() || !isChosen(s.sender)) return { basic: FORM_TEXTS.noFieldEmpty, detail: null };
  if (s.name.trim().length > FORM_LIMITS.name) return { basic: FORM_TEXTS.nameTooLong, detail: null };
  if (s.dm.members.length + s.dm.tags.length + s.dm.channels.length + s.post.length === 0)
    return { basic: null, detail: FORM_TEXTS.createTarget };
  if (s.recurring) {
    if (!s.frequency || !/^\d{2}:\d{2}$/.test(s.time) || (s.frequency === 'Weekly' && s.days.length === 0))
      return { basic: null, detail: FORM_TEXTS.noFieldEmpty };
    return { basic: null, detail: null };
  }
  if (s.instant) return { basic: null, detail: null };
  const post = postAtOf(s.at);
  const at = post ? parseLocalDateTime(post.date, post.time, timeZone) : null;
  if (at === null) return { basic: null, detail: FORM_TEXTS.noFieldEmpty };
  if (at <= now) return { basic: null, detail: FORM_TEXTS.pastTime };
  return { basic: null, detail: null };
}

/** The POST /actions/createform body of a finished draft. */
export function createFormBody(teamId: string, s: FormStart, q: FormQuestions): CreateFormRequest {
  const when = s.recurring
    ? { recurring: true, frequency: s.frequency!, time: s.time, days: s.frequency === 'Weekly' ? s.days : [] }
    : s.instant
      ? { recurring: false, instant: true }
      : { recurring: false, instant: false, post_at: postAtOf(s.at) ?? undefined };
  return {
    team_id: teamId,
    form_title: s.name.trim(),
    form_description: q.description.trim(),
    sender: s.sender.sender ?? 'bot',
    admin_user: s.sender.sender === 'admin' ? s.sender.adminUser : null,
    channel_ids: s.post,
    dms: { members: s.dm.members, tags: s.dm.tags.map(Number), channels: s.dm.channels },
    ...when,
    questions: q.questions.map(questionBody),
    ackMessage: q.ackMessage.trim() || DEFAULT_ACK_MESSAGE,
  };
}
