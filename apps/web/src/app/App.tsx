import { useState } from 'react';
import { RouterProvider, createBrowserRouter } from 'react-router';
import { Providers, createQueryClient } from './providers.tsx';
import { routes } from './router.tsx';

export function App() {
  const [queryClient] = useState(createQueryClient);
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>
  );
}
