import { describe, expect, it } from 'vitest';
import {
  SESSION_KEY,
  USERDATA_KEY,
  currentWorkspace,
  getSession,
  restoreSession,
  startSession,
  updateSessionProfile,
} from './session.ts';
import { fakeToken, loginResponse, seedSession, WORKSPACES } from '../testing/session-fixtures.ts';

describe('session store', () => {
  it('keeps the session in one key, expiry from the token exp, plus userdata', () => {
    const exp = 1_900_000_000;
    startSession(loginResponse({ token: fakeToken(exp) }));
    const stored = JSON.parse(localStorage.getItem(SESSION_KEY) ?? 'null');
    expect(Object.keys(stored).sort()).toEqual(
      [
        'country',
        'currentworkspace',
        'expiration',
        'token',
        'useremail',
        'userid',
        'username',
        'workspace',
      ].sort(),
    );
    expect(stored.expiration).toBe('2030-03-17T17:46:40.000Z');
    expect(JSON.parse(localStorage.getItem(USERDATA_KEY) ?? 'null')).toEqual({
      userid: 'u1',
      useremail: 'ada@example.com',
    });
  });

  it('restores a live session after a reload', () => {
    const seeded = seedSession();
    expect(restoreSession()).toEqual(seeded);
  });

  it('drops an expired session from storage', () => {
    seedSession({ expiration: new Date(Date.now() - 1000).toISOString() });
    expect(restoreSession()).toBeNull();
    expect(localStorage.getItem(SESSION_KEY)).toBeNull();
    expect(localStorage.getItem(USERDATA_KEY)).toBeNull();
  });

  it('ignores a malformed stored value', () => {
    localStorage.setItem(SESSION_KEY, '{"token": 42');
    expect(restoreSession()).toBeNull();
  });

  it('uses the stored workspace, else the first', () => {
    const s = seedSession({ currentworkspace: 'T002' });
    expect(currentWorkspace(s)?.workspace_name).toBe('Open Source Guild');
    expect(currentWorkspace({ ...s, currentworkspace: 'gone' })?.team_id).toBe('T001');
  });

  it('applies a fresher profile without losing the chosen workspace', () => {
    seedSession({ currentworkspace: 'T002' });
    updateSessionProfile({
      userid: 'u1',
      workspaces: [
        ...WORKSPACES,
        {
          team_id: 'T009',
          workspace_name: 'New',
          domain: 'new',
          timezone: 'UTC',
          status: 'active' as const,
          role: 'owner' as const,
        },
      ],
      username: 'Ada L.',
      email: 'ada@example.com',
      country: 'United Kingdom',
    });
    expect(getSession()?.workspace).toHaveLength(3);
    expect(getSession()?.currentworkspace).toBe('T002');
    expect(getSession()?.username).toBe('Ada L.');
  });
});
