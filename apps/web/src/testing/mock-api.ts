import { vi } from 'vitest';

export type MockReply = { status?: number; body?: unknown; delayMs?: number };
export type MockHandler = Handler;
type Handler = (
  body: unknown,
  request: { url: string; headers: Record<string, string> },
) => MockReply | Promise<MockReply>;
export type RecordedCall = {
  method: string;
  path: string;
  /** The query string's parameters (the handler table matches the path alone). */
  query: URLSearchParams;
  body: unknown;
  headers: Record<string, string>;
};

/**
 * Replaces fetch with a table of `'METHOD /path'` handlers (paths without /api/v0; `'METHOD /prefix*'` matches
 * every path starting so).
 * An unlisted call answers 404 in the API's error envelope, so a test sees it fail.
 */
export function mockApi(handlers: Record<string, Handler | MockReply>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const path = new URL(url, 'http://localhost').pathname.replace(/^\/api\/v0/, '');
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries(Object.entries((init.headers as Record<string, string>) ?? {}));
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, path, query: new URL(url, 'http://localhost').searchParams, body, headers });
    const key = `${method} ${path}`;
    // A key ending in '*' answers every path it starts (paths with times in them).
    const entry =
      handlers[key] ??
      Object.entries(handlers).find(([k]) => k.endsWith('*') && key.startsWith(k.slice(0, -1)))?.[1];
    const reply: MockReply = !entry
      ? {
          status: 404,
          body: { statusCode: 404, code: 'NOT_FOUND', message: `No mock for ${method} ${path}` },
        }
      : typeof entry === 'function'
        ? await entry(body, { url, headers })
        : entry;
    if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status: reply.status ?? 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    fetchMock,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
  };
}

/** A promise the test resolves by hand: keeps a request in flight until `release()`. */
export function deferred<T>() {
  let release: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}
