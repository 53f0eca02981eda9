import { joinCohortReads } from '../../../modules/activity/cohorts.ts';
import { DAY, T, type QueryCase } from './common.ts';

export const activityCohorts: QueryCase[] = [
  {
    file: 'activity-cohorts',
    name: 'joinCohortReads.joinDays',
    run: (db) =>
      joinCohortReads(db).joinDays({
        teamId: T,
        timeZone: 'Europe/Berlin',
        fromDay: '2025-12-01',
        toDay: DAY,
        weeks: 4,
        today: DAY,
      }),
  },
];
