import { useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Providers, createQueryClient } from './providers.tsx';
import { getSession } from '../lib/session.ts';
import { preloadDashboard, routes } from './router.tsx';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => {
    // Signed out, the guards send a dashboard URL to the login page: its code is not fetched for nothing.
    if (getSession()) preloadDashboard(window.location.pathname);
    return createBrowserRouter(routes);
  });
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
