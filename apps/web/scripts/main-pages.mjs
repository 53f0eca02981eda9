// The dashboard frame and the main pages a signed-in cold load preloads, with the part each loads under its
// header: read by the two-pass build (scripts/build.mjs) and the boot script (scripts/vite-plugins.ts), which must
// agree with app/cold-start.ts. Each page's list ends with the queries of its first data (app/warm-start.ts,
// asked for while the code loads: app/boot-data.ts).
export const FRAME = 'src/app/shell/DashboardLayout.tsx';
const WARM_START = 'src/app/warm-start.ts';
export const MAIN_PAGES = {
  home: ['src/features/home/HomePage.tsx', 'src/features/home/HomeDashboard.tsx', WARM_START],
  analytics: [
    'src/features/analytics/AnalyticsPage.tsx',
    'src/features/analytics/AnalyticsDashboard.tsx',
    WARM_START,
  ],
  members: ['src/app/routes/members-pages.tsx', 'src/app/routes/delivery-slots.ts', WARM_START],
};
