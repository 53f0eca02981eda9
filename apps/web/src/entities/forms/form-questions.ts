import { DEFAULT_ACK_MESSAGE, FORM_LIMITS, FORM_TEXTS, type QuestionType } from '@flywheel/shared/forms';

/*
 * A form's questions while they are written: the forms wizard's
 * second step and a workflow's Send Form action edit the same thing.
 */

/** Editor question. */
export type DraftQuestion = {
  id: number;
  type: QuestionType;
  heading: string;
  description: string;
  optional: boolean;
  options: string[];
};

/** Step 2 'Make Your Form Questions'. */
export type FormQuestions = { description: string; questions: DraftQuestion[]; ackMessage: string };

let nextId = 1;
/** New questions are descriptive and mandatory. */
export const newQuestion = (type: QuestionType = 'descriptive'): DraftQuestion => ({
  id: nextId++,
  type,
  heading: '',
  description: '',
  optional: false,
  options: type === 'mcq' ? ['', ''] : [],
});

export const emptyQuestions = (): FormQuestions => ({
  description: '',
  questions: [newQuestion()],
  ackMessage: DEFAULT_ACK_MESSAGE,
});

export const QUESTION_TYPE_LABEL: Record<QuestionType, string> = {
  descriptive: 'Descriptive',
  mcq: 'Multiple choice',
  shortDesc: 'Short answer',
};

/** Step 2's problems, per field; null when the step is valid. */
export type QuestionProblems = {
  description: string | null;
  questions: Record<number, { heading: string | null; options: (string | null)[] }>;
  first: string | null;
};

export function questionProblems(q: FormQuestions): QuestionProblems {
  const description = !q.description.trim() ? FORM_TEXTS.descriptionEmpty : null;
  const questions: QuestionProblems['questions'] = {};
  let first: string | null = description;
  if (q.questions.length === 0) first ??= FORM_TEXTS.noQuestions;
  for (const question of q.questions) {
    const heading = !question.heading.trim() ? FORM_TEXTS.questionEmpty : null;
    const options =
      question.type === 'mcq' ? question.options.map((o) => (o.trim() ? null : FORM_TEXTS.optionEmpty)) : [];
    let optionsProblem: string | null = options.find((o) => o !== null) ?? null;
    if (question.type === 'mcq' && question.options.length === 0) optionsProblem = FORM_TEXTS.optionEmpty;
    if (question.type === 'mcq' && question.options.length > FORM_LIMITS.options)
      optionsProblem = FORM_TEXTS.maxOptions;
    questions[question.id] = { heading, options };
    first ??= heading ?? optionsProblem;
  }
  return { description, questions, first };
}
