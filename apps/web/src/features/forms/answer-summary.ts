import {
  CHECKBOX_JOIN,
  RATING_SCALE,
  YES_NO,
  type FormAnswerRow,
  type FormResponses,
} from '@flywheel/shared/forms';

type QuestionDetail = FormResponses['question_details'][number];

/** How many members picked each option, in the question's order (an answer no longer among them is left out). */
export type ChoiceSummary = {
  kind: 'choice';
  question: string;
  type: QuestionDetail['type'];
  answered: number;
  counts: { option: string; count: number }[];
  /** A rating's mean (1-5), rounded to two places; null with no answer. */
  average: number | null;
};

/** A number question's answers: the spread, and bars over ranges of values. */
export type NumberSummary = {
  kind: 'number';
  question: string;
  answered: number;
  min: number | null;
  median: number | null;
  max: number | null;
  average: number | null;
  bins: { range: string; count: number }[];
};

export type AnswerSummary = ChoiceSummary | NumberSummary;

const round2 = (n: number) => Math.round(n * 100) / 100;

function optionsOf(q: QuestionDetail): readonly string[] | null {
  if (q.type === 'mcq' || q.type === 'checkboxes') return q.options;
  if (q.type === 'rating') return RATING_SCALE;
  if (q.type === 'yesno') return YES_NO;
  return null;
}

/** The picks of one answer: a checkboxes answer's values (or its joined text), else the answer itself. */
function picksOf(q: QuestionDetail, a: FormAnswerRow['answers'][number] | undefined): string[] {
  if (!a || a.answer === '') return [];
  if (q.type !== 'checkboxes') return [a.answer];
  return a.values ?? a.answer.split(CHECKBOX_JOIN);
}

export function median(sorted: readonly number[]): number | null {
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const fmt = (n: number) => String(round2(n));

/**
 * Bars over the values: one per value when they are few whole numbers (up to 10 of them from the lowest to
 * the highest), else five equal ranges from the lowest to the highest.
 */
export function binsOf(values: readonly number[]): { range: string; count: number }[] {
  if (values.length === 0) return [];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  if (values.every(Number.isInteger) && hi - lo < 10)
    return Array.from({ length: hi - lo + 1 }, (_, i) => ({
      range: String(lo + i),
      count: values.filter((v) => v === lo + i).length,
    }));
  const n = 5;
  const width = (hi - lo) / n;
  return Array.from({ length: n }, (_, i) => {
    const from = lo + i * width;
    const to = i === n - 1 ? hi : lo + (i + 1) * width;
    return {
      range: `${fmt(from)}–${fmt(to)}`,
      count: values.filter((v) => v >= from && (i === n - 1 ? v <= to : v < to)).length,
    };
  });
}

/**
 * The charts of an instance's answers: a count per option for multiple choice, checkboxes, rating (with its
 * average) and yes/no, and the spread of a number question. Text and date questions have none (the table
 * shows them).
 */
export function summarize(
  questions: readonly QuestionDetail[],
  rows: readonly FormAnswerRow[],
): AnswerSummary[] {
  const out: AnswerSummary[] = [];
  questions.forEach((q, i) => {
    const answers = rows.map((r) => r.answers[i]);
    if (q.type === 'number') {
      const values = answers
        .map((a) => (a && a.answer !== '' ? Number(a.answer) : NaN))
        .filter(Number.isFinite)
        .sort((a, b) => a - b);
      out.push({
        kind: 'number',
        question: q.question,
        answered: values.length,
        min: values[0] ?? null,
        median: median(values),
        max: values.at(-1) ?? null,
        average: values.length ? round2(values.reduce((s, v) => s + v, 0) / values.length) : null,
        bins: binsOf(values),
      });
      return;
    }
    const options = optionsOf(q);
    if (!options) return;
    const picks = answers.map((a) => picksOf(q, a));
    const counts = options.map((option) => ({
      option,
      count: picks.filter((p) => p.includes(option)).length,
    }));
    const answered = picks.filter((p) => p.length > 0).length;
    const ratings = q.type === 'rating' ? picks.flat().map(Number).filter(Number.isFinite) : [];
    out.push({
      kind: 'choice',
      question: q.question,
      type: q.type,
      answered,
      counts,
      average: ratings.length ? round2(ratings.reduce((s, v) => s + v, 0) / ratings.length) : null,
    });
  });
  return out;
}
