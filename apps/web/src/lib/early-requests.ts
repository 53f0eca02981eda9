/**
 * A signed-in cold load's first API calls, sent by the boot script (scripts/vite-plugins.ts) before the app's
 * code has even loaded. Which calls a page starts with is not written down by hand: app/warm-start.test.tsx runs
 * the warm start (app/warm-start.ts) for each main page with placeholder ids and keeps the calls it made in
 * app/first-calls.json, the test failing when the file is not what the code asks for; the build gives the file
 * to the boot script, which fills in the session's workspace and user. The API client takes an answer from here
 * when the call it is about to make is one of them, and makes the call itself otherwise.
 */

/** The placeholders app/first-calls.json has where the workspace's and the user's ids go. */
export const FIRST_CALL_TEAM = '__TEAM__';
export const FIRST_CALL_USER = '__USER__';

export type EarlyRequest = { method: 'GET' | 'POST'; path: string; body?: string };
/** The frame's first calls (any dashboard page) and each main page's own, with the placeholders. */
export type FirstCalls = { frame: EarlyRequest[]; pages: Record<string, EarlyRequest[]> };
type Sent = EarlyRequest & { token: string; response: Promise<Response> };

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
