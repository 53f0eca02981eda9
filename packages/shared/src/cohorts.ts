import { z } from 'zod';
import { isCalendarDay, latestDay } from './input.ts';
import { toCsv, type CsvValue } from './csv.ts';

/*
 * Retention by join cohort (Analytics). A cohort is the members (not bots) whose join day, a local day in the
 * workspace's timezone, falls in one week (Monday to Sunday) or one calendar month. For each member, week k is
 * the local days join day + 7k .. join day + 7k + 6; the member is active in week k with at least one message,
 * reply or reaction on those days. A cell is the share of the cohort's members who have reached week k (its
 * first day is today or earlier) that were active in it; the current week counts so far. Members who left
 * stay in their cohort; members with no join date (they joined before the history Flywheel holds) are in none.
 */

export const COHORT_PERIODS = ['week', 'month'] as const;
export type CohortPeriod = (typeof COHORT_PERIODS)[number];
export const MAX_COHORTS = 12;
export const MAX_COHORT_WEEKS = 12;

const count = (field: string, max: number) =>
  z.coerce
    .number({ error: `${field} must be a whole number from 1 to ${max}` })
    .int(`${field} must be a whole number from 1 to ${max}`)
    .min(1, `${field} must be at least 1`)
    .max(max, `${field} must be at most ${max}`);

/** GET /analytics/cohorts/:teamId?period=week|month&cohorts=1..12&weeks=1..12&end=YYYY-MM-DD */
export const cohortsQuery = z.object({
  period: z.enum(COHORT_PERIODS, { error: "period must be 'week' or 'month'" }).default('week'),
  cohorts: count('cohorts', MAX_COHORTS).default(MAX_COHORTS),
  weeks: count('weeks', MAX_COHORT_WEEKS).default(MAX_COHORT_WEEKS),
  /** A day in the latest cohort's period (today by default). */
  end: z
    .string({ error: 'end must be a date YYYY-MM-DD' })
    .refine(isCalendarDay, 'end must be a date YYYY-MM-DD')
    .refine((d) => d <= latestDay(), 'end must not be in the future')
    .optional(),
});
export type CohortsQuery = z.infer<typeof cohortsQuery>;

/** One cell: of the `eligible` members who reached the week, `active` were active; `percent` one decimal. */
export const cohortCellSchema = z.object({
  week: z.number(),
  active: z.number(),
  eligible: z.number(),
  percent: z.number(),
});
export type CohortCell = z.infer<typeof cohortCellSchema>;

export const cohortRowSchema = z.object({
  /** First and last local day of the period (the last may be after today for the current period). */
  start: z.string(),
  end: z.string(),
  members: z.number(),
  /** One per week since joining, 0 first; null where no member of the cohort has reached the week. */
  cells: z.array(cohortCellSchema.nullable()),
});
export type CohortRow = z.infer<typeof cohortRowSchema>;

export const cohortsResponse = z.object({
  data: z.object({
    period: z.enum(COHORT_PERIODS),
    timezone: z.string(),
    today: z.string(),
    weeks: z.number(),
    /** Oldest first. */
    cohorts: z.array(cohortRowSchema),
  }),
});
export type CohortGrid = z.infer<typeof cohortsResponse>['data'];

/** A cohort's label: "Week of 2026-10-19" or "October 2026". */
export function cohortLabel(period: CohortPeriod, start: string): string {
  if (period === 'week') return `Week of ${start}`;
  const d = new Date(`${start}T00:00:00Z`);
  return d.toLocaleString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The grid as CSV: cohort, its first and last day, size, then per week the percent and the counts. */
export function cohortsCsv(grid: CohortGrid): string {
  const weeks = Array.from({ length: grid.weeks }, (_, k) => k);
  const headers = [
    'Cohort',
    'Start',
    'End',
    'Members',
    ...weeks.flatMap((k) => [`Week ${k} %`, `Week ${k} active`, `Week ${k} reached`]),
  ];
  const rows = grid.cohorts.map((c): CsvValue[] => [
    cohortLabel(grid.period, c.start),
    c.start,
    c.end,
    c.members,
    ...weeks.flatMap((k): CsvValue[] => {
      const cell = c.cells[k];
      return cell ? [cell.percent, cell.active, cell.eligible] : ['', '', ''];
    }),
  ]);
  return toCsv(headers, rows);
}
