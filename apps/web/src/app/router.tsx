import { Navigate, type RouteObject } from 'react-router';
import { PublicOnly, RequireAuth, RequireWorkspace, HOME_PATH } from './routes/guards.tsx';
import { RootLayout } from './routes/RootLayout.tsx';
import { RouteErrorBoundary } from './routes/RouteErrorBoundary.tsx';
import { FullPageLoader } from './routes/FullPageLoader.tsx';

/*
 * Every page is a lazy chunk: the login route loads only the entry chunk (router, providers, session)
 * and its own page, never the dashboard shell, charts or the editor.
 */
const dashboardPages: RouteObject[] = [
  { index: true, element: <Navigate to={HOME_PATH} replace /> },
  {
    path: 'home',
    lazy: () => import('../features/home/HomePage.tsx').then((m) => ({ Component: m.HomePage })),
  },
  {
    path: 'analytics',
    lazy: () =>
      import('../features/analytics/AnalyticsPage.tsx').then((m) => ({ Component: m.AnalyticsPage })),
  },
  { path: 'actions', element: <Navigate to="/dashboard/actions/threads" replace /> },
  {
    path: 'actions/form-instances/:mid/:fid/:label',
    lazy: () =>
      import('../features/actions/FormInstancePage.tsx').then((m) => ({ Component: m.FormInstancePage })),
  },
  {
    // The fourth path segment picks the tab; an unknown tab falls back to threads (ActionsPage).
    path: 'actions/:tab',
    lazy: () => import('../features/actions/ActionsPage.tsx').then((m) => ({ Component: m.ActionsPage })),
  },
  // Spec section 2: a fifth segment or more goes to /404.
  { path: 'actions/:tab/*', element: <Navigate to="/404" replace /> },
  {
    path: 'members',
    lazy: () => import('../features/members/MembersPage.tsx').then((m) => ({ Component: m.MembersPage })),
  },
  {
    path: 'members/:memberId',
    lazy: () =>
      import('../features/members/MemberDetailPage.tsx').then((m) => ({ Component: m.MemberDetailPage })),
  },
  {
    path: 'workflows',
    lazy: () =>
      import('../features/workflows/WorkflowsPage.tsx').then((m) => ({ Component: m.WorkflowsPage })),
  },
  {
    path: 'workflows/create-new-workflow',
    lazy: () =>
      import('../features/workflows/CreateWorkflowPage.tsx').then((m) => ({
        Component: m.CreateWorkflowPage,
      })),
  },
  {
    path: 'workflows/details',
    lazy: () =>
      import('../features/workflows/WorkflowDetailsPage.tsx').then((m) => ({
        Component: m.WorkflowDetailsPage,
      })),
  },
  {
    path: 'receipts',
    lazy: () => import('../features/receipts/ReceiptsPage.tsx').then((m) => ({ Component: m.ReceiptsPage })),
  },
];

const createDashboard = () =>
  import('../features/workspaces/CreateDashboardPage.tsx').then((m) => ({
    Component: m.CreateDashboardPage,
  }));

const notFound = () => import('../components/NotFoundView.tsx').then((m) => ({ Component: m.NotFoundView }));

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteErrorBoundary />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      { path: 'auth', element: <Navigate to="/auth/login" replace /> },
      {
        element: <PublicOnly />,
        children: [
          {
            path: 'auth/login',
            lazy: () => import('../features/auth/LoginPage.tsx').then((m) => ({ Component: m.LoginPage })),
          },
          {
            path: 'auth/signup',
            lazy: () => import('../features/auth/SignupPage.tsx').then((m) => ({ Component: m.SignupPage })),
          },
        ],
      },
      {
        path: 'auth/verify-email',
        lazy: () =>
          import('../features/auth/VerifyEmailPage.tsx').then((m) => ({ Component: m.VerifyEmailPage })),
      },
      {
        path: 'auth/reset-password',
        lazy: () =>
          import('../features/auth/ResetPasswordPage.tsx').then((m) => ({ Component: m.ResetPasswordPage })),
      },
      {
        element: <RequireAuth />,
        children: [
          {
            path: 'installworkspace',
            lazy: () =>
              import('../features/workspaces/InstallWorkspacePage.tsx').then((m) => ({
                Component: m.InstallWorkspacePage,
              })),
          },
          { path: '404', lazy: notFound },
          {
            lazy: () => import('./shell/DashboardLayout.tsx').then((m) => ({ Component: m.DashboardLayout })),
            children: [
              {
                errorElement: <RouteErrorBoundary />,
                children: [
                  { path: 'dashboard/createdashboard', lazy: createDashboard },
                  { path: 'createdashboard', lazy: createDashboard },
                  {
                    element: <RequireWorkspace />,
                    children: [{ path: 'dashboard', children: dashboardPages }],
                  },
                ],
              },
            ],
          },
          { path: '*', lazy: notFound },
        ],
      },
    ],
  },
];
