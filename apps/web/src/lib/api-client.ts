import { clearSession, getSession } from './session.ts';
import { notifyInfo } from './notify.tsx';

export const API_BASE = '/api/v0';

/** A failed call: the server's message and HTTP status (spec section 8), plus its error code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(message: string, status: number, code = 'UNKNOWN') {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
  }
}

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

function readEnvelope(data: unknown, status: number): ApiError {
  if (data && typeof data === 'object') {
    const d = data as Record<string, unknown>;
    if (typeof d.message === 'string' && d.message) {
      return new ApiError(d.message, status, typeof d.code === 'string' ? d.code : 'UNKNOWN');
    }
  }
  return new ApiError(
    status >= 500 ? 'The server ran into a problem. Please try again in a moment.' : 'something went wrong',
    status,
  );
}

/** Called when a call made with the session's token answers 401: the session is over. */
function endSessionAfter401(): void {
  if (!getSession()) return;
  clearSession();
  notifyInfo('Your session has ended. Please log in again.');
}

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
    throw new ApiError('Could not reach the server. Check your connection and try again.', 0, 'NETWORK');
  }

  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = undefined;
    }
  }

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
