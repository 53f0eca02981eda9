import { defineModule } from '../module.ts';
import { drainJob, housekeepingJob } from './jobs.ts';

/**
 * Slack intake: /slack/events and /slack/interactivity (routes.ts, mounted by app.ts at the root), the inbox
 * (one row per event_id) and its drain, which applies each batch's facts and rollups and then hands every event
 * to the listeners other modules register (listeners.ts).
 */
export const intakeModule = defineModule({ name: 'intake', jobs: [drainJob, housekeepingJob] });
