import { LEVEL_LABELS, type EngagementLevel } from '@flywheel/shared/levels';
import { parseLocalDateTime } from '@flywheel/shared/clock';
import { FORM_LIMITS, FORM_TEXTS, DEFAULT_ACK_MESSAGE } from '@flywheel/shared/forms';
import {
  timeTriggerProblem,
  TRIGGER_LABELS,
  WORKFLOW_LIMITS,
  WORKFLOW_TEXTS,
  type CreateWorkflowRequest,
  type DelayUnit,
  type TriggerType,
  type WorkflowTaskInput,
} from '@flywheel/shared/workflows';
import { hasInvalidCharacters, DELIVERY_TEXTS } from '@flywheel/shared/delivery';
import { EMPTY_EDITOR_VALUE, type EditorValue } from '../../components/RichEditor.tsx';
import { NO_TARGETS, type PickedTargets } from '../../components/TargetPickers.tsx';
import {
  emptyQuestions,
  questionBody,
  questionProblems,
  type FormQuestions,
} from '../../entities/forms/index.ts';
import { isChosen, NO_SENDER, type SenderChoice } from '../../entities/messages/index.ts';

/*
 * The create page's card flow: a trigger card, then delay and action cards, each
 * edited in its dialog. The drafts hold what the dialogs show; `workflowBody` turns the cards into the
 * createWorkflowBody payload.
 */

/** The dialog's trigger types: Member Activity covers activity and inactivity (the Active / Inactive choice). */
export type TriggerChoice = 'time' | 'workspace_join' | 'channel_join' | 'member_activity' | 'level_change';
export const TRIGGER_CHOICES: { value: TriggerChoice; label: string }[] = [
  { value: 'time', label: TRIGGER_LABELS.time },
  { value: 'workspace_join', label: TRIGGER_LABELS.workspace_join },
  { value: 'channel_join', label: TRIGGER_LABELS.channel_join },
  { value: 'member_activity', label: TRIGGER_LABELS.activity },
  { value: 'level_change', label: TRIGGER_LABELS.level_change },
];

export type TriggerDraft = {
  name: string;
  sender: SenderChoice;
  type: TriggerChoice | null;
  /** Member Activity: crossing the threshold up (active) or down (inactive). */
  activity: 'activity' | 'inactivity' | null;
  /** Member Activity: the time range in days, as typed. */
  days: string;
  /** Channel Join: the channel watched. */
  channel: string | null;
  /** Member Level: the engagement level a member becomes. */
  level: EngagementLevel | null;
  /** Time Trigger: DD/MM/YYYY and HH:MM in the workspace's timezone. */
  date: string;
  time: string;
  /** Time Trigger: its audience (tag ids and bucket ids). */
  tags: number[];
  segments: number[];
};

export const EMPTY_TRIGGER: TriggerDraft = {
  name: '',
  sender: NO_SENDER,
  type: null,
  activity: null,
  days: '',
  channel: null,
  level: null,
  date: '',
  time: '',
  tags: [],
  segments: [],
};

export type DelayDraft = { kind: 'none' | 'delay' | null; unit: DelayUnit | null; duration: string };
export const EMPTY_DELAY: DelayDraft = { kind: null, unit: null, duration: '' };

export type ActionDraft = {
  type: 'message' | 'form' | null;
  msgTitle: string;
  message: EditorValue;
  files: File[];
  formTitle: string;
  form: FormQuestions;
  sendToWorkspace: boolean;
  sendToSelectedUsers: boolean;
  /** Post in these channels. */
  channels: string[];
  /** DM these members, tags' members and channels' members. */
  dm: PickedTargets;
  /** Time triggers: DM these of the trigger's tags and segments. */
  triggerTags: number[];
  triggerSegments: number[];
};

export const emptyAction = (): ActionDraft => ({
  type: null,
  msgTitle: '',
  message: EMPTY_EDITOR_VALUE,
  files: [],
  formTitle: '',
  form: emptyQuestions(),
  sendToWorkspace: false,
  sendToSelectedUsers: false,
  channels: [],
  dm: NO_TARGETS,
  triggerTags: [],
  triggerSegments: [],
});

export type FlowCard =
  | { kind: 'trigger'; id: number; draft: TriggerDraft }
  | { kind: 'delay'; id: number; draft: DelayDraft }
  | { kind: 'action'; id: number; draft: ActionDraft };

/** What may follow the last card: a delay, an action, both, or nothing (up to 11 cards). */
export function nextSteps(cards: readonly FlowCard[]): { delay: boolean; action: boolean } {
  const last = cards[cards.length - 1];
  if (!last || cards.length >= WORKFLOW_LIMITS.cards) return { delay: false, action: false };
  // Index 10 is forced last: it can only be an action (a delay there would have nothing after it).
  const lastSlot = cards.length === WORKFLOW_LIMITS.cards - 1;
  return { delay: last.kind !== 'delay' && !lastSlot, action: true };
}

/** Save needs more than one step and a flow that ends in an action. */
export const canSave = (cards: readonly FlowCard[]) =>
  cards.length > 1 && cards[cards.length - 1]?.kind === 'action';

export const triggerTypeOf = (d: TriggerDraft): TriggerType | null =>
  d.type === 'member_activity' ? d.activity : d.type;

export type Problems<K extends string> = Partial<Record<K, string>>;
export type TriggerField =
  'name' | 'sender' | 'type' | 'channel' | 'level' | 'activity' | 'days' | 'date' | 'time';

/** The earliest and latest a time trigger may be set to (15 minutes to 30 days ahead). */
export const timeBounds = (now: number) => ({
  min: now + WORKFLOW_LIMITS.minLeadMs,
  max: now + WORKFLOW_LIMITS.maxLeadMs,
});

/** The trigger dialog's problems, by field. */
export function triggerProblems(d: TriggerDraft, timeZone: string, now: number): Problems<TriggerField> {
  const p: Problems<TriggerField> = {};
  const name = d.name.trim();
  if (!name) p.name = WORKFLOW_TEXTS.nameEmpty;
  else if (name.length > WORKFLOW_LIMITS.name) p.name = WORKFLOW_TEXTS.nameTooLong;
  else if (hasInvalidCharacters(name)) p.name = DELIVERY_TEXTS.invalidCharacters;
  if (!d.sender.sender) p.sender = WORKFLOW_TEXTS.chooseSender;
  else if (!isChosen(d.sender)) p.sender = WORKFLOW_TEXTS.chooseAdmin;
  if (!d.type) p.type = WORKFLOW_TEXTS.chooseType;
  if (d.type === 'channel_join' && !d.channel) p.channel = WORKFLOW_TEXTS.chooseChannel;
  if (d.type === 'level_change' && !d.level) p.level = WORKFLOW_TEXTS.chooseLevel;
  if (d.type === 'member_activity') {
    if (!d.activity) p.activity = WORKFLOW_TEXTS.chooseActivity;
    const days = d.days.trim();
    if (!days) p.days = WORKFLOW_TEXTS.daysEmpty;
    else if (
      !/^-?\d+$/.test(days) ||
      Number(days) < WORKFLOW_LIMITS.activityDaysMin ||
      Number(days) > WORKFLOW_LIMITS.activityDaysMax
    )
      p.days = WORKFLOW_TEXTS.daysRange;
  }
  if (d.type === 'time') {
    const why = timeTriggerProblem(
      d.date,
      d.time,
      (date, time) => parseLocalDateTime(date, time, timeZone),
      now,
    );
    if (why === WORKFLOW_TEXTS.timeMissing) p.time = why;
    else if (why) p.date = why;
  }
  return p;
}

export type DelayField = 'kind' | 'unit' | 'duration';

/** The 'Set Delay' dialog's problems. */
export function delayProblems(d: DelayDraft): Problems<DelayField> {
  const p: Problems<DelayField> = {};
  if (!d.kind) p.kind = WORKFLOW_TEXTS.chooseDelayType;
  if (d.kind !== 'delay') return p;
  if (!d.unit) p.unit = WORKFLOW_TEXTS.chooseDelayUnit;
  const n = Number(d.duration);
  if (!d.duration.trim() || !Number.isInteger(n) || n <= 0) p.duration = WORKFLOW_TEXTS.delayPositive;
  else if (d.unit && n > WORKFLOW_LIMITS.delayMax[d.unit]) p.duration = WORKFLOW_TEXTS.delayMax(d.unit);
  return p;
}

export type ActionField = 'type' | 'recipients' | 'msgTitle' | 'message' | 'formTitle' | 'form';

/** The 'Create an Action' dialog's problems; `form` is the question editor's first. */
export function actionProblems(d: ActionDraft, triggerType: TriggerType | null): Problems<ActionField> {
  const p: Problems<ActionField> = {};
  if (!d.type) p.type = WORKFLOW_TEXTS.chooseActionType;
  const time = triggerType === 'time';
  const recipients =
    d.sendToWorkspace ||
    (!time && d.sendToSelectedUsers) ||
    d.channels.length + d.dm.members.length + d.dm.tags.length + d.dm.channels.length > 0 ||
    (time && d.triggerTags.length + d.triggerSegments.length > 0);
  if (!recipients) p.recipients = WORKFLOW_TEXTS.chooseRecipient;
  if (d.type === 'message') {
    const title = d.msgTitle.trim();
    if (!title) p.msgTitle = WORKFLOW_TEXTS.messageTitleEmpty;
    else if (title.length > WORKFLOW_LIMITS.messageTitle) p.msgTitle = WORKFLOW_TEXTS.messageTitleTooLong;
    if (!d.message.text.trim() && !d.message.mrkdwn.trim()) p.message = WORKFLOW_TEXTS.messageEmpty;
    else if (hasInvalidCharacters(d.message.text) || hasInvalidCharacters(d.message.mrkdwn))
      p.message = DELIVERY_TEXTS.invalidCharacters;
  }
  if (d.type === 'form') {
    const title = d.formTitle.trim();
    if (!title) p.formTitle = WORKFLOW_TEXTS.formTitleEmpty;
    else if (title.length > FORM_LIMITS.name) p.formTitle = FORM_TEXTS.nameTooLong;
    const q = questionProblems(d.form).first;
    if (q) p.form = q;
  }
  return p;
}

export const hasProblems = (p: Problems<string>) => Object.values(p).some(Boolean);

const plural = (n: number, unit: string) => `${n} ${n === 1 ? unit.replace(/s$/, '') : unit}`;

/** A card's text on the create page. */
export function cardText(card: FlowCard): { title: string; text: string } {
  if (card.kind === 'trigger') {
    const d = card.draft;
    const type = triggerTypeOf(d);
    const text = type ? TRIGGER_LABELS[type] : '';
    return {
      title: d.name.trim(),
      text: type === 'level_change' && d.level ? `${text}: ${LEVEL_LABELS[d.level]}` : text,
    };
  }
  if (card.kind === 'delay') {
    const d = card.draft;
    return {
      title: d.kind === 'delay' && d.unit ? `Wait ${plural(Number(d.duration), d.unit)}` : 'No Delay',
      text: '',
    };
  }
  const d = card.draft;
  return d.type === 'form'
    ? { title: 'Send Form', text: d.formTitle.trim() }
    : { title: 'Send Message', text: d.msgTitle.trim() };
}

/** DD/MM/YYYY as the payload's date with dashes. */
const dashed = (date: string) => date.trim().replace(/\//g, '-');

/**
 * The createWorkflowBody payload of the cards: each action card is a task whose delay is the delay card just
 * before it (null when there is none, or it says No Delay). `images` holds each action card's uploaded image
 * ids, by card id.
 */
export function workflowBody(
  teamId: string,
  cards: readonly FlowCard[],
  images: ReadonlyMap<number, string[]> = new Map(),
): CreateWorkflowRequest {
  const trigger = cards[0]?.kind === 'trigger' ? cards[0].draft : EMPTY_TRIGGER;
  const type = triggerTypeOf(trigger);
  const time = type === 'time';
  const tasks: WorkflowTaskInput[] = [];
  cards.forEach((card, i) => {
    if (card.kind !== 'action') return;
    const before = cards[i - 1];
    const delay =
      before?.kind === 'delay' && before.draft.kind === 'delay' && before.draft.unit
        ? {
            delay_unit: before.draft.unit,
            delay_in_secs: Number(before.draft.duration) * WORKFLOW_LIMITS.delaySeconds[before.draft.unit],
          }
        : null;
    const d = card.draft;
    const common = {
      id: card.id,
      delay,
      channels: d.channels,
      dms: { members: d.dm.members, tags: d.dm.tags.map(Number), channels: d.dm.channels },
      sendToSelectedUsers: !time && d.sendToSelectedUsers,
      sendToWorkspace: d.sendToWorkspace,
      // Only what the trigger still holds (its tags may have changed since the step was written).
      triggerTags: time ? d.triggerTags.filter((t) => trigger.tags.includes(t)) : [],
      triggerSegments: time ? d.triggerSegments.filter((t) => trigger.segments.includes(t)) : [],
    };
    if (d.type === 'form')
      tasks.push({
        type: 'form',
        ...common,
        formTitle: d.formTitle.trim(),
        formDescription: d.form.description.trim(),
        questions: d.form.questions.map(questionBody),
        slack_form_dialog: true,
        ackMessage: d.form.ackMessage.trim() || DEFAULT_ACK_MESSAGE,
      });
    else
      tasks.push({
        type: 'message',
        ...common,
        msgTitle: d.msgTitle.trim(),
        text: d.message.mrkdwn || d.message.text,
        images: images.get(card.id) ?? [],
      });
  });
  return {
    team_id: teamId,
    workflow_name: trigger.name.trim(),
    sender: trigger.sender.sender ?? 'bot',
    admin_user: trigger.sender.sender === 'admin' ? trigger.sender.adminUser : null,
    trigger_type: type ?? 'workspace_join',
    channel: type === 'channel_join' ? trigger.channel : null,
    level: type === 'level_change' ? trigger.level : null,
    days: type === 'activity' || type === 'inactivity' ? Number(trigger.days) : null,
    trigger_at: time ? { date: dashed(trigger.date), time: trigger.time.trim() } : null,
    tags: time ? trigger.tags : [],
    segments: time ? trigger.segments : [],
    tasks,
  };
}
