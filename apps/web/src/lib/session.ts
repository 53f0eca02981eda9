import { useSyncExternalStore } from 'react';
import type { LoginResponse } from '@flywheel/shared/auth';
import type { Workspace } from '@flywheel/shared/workspace';
import { readTokenExpiry } from './jwt.ts';

/** The session lives in ONE browser key; `userdata` mirrors userid and useremail. */
export const SESSION_KEY = 'flywheel.session';
export const USERDATA_KEY = 'userdata';

/** Used only when a token carries no `exp` claim; the server still refuses it once it expires. */
const FALLBACK_LIFETIME_MS = 12 * 60 * 60 * 1000;

export type Session = {
  userid: string;
  token: string;
  /** team_id of the selected workspace, or null when the account has none. */
  currentworkspace: string | null;
  workspace: Workspace[];
  username: string;
  useremail: string;
  country: string;
  /** ISO date: the token's exp claim. */
  expiration: string;
};

type Listener = () => void;
const listeners = new Set<Listener>();
let current: Session | null = null;
let loaded = false;

function isWorkspace(value: unknown): value is Workspace {
  if (!value || typeof value !== 'object') return false;
  const w = value as Record<string, unknown>;
  return typeof w.team_id === 'string' && typeof w.workspace_name === 'string';
}

function parseSession(raw: string | null): Session | null {
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as Record<string, unknown>;
    const strings = ['userid', 'token', 'username', 'useremail', 'expiration'] as const;
    if (strings.some((k) => typeof v[k] !== 'string')) return null;
    if (!Array.isArray(v.workspace) || !v.workspace.every(isWorkspace)) return null;
    return {
      userid: v.userid as string,
      token: v.token as string,
      currentworkspace: typeof v.currentworkspace === 'string' ? v.currentworkspace : null,
      workspace: v.workspace,
      username: v.username as string,
      useremail: v.useremail as string,
      country: typeof v.country === 'string' ? v.country : '',
      expiration: v.expiration as string,
    };
  } catch {
    return null;
  }
}

export function isExpired(session: Session, now = Date.now()): boolean {
  const at = Date.parse(session.expiration);
  return Number.isNaN(at) || at <= now;
}

function write(session: Session | null): void {
  current = session;
  loaded = true;
  try {
    if (session) {
      localStorage.setItem(SESSION_KEY, JSON.stringify(session));
      localStorage.setItem(
        USERDATA_KEY,
        JSON.stringify({ userid: session.userid, useremail: session.useremail }),
      );
    } else {
      localStorage.removeItem(SESSION_KEY);
      localStorage.removeItem(USERDATA_KEY);
    }
  } catch {
    // Storage can be unavailable (private mode, quota); the in-memory session still works for this tab.
  }
  listeners.forEach((l) => l());
}

/** Reads the stored session; an expired or malformed one is removed and gives null. */
export function restoreSession(now = Date.now()): Session | null {
  let raw: string | null = null;
  try {
    raw = localStorage.getItem(SESSION_KEY);
  } catch {
    raw = null;
  }
  const session = parseSession(raw);
  if (session && !isExpired(session, now)) {
    current = session;
    loaded = true;
    return session;
  }
  if (raw !== null) write(null);
  current = null;
  loaded = true;
  return null;
}

export function getSession(): Session | null {
  if (!loaded) restoreSession();
  return current;
}

export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** Builds and stores the session from a login response; expiry comes from the token's exp claim. */
export function startSession(res: LoginResponse, now = Date.now()): Session {
  const exp = readTokenExpiry(res.token);
  const workspaces = Array.isArray(res.workspaces) ? res.workspaces : [];
  const expiresAt = exp !== null ? exp * 1000 : now + FALLBACK_LIFETIME_MS;
  const session: Session = {
    userid: res.userid,
    token: res.token,
    currentworkspace: workspaces[0]?.team_id ?? null,
    workspace: workspaces,
    username: res.username,
    useremail: res.email,
    country: res.country,
    expiration: new Date(expiresAt).toISOString(),
  };
  write(session);
  return session;
}

export function setCurrentWorkspace(teamId: string): void {
  const session = getSession();
  if (session) write({ ...session, currentworkspace: teamId });
}

/** Applies a fresher profile (GET /auth/me) to the session; keeps the chosen workspace if it still exists. */
export function updateSessionProfile(me: {
  userid: string;
  workspaces: Workspace[];
  username: string;
  email: string;
  country: string;
}): void {
  const session = getSession();
  if (!session || session.userid !== me.userid || !Array.isArray(me.workspaces)) return;
  const keep = me.workspaces.some((w) => w.team_id === session.currentworkspace);
  const next: Session = {
    ...session,
    workspace: me.workspaces,
    currentworkspace: keep ? session.currentworkspace : (me.workspaces[0]?.team_id ?? null),
    username: me.username,
    useremail: me.email,
    country: me.country,
  };
  if (JSON.stringify(next) !== JSON.stringify(session)) write(next);
}

/**
 * After an install (POST /auth-redirect): stores the returned workspace list and selects the team that was not
 * there before (the one just installed); otherwise keeps the current choice if it still exists, else the first.
 */
export function applyInstalledWorkspaces(workspaces: Workspace[]): Session | null {
  const session = getSession();
  if (!session || !Array.isArray(workspaces)) return session;
  const before = new Set(session.workspace.map((w) => w.team_id));
  const added = workspaces.find((w) => !before.has(w.team_id));
  const kept = workspaces.some((w) => w.team_id === session.currentworkspace)
    ? session.currentworkspace
    : null;
  const next: Session = {
    ...session,
    workspace: workspaces,
    currentworkspace: added?.team_id ?? kept ?? workspaces[0]?.team_id ?? null,
  };
  write(next);
  return next;
}

export function clearSession(): void {
  write(null);
}

/** The selected workspace: the stored choice, else the first one. */
export function currentWorkspace(session: Session | null): Workspace | null {
  if (!session) return null;
  return (
    session.workspace.find((w) => w.team_id === session.currentworkspace) ?? session.workspace[0] ?? null
  );
}

/** Another tab logging in or out changes this tab too. */
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== SESSION_KEY && event.key !== null) return;
    const before = current;
    restoreSession();
    if (before !== current) listeners.forEach((l) => l());
  });
}
