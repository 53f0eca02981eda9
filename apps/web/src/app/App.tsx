import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Providers } from './providers.tsx';
import { routes } from './router.tsx';

/** The app. Its query client is made by main.tsx, which may start a cold load's queries before it renders. */
export function App({ queryClient }: { queryClient: QueryClient }) {
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
