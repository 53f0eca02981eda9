import type { KnownBlock, ModalView } from '@slack/web-api';
import { FORM_LIMITS, FORM_MODAL_CALLBACK, FORM_OPEN_ACTION, FORM_TEXTS } from '@flywheel/shared/forms';
import { cutText, storableText } from '@flywheel/shared/text';
import type { StoredQuestion } from './table.ts';

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

/** The modal of one instance: the description, then one input per question (optional ones marked so). */
export function formModal(
  form: { name: string; description: string; questions: StoredQuestion[] },
  instanceId: number,
): ModalView {
  const blocks: KnownBlock[] = [{ type: 'section', text: { type: 'plain_text', text: form.description } }];
  form.questions.forEach((q, i) => {
    const element =
      q.type === 'mcq'
        ? {
            type: 'static_select' as const,
            action_id: ANSWER,
            placeholder: plain('Choose an option'),
            options: q.options.map((o, n) => ({ text: plain(o), value: String(n) })),
          }
        : {
            type: 'plain_text_input' as const,
            action_id: ANSWER,
            multiline: q.type === 'descriptive',
            max_length: q.type === 'descriptive' ? FORM_LIMITS.longAnswer : FORM_LIMITS.shortAnswer,
          };
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

type StateValue = {
  type?: string;
  value?: string | null;
  selected_option?: { value?: string } | null;
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
): { answers: { question: string; answer: string }[] } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const answers = questions.map((q, i) => {
    const block = blockOf(i);
    const entry = values[block]?.[ANSWER];
    let answer = '';
    if (q.type === 'mcq') {
      const picked = entry?.selected_option?.value;
      if (picked !== undefined && picked !== null && picked !== '') {
        const option = /^\d+$/.test(picked) ? q.options[Number(picked)] : undefined;
        if (option === undefined) errors[block] = FORM_TEXTS.chooseOption;
        else answer = option;
      }
    } else {
      // What PostgreSQL cannot hold (a NUL byte, half of an emoji) is dropped, not a failed submission.
      answer = storableText(entry?.value ?? '').trim();
      const max = q.type === 'descriptive' ? FORM_LIMITS.longAnswer : FORM_LIMITS.shortAnswer;
      if (answer.length > max) errors[block] = FORM_TEXTS.answerTooLong(max);
    }
    if (!answer && !q.optional && !errors[block]) errors[block] = FORM_TEXTS.answerRequired;
    return { question: q.question, answer };
  });
  return Object.keys(errors).length > 0 ? { errors } : { answers };
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
