import type { z } from 'zod';
import {
  endpointPath,
  successSchema,
  type Endpoint,
  type EndpointAnswer,
  type EndpointInput,
} from '@flywheel/shared/endpoint';
import { apiDownload, apiRequest, type RequestOptions } from './api-client.ts';

/*
 * Calls an API endpoint from its contract (packages/shared/src/endpoint.ts): the path is built from the
 * contract's path and the call's `params` and `query`, the body is typed by the contract, and the answer is
 * parsed by the contract's success schema (or `schema`, a page's own reading of it).
 */

/** What a call may add to the contract: the abort signal, the token, an Idempotency-Key for a send. */
export type CallOptions = Omit<RequestOptions, 'method' | 'body'>;

const pathOf = (endpoint: Endpoint, input: EndpointInput<Endpoint>) =>
  endpointPath(
    endpoint,
    input.params as Record<string, unknown> | undefined,
    input.query as Record<string, unknown> | undefined,
  );

/** A POST, PUT or PATCH whose contract takes no body still sends one: `{}`. */
const bodyOf = (endpoint: Endpoint, input: EndpointInput<Endpoint>): unknown =>
  endpoint.body || endpoint.method === 'GET' || endpoint.method === 'DELETE' ? input.body : {};

/**
 * Calls `endpoint` (a `public` one without the session's token); resolves with its parsed success answer,
 * rejects with ApiError (lib/api-client.ts).
 */
export function callEndpoint<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<EndpointAnswer<E>> {
  const i = input as EndpointInput<Endpoint>;
  return apiRequest(pathOf(endpoint, i), {
    auth: endpoint.scope !== 'public',
    ...options,
    method: endpoint.method,
    body: bodyOf(endpoint, i),
    schema: successSchema(endpoint) as z.ZodType<EndpointAnswer<E>> | undefined,
  });
}

/** Calls an endpoint that answers with a file (a CSV export): the Blob. */
export function downloadEndpoint<E extends Endpoint>(
  endpoint: E,
  input: EndpointInput<E>,
  options: CallOptions = {},
): Promise<Blob> {
  const i = input as EndpointInput<Endpoint>;
  return apiDownload(pathOf(endpoint, i), { ...options, method: endpoint.method, body: bodyOf(endpoint, i) });
}
