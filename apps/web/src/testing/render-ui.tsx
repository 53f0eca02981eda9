import type { ReactElement } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Providers, createQueryClient } from '../app/providers.tsx';

/** Renders one component inside the app's providers (theme, toasts, queries), without routes. */
export function renderUi(ui: ReactElement) {
  const queryClient = createQueryClient();
  const user = userEvent.setup();
  const view = render(
    <Providers queryClient={queryClient} env="test">
      {ui}
    </Providers>,
  );
  return { ...view, user, queryClient };
}
