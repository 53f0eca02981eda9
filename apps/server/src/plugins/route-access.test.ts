import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes, type RouteRecord } from '../app.ts';
import { buildTestApp, type TestApp } from '../testing/build-test-app.ts';

/**
 * The table of what every workspace-scoped route does (plugins/workspace-guard.ts `accessOf`): GET reads; any
 * other method acts unless it is on one of the two short lists below. A new POST that only reads, or a route
 * that manages the workspace, is added here on purpose, never by accident.
 */
const READS_BY_POST = [
  'POST /api/v0/actions/exportformresponse',
  'POST /api/v0/actions/getformresponses',
  'POST /api/v0/actions/summarizeThread',
  'POST /api/v0/analytics/activityanalytics',
  'POST /api/v0/analytics/channelsactivityanalytics',
  'POST /api/v0/analytics/exportadvanceanalytics',
  'POST /api/v0/analytics/getactivitytrend',
  'POST /api/v0/analytics/membersactivityanalytics',
  'POST /api/v0/analytics/memberschangeanalytics',
  'POST /api/v0/analytics/performadvanceanalytics',
  'POST /api/v0/analytics/wordcloud',
  'POST /api/v0/auth/algoliatoken',
  // The caller's own weekly digest: what they are sent, nothing of the workspace (a Viewer subscribes too).
  'POST /api/v0/digest/settings',
  'POST /api/v0/homepage/getmostactivemembers',
  'POST /api/v0/homepage/getuseradmindata',
  'POST /api/v0/members/exportmembersdata',
  'POST /api/v0/members/getmembersdata',
  'POST /api/v0/members/lookup',
];
const MANAGES = [
  'DELETE /api/v0/webhooks/:teamId/:webhookId',
  'PATCH /api/v0/webhooks/:teamId/:webhookId',
  'POST /api/v0/alterbot/uploadinfo',
  'POST /api/v0/apikeys/create',
  'POST /api/v0/apikeys/revoke',
  'POST /api/v0/webhooks/:teamId/:webhookId/deliveries/:deliveryId/replay',
  'POST /api/v0/webhooks/createwebhook',
  'POST /api/v0/workspaces/inviteadmin',
  'POST /api/v0/workspaces/removeadmin',
  'POST /api/v0/workspaces/revokeinvitation',
  'POST /api/v0/workspaces/setrole',
];

describe('route access', () => {
  let t: TestApp;
  let scoped: RouteRecord[];
  beforeAll(async () => {
    t = await buildTestApp({}, { workers: false });
    scoped = (registeredRoutes.get(t.app) ?? []).filter((r) => r.workspaceScoped);
  }, 60_000);
  afterAll(() => t?.close());

  const names = (access: string, pick: (r: RouteRecord) => boolean = () => true) =>
    scoped
      .filter((r) => r.access === access && pick(r))
      .map((r) => `${r.method} ${r.url}`)
      .sort();

  it('every GET reads', () => {
    expect(scoped.filter((r) => r.method === 'GET' && r.access !== 'read')).toEqual([]);
    expect(scoped.filter((r) => r.method === 'GET').length).toBeGreaterThan(20);
  });

  it('the POSTs that only read and the routes that manage the workspace are exactly the listed ones', () => {
    expect(names('read', (r) => r.method !== 'GET')).toEqual(READS_BY_POST);
    expect(names('manage')).toEqual(MANAGES);
  });

  it('every other route acts: sends, deletes and edits among them', () => {
    const acting = names('act');
    for (const route of [
      'POST /api/v0/quickaction/dmtomultipleusers',
      'POST /api/v0/quickaction/sendmessage',
      'POST /api/v0/poll/createpoll',
      'DELETE /api/v0/workflows/:teamId/:workflowId',
      'PATCH /api/v0/actions/updateactions',
      'POST /api/v0/tags/addtagtousers',
      'POST /api/v0/questions/markhandled',
    ])
      expect(acting).toContain(route);
    expect(acting.length + READS_BY_POST.length + MANAGES.length).toBe(
      scoped.filter((r) => r.method !== 'GET').length,
    );
  });
});
