/**
 * What a question is (docs/product/questions.md), once in TypeScript and once as the SQL the queries and the
 * partial index slack_messages_questions_idx use. The two say the same: question-rule.test.ts runs every case
 * through both.
 *
 * A message's text, with code (between backticks: inline code and code blocks) and links (Slack's `<...>`
 * tokens, which also hold mentions, and bare http(s) URLs) taken out, is a question when it holds a question
 * mark or opens with one of QUESTION_WORDS (any case).
 */
export const QUESTION_WORDS = [
  'who',
  'whom',
  'whose',
  'what',
  'when',
  'where',
  'why',
  'how',
  'which',
  'is',
  "isn't",
  'are',
  "aren't",
  'am',
  'was',
  'were',
  'can',
  "can't",
  'could',
  'does',
  "doesn't",
  'do',
  "don't",
  'did',
  "didn't",
  'should',
  'would',
  'will',
  "won't",
  'shall',
  'may',
  'might',
  'anyone',
  'anybody',
  'has',
  'have',
  'had',
] as const;

/** Code, Slack's `<...>` tokens (links, mentions) and bare URLs: what the rule ignores. */
const IGNORED = '`[^`]*`|<[^>]*>|https?://[^ \\t\\r\\n]+';
// Longest first: the alternation takes the first word that fits, and a word must end where the text does or a
// non-word character follows (so "is" does not open "island").
const words = [...QUESTION_WORDS].sort((a, b) => b.length - a.length).join('|');
const MATCH = `\\?|^[ \\t\\r\\n]*(${words})($|[^a-z0-9_])`;

const ignoredJs = new RegExp(IGNORED, 'g');
const matchJs = new RegExp(MATCH, 'i');

/** The rule in TypeScript. */
export function isQuestionText(text: string): boolean {
  return matchJs.test(text.replace(ignoredJs, ' '));
}

/** A SQL string literal (standard_conforming_strings: only quotes doubled). */
const literal = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The rule as a SQL condition on `<alias>.text` (alias '' for the bare column, as the index's predicate has
 * it). Constants only, no parameters: a query holding it word for word is served by the partial index.
 */
export function questionCondition(alias = ''): string {
  const col = alias ? `${alias}.text` : 'text';
  return `regexp_replace(${col}, ${literal(IGNORED)}, ' ', 'g') ~* ${literal(MATCH)}`;
}
