import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorView } from '../../components/ErrorView.tsx';

/** Route-level error boundary: a crash in any page shows 'TAKE ME BACK TO HOME' and 'REPORT BUG?'. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const normalised = isRouteErrorResponse(error)
    ? new Error(`${error.status} ${error.statusText}`)
    : error instanceof Error
      ? error
      : new Error(String(error));
  return <ErrorView error={normalised} />;
}
