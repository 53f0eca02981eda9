import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { fromLoopback } from '../mail/routes.ts';

/**
 * The test clock, for the end-to-end suite (DEV_CLOCK; config.ts refuses it in production). Engagement levels
 * look at whole local days, and a member goes from Regular to Slipping only when days pass without activity: in
 * a browser test, days cannot pass. `levelsDaysAhead` moves the local day `activity.levels.refresh` computes the
 * levels for that many days past today (levels.ts `refreshLevels`), as if those days had passed with nobody
 * active; the job runs on its own tick as ever, and records each change at the real time, so what follows a change
 * (a workflow's Member Level trigger, its steps, their sends) runs on the real clock. Nothing else reads it.
 *
 * The value lives in this process: it serves a single process that runs both the API and the workers (ROLE=all,
 * as the end-to-end servers do).
 */
export type DevClock = { levelsDaysAhead: number };

export const devClockBody = z.object({
  levels_days_ahead: z
    .number({ error: 'levels_days_ahead must be a whole number of days' })
    .int('levels_days_ahead must be a whole number of days')
    .min(0, 'levels_days_ahead must be 0 or more')
    .max(60, 'levels_days_ahead must be at most 60'),
});

const devClockResponse = z.object({ levels_days_ahead: z.number() });

/**
 * GET and POST /api/dev/clock: the test clock, registered only with DEV_CLOCK (app.ts), answering requests
 * from this machine only (as the development outbox does). Setting it queues the levels job (`onSet`).
 */
export function devClockRoutes(clock: DevClock, onSet: () => Promise<void>) {
  // Before the body is read: another machine learns nothing, not even what the body should be.
  const onRequest = async (req: Parameters<typeof fromLoopback>[0]) => {
    if (!fromLoopback(req))
      throw new AppError('FORBIDDEN', 403, 'The test clock answers only on the machine the server runs on');
  };
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    r.get(
      '/dev/clock',
      { onRequest, schema: { tags: ['dev'], response: { 200: devClockResponse } } },
      async () => ({ levels_days_ahead: clock.levelsDaysAhead }),
    );
    r.post(
      '/dev/clock',
      { onRequest, schema: { tags: ['dev'], body: devClockBody, response: { 200: devClockResponse } } },
      async (req) => {
        clock.levelsDaysAhead = req.body.levels_days_ahead;
        // The levels job at once (the process's own worker runs it), rather than at the next minute's tick.
        await onSet();
        return { levels_days_ahead: clock.levelsDaysAhead };
      },
    );
  };
}
