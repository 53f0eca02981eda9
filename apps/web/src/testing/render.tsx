import { StrictMode } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router';
import { Providers, createQueryClient } from '../app/providers.tsx';
import { routes as appRoutes } from '../app/router.tsx';
import { restoreSession } from '../lib/session.ts';

/** Renders the whole app (real routes, guards and providers) at `path`, as after a page load. */
/** `strict` renders inside React's StrictMode (effects run twice on mount, as in development). */
export function renderApp(
  path: string,
  options: { routes?: RouteObject[]; strict?: boolean; queryClient?: QueryClient } = {},
) {
  restoreSession();
  const router = createMemoryRouter(options.routes ?? appRoutes, { initialEntries: [path] });
  const queryClient = options.queryClient ?? createQueryClient();
  const user = userEvent.setup();
  const app = (
    <Providers queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </Providers>
  );
  const view = render(options.strict ? <StrictMode>{app}</StrictMode> : app);
  return { ...view, router, user, queryClient, location: () => router.state.location };
}

/** Renders one component inside the app's providers (Mantine in test mode, a fresh query client). */
export function renderUi(ui: React.ReactElement) {
  const user = userEvent.setup();
  const queryClient = createQueryClient();
  const wrapper = ({ children }: { children: React.ReactNode }) => (
    <Providers queryClient={queryClient} env="test">
      {children}
    </Providers>
  );
  return { ...render(ui, { wrapper }), user, queryClient };
}
