import { z } from 'zod';
import { channelIdSchema, cursorSchema, pageLimit, slackTsSchema, threadSchema } from './conversations.ts';
import { rangeQuery } from './analytics.ts';
import { safeText, slackId } from './input.ts';

/**
 * Unanswered questions (Actions > Questions) and response times (Analytics). The rule of what a question is
 * and what answers it: docs/product/questions.md.
 */

/**
 * A question is listed unanswered once this long has passed with no answer (minutes; `answer_after_minutes`;
 * 0 lists it as soon as it is asked).
 */
export const DEFAULT_ANSWER_AFTER_MINUTES = 120;
export const MAX_ANSWER_AFTER_MINUTES = 7 * 24 * 60;
/** How far back the Questions tab looks (days; `max_age_days`). */
export const DEFAULT_QUESTION_AGE_DAYS = 7;
export const MAX_QUESTION_AGE_DAYS = 90;
/** Response times' default range: the last 90 local days, today included. */
export const DEFAULT_RESPONSE_DAYS = 90;

const wholeNumber = (field: string, min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .min(min, `${field} must be at least ${min}`)
    .max(max, `${field} must be at most ${max}`)
    .default(fallback);

/** GET /questions/getquestions/:teamId?channel_id=&max_age_days=&answer_after_minutes=&q=&cursor=&limit= */
export const questionsQuery = z.object({
  channel_id: channelIdSchema('channel_id').optional(),
  max_age_days: wholeNumber('max_age_days', 1, MAX_QUESTION_AGE_DAYS, DEFAULT_QUESTION_AGE_DAYS),
  answer_after_minutes: wholeNumber(
    'answer_after_minutes',
    0,
    MAX_ANSWER_AFTER_MINUTES,
    DEFAULT_ANSWER_AFTER_MINUTES,
  ),
  q: safeText('q', 200).optional(),
  cursor: cursorSchema,
  limit: pageLimit,
});
export type QuestionsQuery = z.infer<typeof questionsQuery>;

/** An unanswered question: a thread card (no replies or reactions by anyone else yet). */
export const questionSchema = threadSchema;
export type Question = z.infer<typeof questionSchema>;
export const questionsResponse = z.object({
  data: z.array(questionSchema),
  /** Every unanswered question the filters match (not only this page). */
  total: z.number().int(),
  next_cursor: z.string().nullable(),
});
export type QuestionsResponse = z.infer<typeof questionsResponse>;

/** POST /questions/markhandled: the question leaves the list for every admin of the workspace. */
export const markHandledBody = z.object({
  team_id: slackId('team_id'),
  channel_id: channelIdSchema('channel_id'),
  ts: slackTsSchema('ts'),
});
export type MarkHandledRequest = z.infer<typeof markHandledBody>;

/** GET /analytics/getresponsetimes/:teamId?days= | start_date=&end_date= (default: the last 90 days). */
export const responseTimesQuery = rangeQuery;

/** Response times of a set of questions (seconds; null when none of them was answered). */
export const responseStatsSchema = z.object({
  questions: z.number().int(),
  answered: z.number().int(),
  median_seconds: z.number().nullable(),
  p90_seconds: z.number().nullable(),
  /** Share of the questions (0..1) answered within 1 hour and within 24 hours; null with no questions. */
  within_1h: z.number().nullable(),
  within_24h: z.number().nullable(),
});
export type ResponseStats = z.infer<typeof responseStatsSchema>;
export const responseTimesResponse = z.object({
  start_date: z.string(),
  end_date: z.string(),
  timezone: z.string(),
  total: responseStatsSchema,
  /** Weeks (Monday to Sunday in the workspace's timezone), oldest first; `week`: the Monday. */
  weeks: z.array(responseStatsSchema.extend({ week: z.string() })),
  /** Channels, most questions first. */
  channels: z.array(responseStatsSchema.extend({ channel_id: z.string(), channel_name: z.string() })),
});
export type ResponseTimesResponse = z.infer<typeof responseTimesResponse>;
