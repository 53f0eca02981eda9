import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RouteShorthandOptions,
  onRequestHookHandler,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Endpoint } from '@flywheel/shared/endpoint';
import { scopedOptions, type WorkspaceGuard } from './workspace-guard.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyContextConfig {
    /** The contract a route was declared from (`endpointRoutes`); the contracts test walks every route for it. */
    endpoint?: Endpoint;
  }
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : unknown;
type Answer<R> =
  R extends Readonly<Partial<Record<number, z.ZodType>>>
    ? { [K in keyof R]: R[K] extends z.ZodType ? z.input<R[K]> : never }[keyof R]
    : never;

/** The request a contract's handler gets: params, query and body parsed by the contract's schemas. */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{
  Params: Parsed<E['params']>;
  Querystring: Parsed<E['query']>;
  Body: Parsed<E['body']>;
}>;

/** A handler answers with one of the contract's answers, or sends through `reply` (a status, a file). */
export type EndpointHandler<E extends Endpoint> = (
  req: EndpointRequest<E>,
  reply: FastifyReply,
) => Promise<Answer<E['response']> | FastifyReply>;

/**
 * Route options a contract does not carry (a body limit, a rate limit hook). `onRequest` runs after the access
 * check's own (the token first, 401, then an upload's slot).
 */
export type ExtraRouteOptions = Omit<
  RouteShorthandOptions,
  'schema' | 'config' | 'onRequest' | 'preValidation' | 'preHandler'
> & { onRequest?: onRequestHookHandler };

/**
 * How a module's routes check their callers: the workspace guard, and the sign-in hook of `user` routes, run at
 * `onRequest` (401 before the body is read) unless `userAt` says `preHandler` (after the schema's 400).
 */
export type EndpointAuth = {
  guard?: WorkspaceGuard;
  user?: onRequestHookHandler;
  userAt?: 'onRequest' | 'preHandler';
};

/** The options a contract's scope means: the workspace guard with its access, a signed-in user, or none. */
function accessOptions(endpoint: Endpoint, auth: EndpointAuth) {
  const where = `${endpoint.method} ${endpoint.path}`;
  switch (endpoint.scope) {
    case 'public':
      return {};
    case 'user':
      if (!auth.user) throw new Error(`${where}: a 'user' endpoint needs the sign-in hook`);
      return auth.userAt === 'preHandler' ? { preHandler: auth.user } : { onRequest: auth.user };
    default:
      if (!auth.guard) throw new Error(`${where}: a workspace-scoped endpoint needs the workspace guard`);
      return scopedOptions(auth.guard, endpoint.scope);
  }
}

/**
 * Declares routes from contracts (packages/shared/src/endpoint.ts): the method, path, zod schemas, OpenAPI tags
 * and summary, and the access check its scope names (`scopedOptions(guard, access)` for read/act/manage).
 *
 *   const route = endpointRoutes(app, { guard: deps.guard });
 *   route(createTag, async (req, reply) => reply.code(201).send(...));
 */
export function endpointRoutes(app: FastifyInstance, auth: EndpointAuth) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  return <E extends Endpoint>(endpoint: E, handler: EndpointHandler<E>, extra: ExtraRouteOptions = {}) => {
    const { onRequest: after, ...options } = extra;
    const access = accessOptions(endpoint, auth);
    const config = 'config' in access ? { ...access.config, endpoint } : { endpoint };
    const first = 'onRequest' in access ? access.onRequest : undefined;
    const onRequest = [first, after].filter((h) => h !== undefined);
    r.route({
      ...options,
      ...access,
      ...(onRequest.length === 0 ? {} : { onRequest: onRequest.length === 1 ? onRequest[0] : onRequest }),
      config,
      method: endpoint.method,
      url: endpoint.path,
      schema: {
        tags: [...endpoint.tags],
        ...(endpoint.summary === undefined ? {} : { summary: endpoint.summary }),
        ...(endpoint.description === undefined ? {} : { description: endpoint.description }),
        ...(endpoint.params ? { params: endpoint.params } : {}),
        ...(endpoint.query ? { querystring: endpoint.query } : {}),
        ...(endpoint.headers ? { headers: endpoint.headers } : {}),
        ...(endpoint.body ? { body: endpoint.body } : {}),
        ...(endpoint.response ? { response: endpoint.response } : {}),
        ...(endpoint.produces ? { produces: [...endpoint.produces] } : {}),
        ...(endpoint.consumes ? { consumes: [...endpoint.consumes] } : {}),
        ...(endpoint.hide ? { hide: true } : {}),
      },
      handler: handler as never,
    });
  };
}
