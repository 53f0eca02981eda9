import {
  DEFAULT_ACK_MESSAGE,
  FORM_LIMITS,
  FORM_TEXTS,
  NUMBER_BOUND,
  OPTION_TYPES,
  type QuestionType,
} from '@flywheel/shared/forms';

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
  /** A number question: its bounds as typed ('' when open) and whether decimals are allowed. */
  min: string;
  max: string;
  decimal: boolean;
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
  options: OPTION_TYPES.includes(type) ? ['', ''] : [],
  min: '',
  max: '',
  decimal: false,
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
  checkboxes: 'Checkboxes (several answers)',
  number: 'Number',
  date: 'Date',
  rating: 'Rating 1-5',
  yesno: 'Yes / No',
};

/** What a member sees in Slack for the types with nothing to set. */
export const QUESTION_TYPE_HINT: Partial<Record<QuestionType, string>> = {
  date: 'Members pick a date.',
  rating: 'Members pick 1, 2, 3, 4 or 5; the results show the average.',
  yesno: 'Members pick Yes or No.',
};

const boundOf = (s: string): number | null => (s.trim() === '' ? null : Number(s.trim()));

/** The API's question of a draft (a number question with its bounds, options only where they are picked). */
export type QuestionBody = {
  question: string;
  description: string;
  type: QuestionType;
  optional: boolean;
  options: string[];
  min?: number | null;
  max?: number | null;
  decimal?: boolean;
};
export const questionBody = (q: DraftQuestion): QuestionBody => ({
  question: q.heading.trim(),
  description: q.description.trim(),
  type: q.type,
  optional: q.optional,
  options: OPTION_TYPES.includes(q.type) ? q.options.map((o) => o.trim()) : [],
  ...(q.type === 'number' ? { min: boundOf(q.min), max: boundOf(q.max), decimal: q.decimal } : {}),
});

/** A number question's bounds problem, named by field; null when they are fine. */
function boundsProblem(q: DraftQuestion): { min: string | null; max: string | null } {
  if (q.type !== 'number') return { min: null, max: null };
  const check = (s: string): string | null => {
    const n = boundOf(s);
    if (n === null) return null;
    if (!Number.isFinite(n)) return 'Enter a number';
    if (Math.abs(n) > NUMBER_BOUND) return FORM_TEXTS.boundsRange;
    if (!q.decimal && !Number.isInteger(n)) return FORM_TEXTS.wholeBounds;
    return null;
  };
  const min = check(q.min);
  let max = check(q.max);
  const [lo, hi] = [boundOf(q.min), boundOf(q.max)];
  if (!min && !max && lo !== null && hi !== null && lo > hi) max = FORM_TEXTS.numberBounds;
  return { min, max };
}

/** Step 2's problems, per field; null when the step is valid. */
export type QuestionProblems = {
  description: string | null;
  questions: Record<
    number,
    { heading: string | null; options: (string | null)[]; min: string | null; max: string | null }
  >;
  first: string | null;
};

export function questionProblems(q: FormQuestions): QuestionProblems {
  const description = !q.description.trim() ? FORM_TEXTS.descriptionEmpty : null;
  const questions: QuestionProblems['questions'] = {};
  let first: string | null = description;
  if (q.questions.length === 0) first ??= FORM_TEXTS.noQuestions;
  for (const question of q.questions) {
    const heading = !question.heading.trim() ? FORM_TEXTS.questionEmpty : null;
    const picks = OPTION_TYPES.includes(question.type);
    const options = picks ? question.options.map((o) => (o.trim() ? null : FORM_TEXTS.optionEmpty)) : [];
    let optionsProblem: string | null = options.find((o) => o !== null) ?? null;
    if (picks && question.options.length === 0) optionsProblem = FORM_TEXTS.optionEmpty;
    if (picks && question.options.length > FORM_LIMITS.options) optionsProblem = FORM_TEXTS.maxOptions;
    const bounds = boundsProblem(question);
    questions[question.id] = { heading, options, ...bounds };
    first ??= heading ?? optionsProblem ?? bounds.min ?? bounds.max;
  }
  return { description, questions, first };
}
