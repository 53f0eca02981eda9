import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../jobs/queue.ts';
import type { Kernel } from '../kernel.ts';
import type { EventListener, InteractivityListener } from './intake/listeners.ts';
import type { ServiceName, Services } from './services.ts';

/**
 * A module as `defineModule` takes it: what it needs from other modules (`needs`), the services it builds
 * (`provides`, and `services` to build them from the kernel and those needs only), and what it contributes to
 * the process (routes, jobs, Slack listeners). See docs/ARCHITECTURE.md, section 3.
 */
export type ModuleSpec<N extends ServiceName, P extends ServiceName> = {
  name: string;
  /** Other modules' services this module's `services` uses (service names of the registry, modules/services.ts). */
  needs?: readonly N[];
  /** The services `services` builds, by name: each service has one provider in the product. */
  provides?: readonly P[];
  /** Builds this module's services from the kernel and the services named in `needs` (and no other). */
  services?: (
    kernel: Kernel,
    deps: Pick<Services, NoInfer<N>>,
  ) => Pick<Services, NoInfer<P>> | Promise<Pick<Services, NoInfer<P>>>;
  /** Registered under /api/v0. */
  routes?: (app: FastifyInstance, ctx: AppContext) => Promise<void>;
  /** Static job definitions (see jobs/registry). */
  jobs?: JobDefinition[];
  /** Slack Events API listeners, by event type. */
  events?: EventListener[];
  /** Slack interactivity listeners (block_actions, view_submission, ...). */
  interactivity?: InteractivityListener[];
};

/**
 * What a module contributes to the process. context.ts builds every module's services in the order of their
 * `needs` (compose.ts); `app.ts` registers every module's routes under /api/v0, the job registry collects every
 * module's jobs, and intake dispatches Slack events and interactivity payloads to every module's listeners. List a
 * new module in `modules/index.ts`.
 */
export type Module = Omit<ModuleSpec<ServiceName, ServiceName>, 'services'> & {
  services?: (kernel: Kernel, deps: Services) => Partial<Services> | Promise<Partial<Services>>;
};

/**
 * Declares a module. `needs` and `provides` are typed against the registry (modules/services.ts): `services`
 * sees only the needed services in `deps`, and must return exactly the provided ones.
 */
export const defineModule = <N extends ServiceName = never, P extends ServiceName = never>(
  m: ModuleSpec<N, P>,
): Module => m as Module;
