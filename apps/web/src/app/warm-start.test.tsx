import { screen, waitFor } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { createQueryClient } from './providers.tsx';
import { EARLY_KEY_PREFIX } from '../lib/early-requests.ts';
import { restoreSession } from '../lib/session.ts';
import { mockApi, type MockReply } from '../testing/mock-api.ts';
import { renderApp } from '../testing/render.tsx';
import { seedSession } from '../testing/session-fixtures.ts';
import { warmStart } from './warm-start.ts';

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
      const never = () => new Promise<MockReply>(() => {});
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
      // The calls are the page's record for the next cold load's boot script: the same, in the same order.
      const record = JSON.parse(localStorage.getItem(`${EARLY_KEY_PREFIX}${page}`)!) as {
        teamId: string;
        requests: { method: string; path: string; body?: string }[];
      };
      expect(record.teamId).toBe('T001');
      expect(
        record.requests.map((r) => [r.method, r.path.split('?')[0], r.body && JSON.parse(r.body)]),
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

  it("under a main page (a member's detail) only the frame's data is asked for, and nothing is recorded", () => {
    seedSession();
    restoreSession();
    const never = () => new Promise<MockReply>(() => {});
    const api = mockApi({ 'GET /*': never, 'POST /*': never });
    warmStart(createQueryClient(), '');
    expect(api.calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual([
      'GET /auth/me',
      'GET /channels/getchannels/T001',
      'GET /getauthorizedadmins/T001/u1',
      'GET /tags/gettags/T001',
      'GET /workspaces/status/T001',
    ]);
    expect(Object.keys(localStorage).filter((k) => k.startsWith(EARLY_KEY_PREFIX))).toEqual([]);
  });
});
