import { defineModule } from '../module.ts';
import { drainJob, housekeepingJob } from './jobs.ts';
import { eventListenersOf } from './listeners.ts';
import { eventsService } from './service.ts';

/**
 * Slack intake: /slack/events and /slack/interactivity (routes.ts, mounted by app.ts at the root), the inbox
 * (one row per event_id) and its drain, which applies each batch's facts and rollups and then hands every event
 * to the listeners other modules register (listeners.ts).
 */
export const intakeModule = defineModule({
  name: 'intake',
  needs: ['workspaces'],
  provides: ['events'],
  services: (k, { workspaces }) => ({
    events: eventsService({
      db: k.database.db,
      logger: k.logger,
      workspaces,
      listeners: eventListenersOf(k.modules),
      // The listeners get the whole context (scope.ctx), which exists once every service is built: late-bound.
      ctx: k.context,
    }),
  }),
  jobs: [drainJob, housekeepingJob],
});
