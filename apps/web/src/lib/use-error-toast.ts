import { useEffect } from 'react';
import { errorMessage } from './api-client.ts';
import { notifyFailure } from './notify.tsx';

/**
 * Shows one failure toast each time a query fails. `message` is the fixed text a screen uses
 * ('Failed to get data!'); without it the server's message is shown. Identical messages shown at the same
 * time are one toast.
 */
export function useErrorToast(
  query: { error: unknown; errorUpdatedAt: number; isError: boolean },
  message?: string,
): void {
  const { isError, errorUpdatedAt, error } = query;
  useEffect(() => {
    if (!isError) return;
    const text = message ?? errorMessage(error);
    // Several cards failing together (or one failing again while its toast shows) make one toast.
    notifyFailure(text, 'Failure', `query-failure:${text}`);
    // A new failure has a new errorUpdatedAt; the message for one failure is shown once.
  }, [isError, errorUpdatedAt]);
}
