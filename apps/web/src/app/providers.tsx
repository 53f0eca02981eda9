import type { ReactNode } from 'react';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TOAST_MS } from '@flywheel/shared/constants';
import { theme } from './theme.ts';

/** Made in query-client.ts (main.tsx makes it before the app's heavier modules run: app/boot-data.ts). */
export { createQueryClient } from './query-client.ts';

type ProvidersProps = {
  children: ReactNode;
  queryClient: QueryClient;
  /** 'test' turns off transitions and portals for component tests. */
  env?: 'default' | 'test';
};

export function Providers({ children, queryClient, env = 'default' }: ProvidersProps) {
  return (
    <MantineProvider theme={theme} defaultColorScheme="light" env={env}>
      {/* Top-right, below the 64 px header (global.css '.app-toasts'): never over the workspace switcher or avatar. */}
      <Notifications
        position="top-right"
        autoClose={TOAST_MS}
        limit={4}
        zIndex={1000}
        classNames={{ root: 'app-toasts' }}
      />
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
