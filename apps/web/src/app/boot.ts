/**
 * The main page a signed-in cold load opens, by the path segment that names it ('home', 'analytics', …), or
 * null off the dashboard. '/' opens Home (routes/guards.tsx sends it there when the user has a workspace).
 */
export function dashboardPage(pathname: string): string | null {
  if (pathname === '/') return 'home';
  return /^\/dashboard\/([a-z]+)/.exec(pathname)?.[1] ?? null;
}

/**
 * The page whose first data a cold load asks for ahead: a main page itself ('/dashboard/members'), '' for a page
 * under it ('/dashboard/members/U123': the frame's data only, not the list's), null off the dashboard.
 */
export function firstDataPage(pathname: string): string | null {
  const page = dashboardPage(pathname);
  if (page === null) return null;
  return pathname === '/' || /^\/dashboard\/[a-z]+\/?$/.test(pathname) ? page : '';
}

/**
 * When a cold load renders: once its code is in, and then once its first data is in too, but waiting for the data
 * no longer than `graceMs` (a slow answer shows skeletons instead of holding the page). Never rejects.
 */
export function renderWhen(code: Promise<unknown>, data: Promise<unknown>, graceMs: number): Promise<void> {
  const settled = (p: Promise<unknown>) =>
    p.then(
      () => undefined,
      () => undefined,
    );
  return settled(code).then(() =>
    Promise.race([settled(data), new Promise<void>((resolve) => setTimeout(resolve, graceMs))]),
  );
}
