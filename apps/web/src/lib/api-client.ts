import type { z } from 'zod';
import {
  API_BASE,
  ApiError,
  endSessionAfter401,
  networkError,
  parseBody,
  readEnvelope,
} from './api-envelope.ts';
import { takeEarly } from './early-requests.ts';
import { getSession } from './session.ts';

export { API_BASE, ApiError };

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  /** Attach the session's bearer token (default true). Public calls pass false. */
  auth?: boolean;
  /** Use this token instead of the session's (logout sends the token it is ending). */
  token?: string;
  signal?: AbortSignal;
};

const WITH_PAYLOAD = new Set(['POST', 'PUT', 'PATCH']);

export type JsonRequestOptions<T> = RequestOptions & {
  /** The shared zod schema of the answer: it is parsed (and checked) instead of trusted. */
  schema?: z.ZodType<T>;
};

/** What a request answers when its body does not match the schema the page expects. */
export const BAD_RESPONSE = 'The server sent an answer this page cannot read. Please reload and try again.';

/** Sends a request: token, JSON body, error envelope, 401 ends the session. Resolves with the ok Response. */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const useSession = options.auth !== false && options.token === undefined;
  const token = options.token ?? (options.auth === false ? undefined : getSession()?.token);

  if (options.auth !== false && !token) throw new ApiError('Token is required', 401, 'TOKEN_REQUIRED');
  if (WITH_PAYLOAD.has(method) && options.body === undefined) {
    throw new ApiError('Payload is required', 400, 'PAYLOAD_REQUIRED');
  }

  const headers: Record<string, string> = { accept };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;

  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  let response: Response;
  try {
    // A call the boot script already made for this cold load (lib/early-requests.ts) is not made again.
    response = await (takeEarly(method, path, body, token) ??
      fetch(`${API_BASE}${path}`, { method, headers, body, signal: options.signal }));
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw networkError();
  }

  if (!response.ok) {
    if (response.status === 401 && useSession) endSessionAfter401();
    throw readEnvelope(parseBody(await response.text()), response.status);
  }
  return response;
}

/**
 * The one HTTP client of the web app. Resolves with the JSON body, parsed by `schema` when one is given
 * (a mismatch rejects with ApiError code BAD_RESPONSE); rejects with ApiError on a failed call.
 */
export async function apiRequest<T>(path: string, options: JsonRequestOptions<T> = {}): Promise<T> {
  const response = await send(path, options, 'application/json');
  const data = parseBody(await response.text());
  if (!options.schema) return data as T;
  const parsed = options.schema.safeParse(data);
  if (parsed.success) return parsed.data;
  console.error(`Unexpected answer from ${path}`, parsed.error.issues);
  throw new ApiError(BAD_RESPONSE, response.status, 'BAD_RESPONSE');
}

/** A file the API streams (a CSV export): the same token, errors and 401 handling as apiRequest. */
export async function apiDownload(path: string, options: RequestOptions = {}): Promise<Blob> {
  const response = await send(path, options, '*/*');
  return response.blob();
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** A message a person can act on, whatever was thrown. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return 'something went wrong';
}
