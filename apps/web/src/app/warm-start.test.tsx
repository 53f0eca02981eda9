import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from './providers.tsx';
import firstCalls from './first-calls.json';
import {
  FIRST_CALL_TEAM,
  FIRST_CALL_USER,
  type EarlyRequest,
  type FirstCalls,
} from '../lib/early-requests.ts';
import { restoreSession } from '../lib/session.ts';
import { mockApi, type MockReply } from '../testing/mock-api.ts';
import { renderApp } from '../testing/render.tsx';
import { seedSession, WORKSPACES } from '../testing/session-fixtures.ts';
import { pageData, warmStart } from './warm-start.ts';

const never = () => new Promise<MockReply>(() => {});

/** The calls warmStart(page) makes, as the API client sends them (every answer stays in flight). */
async function callsOf(page: string): Promise<EarlyRequest[]> {
  mockApi({ 'GET /*': never, 'POST /*': never });
  const inner = globalThis.fetch;
  const sent: EarlyRequest[] = [];
  vi.stubGlobal('fetch', (input: string, init: RequestInit = {}) => {
    const path = input.replace(/^\/api\/v0/, '');
    const method = (init.method ?? 'GET') as EarlyRequest['method'];
    sent.push(typeof init.body === 'string' ? { method, path, body: init.body } : { method, path });
    return inner(input, init);
  });
  warmStart(createQueryClient(), page);
  await new Promise((r) => setTimeout(r, 0));
  return sent;
}

beforeAll(
  () =>
    Promise.all([
      import('../features/home/HomeDashboard.tsx'),
      import('../features/analytics/AnalyticsDashboard.tsx'),
      import('./routes/members-pages.tsx'),
    ]),
  60_000,
);

/**
 * The cold start asks for a page's data before the page renders, with the query options its components use. If
 * a component's first request changed (another default, another key), the page would ask again on mount and the
 * prefetched answer would go unused: these tests keep the two in step.
 */
describe('warm start', () => {
  it.each([
    ['home', 'Home'],
    ['analytics', 'Analytics'],
    ['members', 'Members'],
  ])(
    '/dashboard/%s: the page asks for nothing the warm start did not, and uses all it did',
    async (page, title) => {
      seedSession();
      restoreSession();
      // Every call stays in flight: what matters is which queries exist and who observes them.
      const api = mockApi({ 'GET /*': never, 'POST /*': never });
      const queryClient = createQueryClient();
      warmStart(queryClient, page);
      const warmed = new Set(
        queryClient
          .getQueryCache()
          .getAll()
          .map((q) => q.queryHash),
      );
      expect(warmed.size).toBeGreaterThan(3);
      // The boot script's calls for the page (app/first-calls.json, with this session's ids) are these.
      const fill = (t: string) => t.replaceAll(FIRST_CALL_TEAM, 'T001').replaceAll(FIRST_CALL_USER, 'u1');
      const calls = firstCalls as FirstCalls;
      expect(
        [...calls.frame, ...calls.pages[page]!].map((r) => [
          r.method,
          fill(r.path).split('?')[0],
          r.body && JSON.parse(fill(r.body)),
        ]),
      ).toEqual(api.calls.map((c) => [c.method, c.path, c.body]));

      renderApp(`/dashboard/${page}`, { queryClient });
      expect(await screen.findByRole('heading', { level: 1, name: title })).toBeInTheDocument();
      await waitFor(() => {
        const unused = queryClient
          .getQueryCache()
          .getAll()
          .filter((q) => warmed.has(q.queryHash) && q.getObserversCount() === 0)
          .map((q) => q.queryHash);
        expect(unused).toEqual([]);
      });
      const added = queryClient
        .getQueryCache()
        .getAll()
        .filter((q) => !warmed.has(q.queryHash) && q.state.fetchStatus === 'fetching')
        .map((q) => q.queryKey);
      // Nothing (a query that waits for the user, as the top bar's search, asks for nothing).
      expect(added).toEqual([]);
      const asked = api.calls.map((c) => `${c.method} ${c.path} ${JSON.stringify(c.body)}`);
      expect(asked.length).toBe(new Set(asked).size);
    },
  );

  it("under a main page (a member's detail) only the frame's data is asked for", () => {
    seedSession();
    restoreSession();
    const api = mockApi({ 'GET /*': never, 'POST /*': never });
    warmStart(createQueryClient(), '');
    expect(api.calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual([
      'GET /auth/me',
      'GET /channels/getchannels/T001',
      'GET /getauthorizedadmins/T001/u1',
      'GET /tags/gettags/T001',
      'GET /workspaces/status/T001',
    ]);
  });

  it('app/first-calls.json, which the build gives the boot script, is what the warm start asks for', async () => {
    seedSession({
      currentworkspace: FIRST_CALL_TEAM,
      userid: FIRST_CALL_USER,
      workspace: [{ ...WORKSPACES[0]!, team_id: FIRST_CALL_TEAM }],
    });
    const frame = await callsOf('');
    expect(frame.length).toBe(5);
    const pages: Record<string, EarlyRequest[]> = {};
    for (const page of Object.keys(pageData)) {
      const calls = await callsOf(page);
      // The frame's calls first, then the page's own.
      expect(calls.slice(0, frame.length)).toEqual(frame);
      pages[page] = calls.slice(frame.length);
      expect(pages[page].length).toBeGreaterThan(0);
    }
    // Nothing in them changes with the time of day (the file would go stale by itself).
    const made: FirstCalls = { frame, pages };
    expect(JSON.stringify(made)).not.toMatch(/\b1[78]\d{11}\b|\d{4}-\d\d-\d\dT/);
    // On a mismatch, `npx vitest run -u src/app/warm-start.test.tsx` rewrites the file from the code.
    await expect(`${JSON.stringify(made, null, 2)}\n`).toMatchFileSnapshot('./first-calls.json');
  });
});
