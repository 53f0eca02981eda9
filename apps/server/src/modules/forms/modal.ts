import type { KnownBlock, ModalView } from '@slack/web-api';
import {
  CHECKBOX_JOIN,
  FORM_LIMITS,
  FORM_MODAL_CALLBACK,
  FORM_OPEN_ACTION,
  FORM_TEXTS,
  RATING_SCALE,
  YES_NO,
} from '@flywheel/shared/forms';
import { cutText, storableText } from '@flywheel/shared/text';
import type { StoredAnswer, StoredQuestion } from './table.ts';

/*
 * What Slack shows of a form: the message with its button, the modal built from the questions, and the reading
 * of a view_submission's state.values back into answers (or the errors Slack shows under each input).
 */

/** The modal's answer element inside each question's input block. */
const ANSWER = 'answer';
const blockOf = (index: number) => `q${index}`;

/** Text for mrkdwn: &, < and > escaped as Slack asks, so a form's text cannot mention or link anyone. */
export const mrkdwnEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The form message: its name and description as text (the notification), and the button that opens it. */
export function formMessage(form: { name: string; description: string }, instanceId: number) {
  return {
    text: `*${mrkdwnEscape(form.name)}*\n${mrkdwnEscape(form.description)}`,
    blocks: [
      {
        type: 'actions',
        block_id: 'flywheel_form',
        elements: [
          {
            type: 'button',
            action_id: FORM_OPEN_ACTION,
            value: String(instanceId),
            style: 'primary',
            text: { type: 'plain_text', text: 'Fill out the form' },
          },
        ],
      },
    ],
  };
}

const plain = (text: string) => ({ type: 'plain_text' as const, text, emoji: true });
const choices = (labels: readonly string[]) => labels.map((o, n) => ({ text: plain(o), value: String(n) }));

/** The answer element of a question, as Slack's modal inputs hold each type. */
function elementOf(q: StoredQuestion) {
  switch (q.type) {
    case 'mcq':
      return {
        type: 'static_select' as const,
        action_id: ANSWER,
        placeholder: plain('Choose an option'),
        options: choices(q.options),
      };
    case 'checkboxes':
      return { type: 'checkboxes' as const, action_id: ANSWER, options: choices(q.options) };
    case 'rating':
      return { type: 'radio_buttons' as const, action_id: ANSWER, options: choices(RATING_SCALE) };
    case 'yesno':
      return { type: 'radio_buttons' as const, action_id: ANSWER, options: choices(YES_NO) };
    case 'date':
      return { type: 'datepicker' as const, action_id: ANSWER, placeholder: plain('Pick a date') };
    case 'number':
      return {
        type: 'number_input' as const,
        action_id: ANSWER,
        is_decimal_allowed: q.decimal === true,
        ...(typeof q.min === 'number' ? { min_value: String(q.min) } : {}),
        ...(typeof q.max === 'number' ? { max_value: String(q.max) } : {}),
      };
    default:
      return {
        type: 'plain_text_input' as const,
        action_id: ANSWER,
        multiline: q.type === 'descriptive',
        max_length: q.type === 'descriptive' ? FORM_LIMITS.longAnswer : FORM_LIMITS.shortAnswer,
      };
  }
}

/** The modal of one instance: the description, then one input per question (optional ones marked so). */
export function formModal(
  form: { name: string; description: string; questions: StoredQuestion[] },
  instanceId: number,
): ModalView {
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'plain_text', text: form.description } }];
  form.questions.forEach((q, i) => {
    const element = elementOf(q);
    blocks.push({
      type: 'input',
      block_id: blockOf(i),
      label: plain(q.question),
      optional: q.optional,
      ...(q.description ? { hint: plain(q.description) } : {}),
      element,
    });
  });
  return {
    type: 'modal',
    callback_id: FORM_MODAL_CALLBACK,
    private_metadata: JSON.stringify({ instance: instanceId }),
    title: plain(cutText(form.name, 24)),
    submit: plain('Submit'),
    close: plain('Cancel'),
    blocks,
  };
}

/** What a closed form's button opens instead. */
export function closedModal(): ModalView {
  return {
    type: 'modal',
    title: plain('Form'),
    close: plain('Close'),
    blocks: [{ type: 'section', text: { type: 'plain_text', text: FORM_TEXTS.closed } }],
  };
}

/** An element's state, in the shape Slack sends for its type. */
type StateValue = {
  type?: string;
  /** plain_text_input, number_input. */
  value?: string | null;
  /** static_select, radio_buttons. */
  selected_option?: { value?: string } | null;
  /** checkboxes. */
  selected_options?: { value?: string }[] | null;
  /** datepicker: YYYY-MM-DD. */
  selected_date?: string | null;
};
export type StateValues = Record<string, Record<string, StateValue>>;

/**
 * Reads a view_submission's `state.values` against the questions: the answers, or the errors Slack shows
 * under each input (`response_action: 'errors'`, keyed by block_id), as Slack's own client would not catch
 * them all (a blank answer of spaces, an option that is not the question's, a text over its limit).
 */
export function readAnswers(
  questions: StoredQuestion[],
  values: StateValues,
): { answers: StoredAnswer[] } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const answers = questions.map((q, i): StoredAnswer => {
    const block = blockOf(i);
    const read = readOne(q, values[block]?.[ANSWER]);
    if ('error' in read) errors[block] = read.error;
    else if (!read.answer && !q.optional) errors[block] = FORM_TEXTS.answerRequired;
    return 'error' in read ? { question: q.question, answer: '' } : { question: q.question, ...read };
  });
  return Object.keys(errors).length > 0 ? { errors } : { answers };
}

/** The option a picked value (its index) names, among `labels`. */
const pick = (labels: readonly string[], value: string | undefined | null) =>
  value !== undefined && value !== null && /^\d+$/.test(value) ? labels[Number(value)] : undefined;

/** One question's answer from its element's state ('' when left empty), or the error shown under it. */
function readOne(
  q: StoredQuestion,
  entry: StateValue | undefined,
): { answer: string; values?: string[] } | { error: string } {
  switch (q.type) {
    case 'mcq':
    case 'rating':
    case 'yesno': {
      const picked = entry?.selected_option?.value;
      if (picked === undefined || picked === null || picked === '') return { answer: '' };
      const labels = q.type === 'mcq' ? q.options : q.type === 'rating' ? RATING_SCALE : YES_NO;
      const option = pick(labels, picked);
      return option === undefined ? { error: FORM_TEXTS.chooseOption } : { answer: option };
    }
    case 'checkboxes': {
      const picked = (entry?.selected_options ?? []).map((o) => pick(q.options, o?.value));
      if (picked.some((o) => o === undefined)) return { error: FORM_TEXTS.chooseOption };
      // In the question's order, each once.
      const chosen = q.options.filter((o) => picked.includes(o));
      return { answer: chosen.join(CHECKBOX_JOIN), values: chosen };
    }
    case 'date': {
      const d = entry?.selected_date ?? '';
      if (!d) return { answer: '' };
      return isDate(d) ? { answer: d } : { error: FORM_TEXTS.notADate };
    }
    case 'number': {
      const raw = (entry?.value ?? '').trim();
      if (!raw) return { answer: '' };
      if (!/^[-+]?(\d+\.?\d*|\.\d+)$/.test(raw)) return { error: FORM_TEXTS.notANumber };
      const n = Number(raw);
      if (!Number.isFinite(n)) return { error: FORM_TEXTS.notANumber };
      if (!q.decimal && !Number.isInteger(n)) return { error: FORM_TEXTS.notWhole };
      if (typeof q.min === 'number' && n < q.min) return { error: FORM_TEXTS.tooSmall(q.min) };
      if (typeof q.max === 'number' && n > q.max) return { error: FORM_TEXTS.tooLarge(q.max) };
      return { answer: String(n) };
    }
    default: {
      // What PostgreSQL cannot hold (a NUL byte, half of an emoji) is dropped, not a failed submission.
      const answer = storableText(entry?.value ?? '').trim();
      const max = q.type === 'descriptive' ? FORM_LIMITS.longAnswer : FORM_LIMITS.shortAnswer;
      return answer.length > max ? { error: FORM_TEXTS.answerTooLong(max) } : { answer };
    }
  }
}

/** A real calendar date, YYYY-MM-DD. */
function isDate(d: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(d);
  if (!m) return false;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return at.toISOString().slice(0, 10) === d;
}

/** The instance a modal belongs to, from its private_metadata. */
export function instanceOfModal(privateMetadata: string | undefined): number | null {
  try {
    const id = (JSON.parse(privateMetadata ?? '') as { instance?: unknown }).instance;
    return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
  } catch {
    return null;
  }
}
