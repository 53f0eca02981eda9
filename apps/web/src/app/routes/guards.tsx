import { useLayoutEffect } from 'react';
import { Navigate, Outlet, useSearchParams } from 'react-router';
import { setCurrentWorkspace, useSession, type Session } from '../../lib/session.ts';

export const LOGIN_PATH = '/auth/login';
export const HOME_PATH = '/dashboard/home';
export const CREATE_DASHBOARD_PATH = '/dashboard/createdashboard';

/** After login a user with workspaces goes home, one with none to create-dashboard. */
export function landingPath(session: Pick<Session, 'workspace'>): string {
  return session.workspace.length > 0 ? HOME_PATH : CREATE_DASHBOARD_PATH;
}

/** Every path except the auth pages needs a live session; others go to /auth/login. */
export function RequireAuth() {
  const session = useSession();
  if (!session) return <Navigate to={LOGIN_PATH} replace />;
  return <Outlet />;
}

/** Login and signup are for signed-out visitors; a signed-in one goes to their landing page. */
export function PublicOnly() {
  const session = useSession();
  if (session) return <Navigate to={landingPath(session)} replace />;
  return <Outlet />;
}

/** `?workspace=T...` on a dashboard link (the weekly digest's e-mail): the page opens on that workspace. */
export const WORKSPACE_PARAM = 'workspace';

/**
 * Dashboard pages need a workspace; without one the user belongs on the create-dashboard page. A link naming one
 * of the user's workspaces (`?workspace=`) switches to it first (the page reloads, as picking it in the workspace
 * menu does), so the page's queries start on the right one; the parameter then leaves the address. A workspace the
 * user does not administer is ignored.
 */
export function RequireWorkspace() {
  const session = useSession();
  const [params, setParams] = useSearchParams();
  const wanted = params.get(WORKSPACE_PARAM);
  const switchTo =
    wanted && session?.workspace.some((w) => w.team_id === wanted) && session.currentworkspace !== wanted
      ? wanted
      : null;
  useLayoutEffect(() => {
    if (!wanted) return;
    const rest = new URLSearchParams(params);
    rest.delete(WORKSPACE_PARAM);
    if (switchTo) {
      setCurrentWorkspace(switchTo);
      const query = rest.toString();
      window.location.replace(
        `${window.location.pathname}${query ? `?${query}` : ''}${window.location.hash}`,
      );
    } else setParams(rest, { replace: true });
  }, [wanted, switchTo, params, setParams]);
  if (session && session.workspace.length === 0) return <Navigate to={CREATE_DASHBOARD_PATH} replace />;
  if (wanted) return null;
  return <Outlet />;
}
