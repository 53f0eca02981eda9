import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi } from '../testing/mock-api.ts';
import { seedSession } from '../testing/session-fixtures.ts';
import { apiRequest } from './api-client.ts';
import { getSession, restoreSession } from './session.ts';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });

beforeEach(() => {
  seedSession();
  restoreSession();
});
afterEach(() => {
  delete window.__flywheelEarly;
  localStorage.clear();
});

describe('early requests', () => {
  it("the API client takes the boot script's answer to the same call, once, instead of asking again", async () => {
    const api = mockApi({ 'POST /members/getmembersdata': { body: { from: 'the app' } } });
    const token = getSession()!.token;
    const body = JSON.stringify({ team_id: 'T001', page: 1 });
    window.__flywheelEarly = [
      {
        method: 'POST',
        path: '/members/getmembersdata',
        body,
        token,
        response: Promise.resolve(json({ from: 'boot' })),
      },
    ];
    await expect(
      apiRequest('/members/getmembersdata', { body: { team_id: 'T001', page: 1 } }),
    ).resolves.toEqual({
      from: 'boot',
    });
    expect(api.calls).toHaveLength(0);
    // Taken once: the same call again goes to the server.
    await expect(
      apiRequest('/members/getmembersdata', { body: { team_id: 'T001', page: 1 } }),
    ).resolves.toEqual({
      from: 'the app',
    });
    expect(api.calls).toHaveLength(1);
  });

  it('another body, path or token is not the same call', async () => {
    const api = mockApi({
      'POST /members/getmembersdata': { body: { from: 'the app' } },
      'GET /tags/gettags/T001': { body: [] },
    });
    const token = getSession()!.token;
    const boot = (over: object) => ({
      method: 'POST' as const,
      path: '/members/getmembersdata',
      body: JSON.stringify({ team_id: 'T001', page: 1 }),
      token,
      response: Promise.resolve(json({ from: 'boot' })),
      ...over,
    });
    window.__flywheelEarly = [
      boot({ body: JSON.stringify({ team_id: 'T001', page: 2 }) }),
      boot({ token: 'old' }),
      boot({ path: '/tags/gettags/T001', method: 'GET', body: undefined, token: 'old' }),
    ];
    await expect(
      apiRequest('/members/getmembersdata', { body: { team_id: 'T001', page: 1 } }),
    ).resolves.toEqual({
      from: 'the app',
    });
    await apiRequest('/tags/gettags/T001');
    expect(api.calls.map((c) => c.path)).toEqual(['/members/getmembersdata', '/tags/gettags/T001']);
    expect(window.__flywheelEarly).toHaveLength(3);
  });

  it("a failed early answer is the call's failure (no second try behind the user's back)", async () => {
    const api = mockApi({});
    window.__flywheelEarly = [
      {
        method: 'GET',
        path: '/tags/gettags/T001',
        token: getSession()!.token,
        response: Promise.resolve(
          new Response(JSON.stringify({ message: 'Workspace not found' }), { status: 404 }),
        ),
      },
    ];
    await expect(apiRequest('/tags/gettags/T001')).rejects.toMatchObject({
      status: 404,
      message: 'Workspace not found',
    });
    expect(api.calls).toHaveLength(0);
  });
});
