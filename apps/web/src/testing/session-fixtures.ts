import { loginResponse as loginResponseSchema, type LoginResponse } from '@flywheel/shared/auth';
import { workspaceSchema, type Workspace } from '@flywheel/shared/workspace';
import { fixture } from './fixture.ts';
import { SESSION_KEY, USERDATA_KEY, restoreSession, type Session } from '../lib/session.ts';

/** An unsigned JWT-shaped token whose payload carries `exp` (seconds). */
export function fakeToken(expSeconds: number): string {
  const part = (v: object) =>
    btoa(JSON.stringify(v)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'u1', exp: expSeconds })}.signature`;
}

export const WORKSPACES: Workspace[] = fixture(workspaceSchema.array(), [
  {
    team_id: 'T001',
    workspace_name: 'Acme Community',
    domain: 'acme',
    timezone: 'Europe/Berlin',
    status: 'active',
    role: 'owner',
  },
  {
    team_id: 'T002',
    workspace_name: 'Open Source Guild',
    domain: 'osguild',
    timezone: 'UTC',
    status: 'active',
    role: 'owner',
  },
]);

export function loginResponse(overrides: Partial<LoginResponse> = {}): LoginResponse {
  return fixture(loginResponseSchema, {
    token: fakeToken(Math.floor(Date.now() / 1000) + 3600),
    userid: 'u1',
    workspaces: WORKSPACES,
    username: 'Ada Lovelace',
    email: 'ada@example.com',
    country: 'United Kingdom',
    ...overrides,
  });
}

/** Stores a session the way the app does and loads it into the in-memory store. */
export function seedSession(overrides: Partial<Session> = {}): Session {
  const session: Session = {
    userid: 'u1',
    token: fakeToken(Math.floor(Date.now() / 1000) + 3600),
    currentworkspace: 'T001',
    workspace: WORKSPACES,
    username: 'Ada Lovelace',
    useremail: 'ada@example.com',
    country: 'United Kingdom',
    expiration: new Date(Date.now() + 3600_000).toISOString(),
    ...overrides,
  };
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
  localStorage.setItem(
    USERDATA_KEY,
    JSON.stringify({ userid: session.userid, useremail: session.useremail }),
  );
  restoreSession();
  return session;
}

export function storedSession(): unknown {
  const raw = localStorage.getItem(SESSION_KEY);
  return raw ? JSON.parse(raw) : null;
}
