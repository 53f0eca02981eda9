import { dashboardPage } from './boot.ts';
import {
  AnalyticsPage,
  analyticsModule,
  DashboardLayout,
  HomePage,
  homeModule,
  MembersPage,
  membersModule,
} from './router.tsx';

/**
 * What a cold load of Home, Analytics and Members needs before its first render: the page and the part it loads under its
 * header (charts, the sending button), fetched side by side with the dashboard frame. scripts/main-pages.mjs
 * lists the same modules for the build's chunks and its boot script.
 */
const pageCode: Record<string, () => Promise<unknown>> = {
  home: () =>
    Promise.all([
      HomePage.preload(),
      import('../features/home/HomeDashboard.tsx'),
      homeModule().then((m) => m.HomeDashboard.preload()),
    ]),
  analytics: () =>
    Promise.all([
      AnalyticsPage.preload(),
      import('../features/analytics/AnalyticsDashboard.tsx'),
      analyticsModule().then((m) => m.AnalyticsDashboard.preload()),
    ]),
  members: () => Promise.all([MembersPage.preload(), membersModule().then((m) => m.preloadSending())]),
};

/**
 * A signed-in user's cold load of a dashboard page: the frame's and the page's code load side by side (while
 * their data is on its way: boot-data.ts), instead of each lazy part starting when the one around it renders;
 * the app renders once they are in (main.tsx). Resolves then (never rejects: a chunk that failed shows its error
 * when it renders).
 */
export function preloadDashboard(pathname: string): Promise<void> {
  const page = dashboardPage(pathname);
  if (page === null) return Promise.resolve();
  return Promise.all([DashboardLayout.preload(), pageCode[page]?.()]).then(
    () => undefined,
    () => undefined,
  );
}
