import { z } from 'zod';

/**
 * Engagement levels (docs/product/members.md, "Engagement levels"). Every member who is not a bot and has not
 * left has exactly one, computed from whole local days of the workspace's timezone; "active on a day" means at
 * least one message, reply or reaction that day, in any channel.
 *
 * In this order, the first that applies:
 * - Newcomer: joined the workspace in the last 30 days (today included).
 * - Champion: active in the last 14 days, on at least 12 of the last 28 days, with at least 20 messages and
 *   replies in those 28 days.
 * - Regular: active in the last 14 days and on at least 4 of the last 28 days.
 * - Slipping: last active 14 to 27 days ago, and on at least 4 of the 28 days ending that last active day (so was
 *   Regular or Champion when last seen).
 * - Casual: active in the last 28 days.
 * - Dormant: not active in the last 28 days (or never).
 */
export const ENGAGEMENT_LEVELS = [
  'champion',
  'regular',
  'casual',
  'newcomer',
  'slipping',
  'dormant',
] as const;
export type EngagementLevel = (typeof ENGAGEMENT_LEVELS)[number];

export const LEVEL_LABELS: Record<EngagementLevel, string> = {
  champion: 'Champion',
  regular: 'Regular',
  casual: 'Casual',
  newcomer: 'Newcomer',
  slipping: 'Slipping',
  dormant: 'Dormant',
};

/** One line per level, for the filter's and the member page's explanations. */
export const LEVEL_RULES: Record<EngagementLevel, string> = {
  newcomer: 'Joined in the last 30 days',
  champion: 'Active on 12 or more of the last 28 days, with 20 or more messages and replies',
  regular: 'Active on 4 or more of the last 28 days, and in the last 14',
  slipping: 'Was a Regular or Champion, quiet for the last 14 days',
  casual: 'Active in the last 28 days, less often',
  dormant: 'Not active in the last 28 days',
};

/** The thresholds of the rules above (the SQL and the reference implementation both read these). */
export const LEVEL_RULE = {
  newcomerDays: 30,
  windowDays: 28,
  recentDays: 14,
  championActiveDays: 12,
  championPosts: 20,
  regularActiveDays: 4,
} as const;

/** A member's activity as the rules see it, on local day `today` (days as YYYY-MM-DD). */
export type LevelInput = {
  /** The local day the member joined, when Flywheel knows it. */
  joinedDay: string | null;
  /** Local days with any activity (messages + replies + reactions > 0), with messages + replies that day. */
  days: { day: string; posts: number }[];
};

const dayNumber = (d: string) => Math.round(Date.parse(`${d}T00:00:00Z`) / 86_400_000);

/**
 * The rules in plain code: the reference the SQL is tested against (and the documentation's example).
 */
export function levelOf(input: LevelInput, today: string): EngagementLevel {
  const t = dayNumber(today);
  const r = LEVEL_RULE;
  if (input.joinedDay !== null && t - dayNumber(input.joinedDay) < r.newcomerDays) return 'newcomer';
  const active = input.days.map((d) => ({ n: dayNumber(d.day), posts: d.posts })).filter((d) => d.n <= t);
  if (active.length === 0) return 'dormant';
  const last = Math.max(...active.map((d) => d.n));
  const inWindow = (end: number) => active.filter((d) => d.n > end - r.windowDays && d.n <= end);
  const window = inWindow(t);
  const posts = window.reduce((s, d) => s + d.posts, 0);
  if (t - last < r.recentDays) {
    if (window.length >= r.championActiveDays && posts >= r.championPosts) return 'champion';
    if (window.length >= r.regularActiveDays) return 'regular';
    return 'casual';
  }
  if (t - last < r.windowDays) {
    return inWindow(last).length >= r.regularActiveDays ? 'slipping' : 'casual';
  }
  return 'dormant';
}

export const levelChangeSchema = z.object({
  /** null: the first level Flywheel computed for the member. */
  from: z.enum(ENGAGEMENT_LEVELS).nullable(),
  to: z.enum(ENGAGEMENT_LEVELS),
  /** The local day of the change (YYYY-MM-DD). */
  day: z.string(),
});
export type LevelChange = z.infer<typeof levelChangeSchema>;

/** GET /members/levels?team_id=: how many members hold each level. */
export const levelCountsResponse = z.object({
  data: z.array(z.object({ level: z.enum(ENGAGEMENT_LEVELS), count: z.number() })),
  /** The local day the levels were last computed for (null: not yet). */
  day: z.string().nullable(),
});
export type LevelCounts = z.infer<typeof levelCountsResponse>;

/** A members filter's `levels`: members holding any of them. */
export const levelsFilter = z
  .array(z.enum(ENGAGEMENT_LEVELS, { error: `levels must be among ${ENGAGEMENT_LEVELS.join(', ')}` }), {
    error: 'levels must be a list of levels',
  })
  .max(ENGAGEMENT_LEVELS.length, 'levels: at most six levels')
  .nullish();
