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
  /**
   * A send (or the creation of a future send): the call carries an `Idempotency-Key`, new for this call (one
   * person's submit) and the same on its automatic retries (no answer, a 502/503/504, the key still running),
   * so the server sends it once however many times it arrives.
   */
  idempotent?: boolean;
};

const WITH_PAYLOAD = new Set(['POST', 'PUT', 'PATCH']);

export type JsonRequestOptions<T> = RequestOptions & {
  /** The shared zod schema of the answer: it is parsed (and checked) instead of trusted. */
  schema?: z.ZodType<T>;
};

/** What a request answers when its body does not match the schema the page expects. */
export const BAD_RESPONSE = 'The server sent an answer this page cannot read. Please reload and try again.';

/** How many times an idempotent call is sent again, and after how long (ms). */
export const IDEMPOTENT_RETRY_DELAYS_MS = [500, 1500];

/** An answer worth sending the same call again under its key: none at all, a gateway's, or the key busy. */
const retryable = (err: unknown) =>
  err instanceof ApiError &&
  (err.status === 0 ||
    err.status === 502 ||
    err.status === 503 ||
    err.status === 504 ||
    err.code === 'IDEMPOTENCY_KEY_IN_PROGRESS');

/** A new Idempotency-Key: a random UUID (also outside secure contexts, where crypto.randomUUID is missing). */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Sends a request; an idempotent one under one key, again after a passing failure (IDEMPOTENT_RETRY_DELAYS_MS). */
async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  if (!options.idempotent) return sendOnce(path, options, accept);
  const key = newIdempotencyKey();
  for (let attempt = 0; ; attempt++) {
    try {
      return await sendOnce(path, options, accept, key);
    } catch (err) {
      const delay = IDEMPOTENT_RETRY_DELAYS_MS[attempt];
      if (delay === undefined || !retryable(err) || options.signal?.aborted) throw err;
      await new Promise((r) => setTimeout(r, delay));
    }
  }
}

/** Sends a request: token, JSON body, error envelope, 401 ends the session. Resolves with the ok Response. */
async function sendOnce(
  path: string,
  options: RequestOptions,
  accept: string,
  idempotencyKey?: string,
): Promise<Response> {
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
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;

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
