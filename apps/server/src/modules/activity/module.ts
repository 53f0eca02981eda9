import { defineModule } from '../module.ts';
import { levelsJob, windowsJob } from './jobs.ts';

/** Activity: the rollups ingestion keeps, the standing windows and the reads over them. */
export const activityModule = defineModule({ name: 'activity', jobs: [windowsJob, levelsJob] });
