import { z } from 'zod';
import { slackId } from './input.ts';
import type { RouteAccess } from './roles.ts';

/*
 * One contract per API call (docs/ARCHITECTURE.md §7, "Endpoint contracts"): the server declares its route from
 * it (apps/server/src/plugins/endpoint-route.ts) and the web app calls it (apps/web/src/lib/endpoint-client.ts),
 * so a path, its parameters, its body and its answer are written once. The contracts live in
 * `packages/shared/src/endpoints/<module>.ts`, one file per server module.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call an endpoint: a workspace-scoped route's access (the workspace guard: `read` Viewer, `act`
 * Editor, `manage` Owner), `user` for a signed-in person's own calls (not workspace-scoped), `public` for
 * anyone.
 */
export type EndpointScope = RouteAccess | 'user' | 'public';

export type Endpoint = {
  method: HttpMethod;
  /** Under /api/v0, with `:name` path parameters. */
  path: string;
  params?: z.ZodType;
  query?: z.ZodType;
  /** Request headers the call takes (an Idempotency-Key); the web client sets them itself. */
  headers?: z.ZodType;
  body?: z.ZodType;
  /** The answers by status; none for a file (`produces`). */
  response?: Readonly<Partial<Record<number, z.ZodType>>>;
  /** Content types of a file answer (a CSV export). */
  produces?: readonly string[];
  /**
   * Content types of a body that is not JSON (an upload: `multipart/form-data`); the handler reads its fields, and
   * the web app sends it with `uploadEndpoint` (apps/web/src/lib/upload-request.ts).
   */
  consumes?: readonly string[];
  /** Left out of the OpenAPI document (a public file Slack fetches, not an API call). */
  hide?: boolean;
  scope: EndpointScope;
  /** The OpenAPI document's tags. */
  tags: readonly string[];
  summary?: string;
  description?: string;
};

/** Declares a contract; the literal types stay (method, path, schemas) for the server's and the web's typing. */
export const defineEndpoint = <const E extends Endpoint>(endpoint: E): E => endpoint;

/** The `:teamId` path parameter of every workspace-scoped route. */
export const teamIdParam = slackId('teamId').describe('the workspace (team_id)');
export const teamParams = z.object({ teamId: teamIdParam });

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;

/** What a call of `E` sends: its path parameters, query and body, each only when the contract has one. */
export type EndpointInput<E extends Endpoint> = (E['params'] extends z.ZodType
  ? { params: InputOf<E['params']> }
  : { params?: never }) &
  (E['query'] extends z.ZodType
    ? // A query whose every field is optional may be left out.
      Record<string, never> extends InputOf<E['query']>
      ? { query?: InputOf<E['query']> }
      : { query: InputOf<E['query']> }
    : { query?: never }) &
  (E['body'] extends z.ZodType ? { body: InputOf<E['body']> } : { body?: never });

/** The schema of a contract's success answer (200, else 201, else the first 2xx: a send's 202). */
export function successSchema(endpoint: Endpoint): z.ZodType | undefined {
  const r = endpoint.response;
  if (!r) return undefined;
  if (r[200]) return r[200];
  if (r[201]) return r[201];
  const ok = Object.keys(r)
    .map(Number)
    .find((s) => s >= 200 && s < 300);
  return ok === undefined ? undefined : r[ok];
}

type SuccessOf<R> = R extends { 200: infer S }
  ? S
  : R extends { 201: infer S }
    ? S
    : R extends { 202: infer S }
      ? S
      : never;
/** The parsed success answer of a call of `E`. */
export type EndpointAnswer<E extends Endpoint> =
  SuccessOf<E['response']> extends z.ZodType ? z.output<SuccessOf<E['response']>> : unknown;

/**
 * The path of one call (without /api/v0): each `:name` replaced by its encoded parameter, then the query's
 * defined values in their order (`?a=1&b=2`, omitted when none).
 */
export function endpointPath(
  endpoint: Pick<Endpoint, 'path'>,
  params?: Readonly<Record<string, unknown>>,
  query?: Readonly<Record<string, unknown>>,
): string {
  const path = endpoint.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined || v === null) throw new Error(`${endpoint.path}: path parameter ${name} is missing`);
    return encodeURIComponent(String(v));
  });
  if (!query) return path;
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query))
    if (v !== undefined && v !== null) q.append(k, String(v as string | number | boolean));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The fixed start of a contract's path, up to its first parameter (`/bucket/getbuckets` of `/bucket/getbuckets/:teamId`). */
export const staticPathOf = (endpoint: Pick<Endpoint, 'path'>): string => endpoint.path.split('/:')[0]!;

/** Whether a value is a contract (the endpoints' files export only contracts, but a test walks them). */
export const isEndpoint = (v: unknown): v is Endpoint =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as Endpoint).path === 'string' &&
  typeof (v as Endpoint).method === 'string' &&
  typeof (v as Endpoint).scope === 'string' &&
  Array.isArray((v as Endpoint).tags);
