import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../jobs/queue.ts';
import type { EventListener, InteractivityListener } from './intake/listeners.ts';

/**
 * What a module contributes to the process. `app.ts` registers every module's routes under /api/v0, the job
 * registry collects every module's jobs, and intake dispatches Slack events and interactivity payloads to
 * every module's listeners. List a new module in `modules/index.ts`.
 */
export type Module = {
  name: string;
  /** Registered under /api/v0. */
  routes?: (app: FastifyInstance, ctx: AppContext) => Promise<void>;
  /** Static job definitions (see jobs/registry). */
  jobs?: JobDefinition[];
  /** Slack Events API listeners, by event type. */
  events?: EventListener[];
  /** Slack interactivity listeners (block_actions, view_submission, ...). */
  interactivity?: InteractivityListener[];
};

export const defineModule = (m: Module) => m;
