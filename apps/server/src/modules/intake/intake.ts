import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { drainJob } from './jobs.ts';
import { dispatchInteractivity } from './listeners.ts';

/** Asks a worker to apply stored events soon, coalescing the pokes of a burst into one drain job. */
function drainPoker(ctx: AppContext) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    setTimeout(() => {
      pending = false;
      ctx.queue
        .send(drainJob, {})
        .catch((err: unknown) => ctx.logger.error({ err }, 'could not queue the event drain'));
    }, 50).unref();
  };
}

/** Whether a team is connected; a yes is remembered for 30 s (every event delivery asks). */
function knownTeams(ctx: AppContext) {
  const known = new Map<string, number>();
  return async (teamId: string) => {
    const seen = known.get(teamId);
    if (seen && Date.now() - seen < 30_000) return true;
    const ws = await ctx.services.workspaces.find(teamId);
    if (ws) known.set(teamId, Date.now());
    return Boolean(ws);
  };
}

type EventsBody = {
  type?: string;
  challenge?: string;
  event_id?: string;
  team_id?: string;
  event?: { type?: string };
};

export type SlackIntake = ReturnType<typeof createIntake>;

/**
 * What Slack sends, whichever way it comes: the signed POSTs to /slack/events and /slack/interactivity
 * (routes.ts), or the envelopes of a Socket Mode connection (socket-mode.ts). Both call these two functions, so
 * an event is stored once per event_id and an interaction gets the same answer either way.
 */
function createIntake(ctx: AppContext) {
  const isKnownTeam = knownTeams(ctx);
  const onStored = drainPoker(ctx);
  const interactivity = ctx.modules.flatMap((m) => m.interactivity ?? []);
  return {
    /**
     * One Events API body. Resolves once the event is stored (or known, or dropped for a workspace that is not
     * connected): only then may Slack be told it arrived. `raw`: the signed body, stored as is. A body that is not
     * an event_callback Slack sends is a 400 (AppError); url_verification answers its challenge.
     */
    async event(
      body: unknown,
      raw?: string,
      log: Pick<Logger, 'info' | 'warn'> = ctx.logger,
    ): Promise<{ challenge: string } | undefined> {
      if (!body || typeof body !== 'object')
        throw new AppError('VALIDATION_ERROR', 400, 'Expected a JSON object');
      const b = body as EventsBody;
      if (b.type === 'url_verification') return { challenge: String(b.challenge ?? '') };
      if (b.type === 'app_rate_limited') {
        log.warn({ teamId: b.team_id }, 'Slack is rate-limiting event deliveries for this workspace');
        return undefined;
      }
      if (b.type !== 'event_callback')
        throw new AppError('VALIDATION_ERROR', 400, `Unsupported envelope type: ${String(b.type)}`);
      if (!b.event_id || !b.team_id || !b.event?.type) {
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          'An event_callback needs event_id, team_id and event.type',
        );
      }
      if (!(await isKnownTeam(b.team_id))) {
        log.info({ teamId: b.team_id }, 'event for a workspace that is not connected: dropped');
        return undefined;
      }
      const fresh = await ctx.services.events.store({
        eventId: b.event_id,
        teamId: b.team_id,
        eventType: b.event.type,
        payload: raw ?? body,
      });
      if (fresh) onStored();
      return undefined;
    },
    /**
     * One interactivity payload (block_actions, view_submission, shortcut, ...): the first matching module
     * listener's answer (e.g. `{ response_action: 'errors', errors }`), or undefined for an empty answer.
     */
    async interaction(payload: unknown): Promise<unknown> {
      if (!payload || typeof payload !== 'object') return undefined;
      return dispatchInteractivity(interactivity, payload, ctx);
    },
  };
}

const intakes = new WeakMap<AppContext, SlackIntake>();

/** The process's intake (one per context: the HTTP routes and the Socket Mode connection share it). */
export function slackIntake(ctx: AppContext): SlackIntake {
  let intake = intakes.get(ctx);
  if (!intake) {
    intake = createIntake(ctx);
    intakes.set(ctx, intake);
  }
  return intake;
}
