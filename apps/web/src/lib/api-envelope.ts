import { notifyInfo } from './notify.tsx';
import { clearSession, getSession } from './session.ts';

/*
 * What every request of the web app shares, whichever way it is sent (fetch in api-client.ts, XMLHttpRequest
 * for uploads with progress): the typed error, the error envelope read into it, and the end of a session
 * whose token was refused.
 */

export const API_BASE = '/api/v0';

/** A failed call: the server's message and HTTP status, plus its error code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /**
   * The envelope's numbers beside its message: the count a large send must confirm (`recipients`, `members`,
   * `channels`), what the daily budget has left (`remaining`, `budget`, `needed`).
   */
  readonly details: Readonly<Record<string, number>>;

  constructor(message: string, status: number, code = 'UNKNOWN', details: Record<string, number> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

export function readEnvelope(data: unknown, status: number): ApiError {
  if (data && typeof data === 'object') {
    const d = data as Record<string, unknown>;
    if (typeof d.message === 'string' && d.message) {
      const details: Record<string, number> = {};
      for (const [k, v] of Object.entries(d))
        if (k !== 'statusCode' && typeof v === 'number' && Number.isFinite(v)) details[k] = v;
      return new ApiError(d.message, status, typeof d.code === 'string' ? d.code : 'UNKNOWN', details);
    }
  }
  return new ApiError(
    status >= 500 ? 'The server ran into a problem. Please try again in a moment.' : 'something went wrong',
    status,
  );
}

/** Called when a call made with the session's token answers 401: the session is over. */
export function endSessionAfter401(): void {
  if (!getSession()) return;
  clearSession();
  notifyInfo('Your session has ended. Please log in again.');
}

/** The session's bearer token, or the ApiError a call without one gets ('Token is required', 401). */
export function sessionToken(): string {
  const token = getSession()?.token;
  if (!token) throw new ApiError('Token is required', 401, 'TOKEN_REQUIRED');
  return token;
}

export const networkError = () =>
  new ApiError('Could not reach the server. Check your connection and try again.', 0, 'NETWORK');

/** A response body as JSON, or undefined when it is empty or not JSON. */
export function parseBody(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
