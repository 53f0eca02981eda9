import {
  API_BASE,
  ApiError,
  endSessionAfter401,
  networkError,
  parseBody,
  readEnvelope,
} from './api-envelope.ts';
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

/** The one HTTP client of the web app. Resolves with the parsed JSON body, rejects with ApiError. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const useSession = options.auth !== false && options.token === undefined;
  const token = options.token ?? (options.auth === false ? undefined : getSession()?.token);

  if (options.auth !== false && !token) throw new ApiError('Token is required', 401, 'TOKEN_REQUIRED');
  if (WITH_PAYLOAD.has(method) && options.body === undefined) {
    throw new ApiError('Payload is required', 400, 'PAYLOAD_REQUIRED');
  }

  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (token) headers.authorization = `Bearer ${token}`;

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw networkError();
  }

  const data = parseBody(await response.text());

  if (!response.ok) {
    if (response.status === 401 && useSession) endSessionAfter401();
    throw readEnvelope(data, response.status);
  }
  return data as T;
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** A message a person can act on, whatever was thrown. */
export function errorMessage(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  return 'something went wrong';
}
