/**
 * A signed-in cold load's first API calls, sent by the boot script (scripts/vite-plugins.ts) before the app's
 * code has even loaded. Which calls a page starts with is not written down twice: app/warm-start.ts records the
 * calls it makes (method, path, body) for the page and workspace, and the next cold load's boot script sends the
 * same ones at once. The API client takes an answer from here when the call it is about to make is one of them,
 * and makes the call itself otherwise (a record that no longer matches costs one unused call, once).
 */

/** localStorage key prefix, one record per page (vite.config.ts gives the boot script the same). */
export const EARLY_KEY_PREFIX = 'flywheel.early.';

export type EarlyRequest = { method: 'GET' | 'POST'; path: string; body?: string };
type Sent = EarlyRequest & { token: string; response: Promise<Response> };
type Record = { teamId: string; requests: EarlyRequest[] };

declare global {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- only an interface merges into Window
  interface Window {
    /** What the boot script sent, not yet taken. */
    __flywheelEarly?: Sent[];
  }
}

/** The answer of a call the boot script already made, once: same method, path, body and token. */
export function takeEarly(
  method: string,
  path: string,
  body: string | undefined,
  token: string | undefined,
): Promise<Response> | undefined {
  const sent = typeof window === 'undefined' ? undefined : window.__flywheelEarly;
  if (!sent || !token) return undefined;
  const i = sent.findIndex(
    (s) => s.method === method && s.path === path && s.body === body && s.token === token,
  );
  if (i < 0) return undefined;
  return sent.splice(i, 1)[0]!.response;
}

let recording: EarlyRequest[] | null = null;

/** The API client tells of each call it makes; kept only while a record is being taken. */
export function noteRequest(method: string, path: string, body: string | undefined): void {
  if (!recording || (method !== 'GET' && method !== 'POST')) return;
  recording.push(body === undefined ? { method, path } : { method, path, body });
}

/**
 * Runs `start` (which starts a page's first queries) and keeps the calls it made as the page's record for the
 * next cold load. Calls made after `start` returns are not in it.
 */
export function recordEarly<T>(page: string, teamId: string, start: () => T): T {
  recording = [];
  try {
    return start();
  } finally {
    const record: Record = { teamId, requests: recording };
    recording = null;
    try {
      localStorage.setItem(`${EARLY_KEY_PREFIX}${page}`, JSON.stringify(record));
    } catch {
      // Storage full or refused: the next cold load asks once its code runs, as without a record.
    }
  }
}

/** Signing out forgets the records (they name the workspace's ids). */
export function forgetEarly(): void {
  for (const key of Object.keys(localStorage))
    if (key.startsWith(EARLY_KEY_PREFIX)) localStorage.removeItem(key);
}
