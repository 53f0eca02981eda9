import { Navigate, type RouteObject } from 'react-router';
import { PublicOnly, RequireAuth, RequireWorkspace, HOME_PATH } from './routes/guards.tsx';
import { FullPageLoader } from './routes/FullPageLoader.tsx';
import { lazyPage } from './routes/lazy-page.tsx';
import { RootLayout } from './routes/RootLayout.tsx';
import { RouteErrorBoundary } from './routes/RouteErrorBoundary.tsx';

/*
 * Every page is its own chunk, fetched when it renders: the login route loads only the entry chunk
 * (router, providers, session) and its own page, never the dashboard shell, charts or the editor.
 */
const full = <FullPageLoader />;
const LoginPage = lazyPage(() => import('../features/auth/LoginPage.tsx').then((m) => m.LoginPage), full);
const SignupPage = lazyPage(() => import('../features/auth/SignupPage.tsx').then((m) => m.SignupPage), full);
const VerifyEmailPage = lazyPage(
  () => import('../features/auth/VerifyEmailPage.tsx').then((m) => m.VerifyEmailPage),
  full,
);
const ResetPasswordPage = lazyPage(
  () => import('../features/auth/ResetPasswordPage.tsx').then((m) => m.ResetPasswordPage),
  full,
);
const NotFoundView = lazyPage(
  () => import('../components/NotFoundView.tsx').then((m) => m.NotFoundView),
  full,
);
const InstallWorkspacePage = lazyPage(
  () => import('../features/workspaces/InstallWorkspacePage.tsx').then((m) => m.InstallWorkspacePage),
  full,
);
export const DashboardLayout = lazyPage(
  () => import('./shell/DashboardLayout.tsx').then((m) => m.DashboardLayout),
  full,
);

const CreateDashboardPage = lazyPage(() =>
  import('../features/workspaces/CreateDashboardPage.tsx').then((m) => m.CreateDashboardPage),
);
const SlackAppPage = lazyPage(() =>
  import('../features/workspaces/SlackAppPage.tsx').then((m) => m.SlackAppPage),
);
/** Modules a cold load also preloads (see pageCode): one import each, so one list of its files in the entry. */
export const homeModule = () => import('../features/home/HomePage.tsx');
export const analyticsModule = () => import('../features/analytics/AnalyticsPage.tsx');
export const membersModule = () => import('./routes/members-pages.tsx');

export const HomePage = lazyPage(() => homeModule().then((m) => m.HomePage));
export const AnalyticsPage = lazyPage(() => analyticsModule().then((m) => m.AnalyticsPage));
const ActionsPage = lazyPage(() => import('./routes/actions-pages.tsx').then((m) => m.ActionsWithSending));
const FormInstancePage = lazyPage(() =>
  import('../features/forms/FormInstancePage.tsx').then((m) => m.FormInstancePage),
);
export const MembersPage = lazyPage(() => membersModule().then((m) => m.MembersWithSending));
const MemberDetailPage = lazyPage(() => membersModule().then((m) => m.MemberDetailWithSending));
const WorkflowsPage = lazyPage(() =>
  import('../features/workflows/WorkflowsPage.tsx').then((m) => m.WorkflowsPage),
);
const CreateWorkflowPage = lazyPage(() =>
  import('../features/workflows/CreateWorkflowPage.tsx').then((m) => m.CreateWorkflowPage),
);
const WorkflowDetailsPage = lazyPage(() =>
  import('../features/workflows/WorkflowDetailsPage.tsx').then((m) => m.WorkflowDetailsPage),
);
const SettingsPage = lazyPage(() => import('./routes/settings-pages.tsx').then((m) => m.SettingsWithTabs));
const ReceiptsPage = lazyPage(() =>
  import('../features/delivery/ReceiptsPage.tsx').then((m) => m.ReceiptsPage),
);

const dashboardPages: RouteObject[] = [
  { index: true, element: <Navigate to={HOME_PATH} replace /> },
  { path: 'home', element: <HomePage /> },
  { path: 'analytics', element: <AnalyticsPage /> },
  { path: 'actions', element: <Navigate to="/dashboard/actions/threads" replace /> },
  { path: 'actions/form-instances/:mid/:fid/:label', element: <FormInstancePage /> },
  // The fourth path segment picks the tab; an unknown tab falls back to threads (ActionsPage).
  { path: 'actions/:tab', element: <ActionsPage /> },
  // A fifth segment or more goes to /404.
  { path: 'actions/:tab/*', element: <Navigate to="/404" replace /> },
  { path: 'members', element: <MembersPage /> },
  { path: 'members/:memberId', element: <MemberDetailPage /> },
  { path: 'workflows', element: <WorkflowsPage /> },
  { path: 'workflows/create-new-workflow', element: <CreateWorkflowPage /> },
  { path: 'workflows/details', element: <WorkflowDetailsPage /> },
  { path: 'receipts', element: <ReceiptsPage /> },
  { path: 'settings', element: <Navigate to="/dashboard/settings/team" replace /> },
  // The fourth path segment picks the tab; an unknown tab falls back to Team (SettingsPage).
  { path: 'settings/:tab', element: <SettingsPage /> },
];

export const routes: RouteObject[] = [
  {
    path: '/',
    element: <RootLayout />,
    errorElement: <RouteErrorBoundary />,
    children: [
      { index: true, element: <Navigate to={HOME_PATH} replace /> },
      { path: 'auth', element: <Navigate to="/auth/login" replace /> },
      {
        element: <PublicOnly />,
        children: [
          { path: 'auth/login', element: <LoginPage /> },
          { path: 'auth/signup', element: <SignupPage /> },
        ],
      },
      { path: 'auth/verify-email', element: <VerifyEmailPage /> },
      { path: 'auth/reset-password', element: <ResetPasswordPage /> },
      {
        element: <RequireAuth />,
        children: [
          { path: 'installworkspace', element: <InstallWorkspacePage /> },
          {
            element: <DashboardLayout />,
            children: [
              {
                errorElement: <RouteErrorBoundary />,
                children: [
                  { path: 'dashboard/createdashboard', element: <CreateDashboardPage /> },
                  { path: 'createdashboard', element: <CreateDashboardPage /> },
                  // Reachable with or without a workspace: connecting a real Slack comes before the first one.
                  { path: 'dashboard/slack-app', element: <SlackAppPage /> },
                  {
                    element: <RequireWorkspace />,
                    children: [{ path: 'dashboard', children: dashboardPages }],
                  },
                ],
              },
            ],
          },
        ],
      },
      // The not-found page is public: it reveals nothing and its 'Back to home' link leads to login.
      { path: '404', element: <NotFoundView /> },
      { path: '*', element: <NotFoundView /> },
    ],
  },
];
