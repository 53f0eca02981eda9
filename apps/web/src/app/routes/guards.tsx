import { Navigate, Outlet } from 'react-router';
import { useSession, type Session } from '../../lib/session.ts';

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

/** Dashboard pages need a workspace; without one the user belongs on the create-dashboard page. */
export function RequireWorkspace() {
  const session = useSession();
  if (session && session.workspace.length === 0) return <Navigate to={CREATE_DASHBOARD_PATH} replace />;
  return <Outlet />;
}
