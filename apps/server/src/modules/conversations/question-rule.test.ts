import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isQuestionText, questionCondition } from './question-rule.ts';

const QUESTIONS = [
  'Is the deploy done?',
  'is the deploy done',
  'Where is the staging wiki',
  'WHO owns billing',
  'how do I rotate keys',
  "what's the plan for Friday",
  'Anyone around to review a PR',
  'anybody seen the new dashboard',
  'Can someone help me',
  "Can't log in, what now",
  "Doesn't the bot post on Mondays",
  'Should we move the standup',
  'Has the release shipped',
  'have you tried turning it off',
  'Will the office be open',
  'Which channel is for hiring',
  'Why',
  '  \n  When does the meetup start',
  'See <https://example.com/a|the doc>, thoughts?',
  '<@U0123ABCD> could you look at this',
  'The build broke. Any idea why?',
  'Quick one: `git status` shows nothing?',
  'why?',
  '¿Qué tal? (Spanish: still a question mark)',
];
const NOT_QUESTIONS = [
  'Shipping the release today',
  'Thanks all, great meetup',
  'See <https://example.com/search?q=deploy|the results>',
  'Bare link https://example.com/page?id=3 for the notes',
  'Use `a ? b : c` for that',
  '```\nconst x = y ? 1 : 2;\n```',
  'Island trip photos are up', // "is" opens "Island": not the word
  'However, the build is green', // "how" opens "However"
  'Whatever works for you',
  'Announcement: who-knows-what is not a question',
  '',
  'The team did great. Who knew',
  '<!here> the deploy is done',
];

describe('the question rule', () => {
  it.each(QUESTIONS)('%j is a question', (text) => expect(isQuestionText(text)).toBe(true));
  it.each(NOT_QUESTIONS)('%j is not a question', (text) => expect(isQuestionText(text)).toBe(false));
  // 'Announcement: who-knows-what…' opens with "Announcement", and has no question mark.

  describe('in SQL (PostgreSQL regular expressions, as the queries and the index run it)', () => {
    let pg: PGlite;
    beforeAll(async () => {
      pg = new PGlite();
      await pg.waitReady;
    });
    afterAll(() => pg?.close());

    it('says what the TypeScript rule says, case by case', async () => {
      const cases = [...QUESTIONS, ...NOT_QUESTIONS];
      const res = await pg.query<{ i: number; q: boolean }>(
        `select i, ${questionCondition('v')} as q from unnest($1::text[]) with ordinality as v(text, i) order by i`,
        [cases],
      );
      expect(res.rows.map((r) => r.q)).toEqual(cases.map((c) => isQuestionText(c)));
      expect(res.rows.filter((r) => r.q)).toHaveLength(QUESTIONS.length);
    });

    it("is, word for word, the partial index's predicate in the migration", () => {
      const dir = join(import.meta.dirname, '../../db/migrations');
      const sqls = readdirSync(dir)
        .filter((f) => f.endsWith('.sql'))
        .map((f) => readFileSync(join(dir, f), 'utf8'));
      const index = sqls
        .flatMap((s) => s.split('\n'))
        .find((l) => l.includes('"slack_messages_questions_idx"'));
      expect(index).toContain(`WHERE not is_reply and deleted_at is null and ${questionCondition()};`);
    });
  });
});
