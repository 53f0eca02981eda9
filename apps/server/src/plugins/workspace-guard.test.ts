import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';
import { bearer, signedInUser } from '../testing/factories.ts';
import { connectedWorkspace } from '../testing/workspace.ts';

const TEAM = 'TGUARD1';
let t: TestApp;
let admin: { token: string; userid: string };
let stranger: { token: string; userid: string };

beforeAll(async () => {
  t = await buildTestApp();
  admin = await signedInUser(t);
  stranger = await signedInUser(t);
  await connectedWorkspace(t, TEAM, { userId: admin.userid });
}, 60_000);
afterAll(() => t?.close());

type Call = { method: 'GET' | 'POST'; url: string; payload?: unknown };
// The same order on every workspace-scoped route: 401 (no token), then 403 (not an admin of the workspace,
// whatever the input), then 400 (the schema), then the answer. One route names the workspace in its body,
// the other in its path.
const routes: { name: string; bad: Call; good: Call; ok: number }[] = [
  {
    name: 'POST /tags/createtag (team in the body)',
    bad: { method: 'POST', url: '/api/v0/tags/createtag', payload: { team_id: TEAM, name: '' } },
    good: { method: 'POST', url: '/api/v0/tags/createtag', payload: { team_id: TEAM, name: 'guarded' } },
    ok: 201,
  },
  {
    name: 'GET /member/activity/:teamId/:memberId/:days (team in the path)',
    bad: { method: 'GET', url: `/api/v0/member/activity/${TEAM}/U1/0` },
    good: { method: 'GET', url: `/api/v0/member/activity/${TEAM}/U1/7` },
    ok: 404,
  },
];

describe('the workspace guard', () => {
  it.each(routes)('answers 401, then 403, then 400, in that order: $name', async ({ bad, good, ok }) => {
    const call = (c: Call, token?: string) =>
      t.app.inject({
        method: c.method,
        url: c.url,
        payload: c.payload as never,
        headers: token ? bearer(token) : {},
      });
    expect((await call(bad)).statusCode).toBe(401);
    expect((await call(bad, stranger.token)).statusCode).toBe(403);
    expect((await call(good, stranger.token)).statusCode).toBe(403);
    const invalid = await call(bad, admin.token);
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().code).toBe('VALIDATION_ERROR');
    expect((await call(good, admin.token)).statusCode).toBe(ok);
  });
});
