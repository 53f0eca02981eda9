import { queryOptions } from '@tanstack/react-query';
import { meResponse } from '@flywheel/shared/auth';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /auth/me: refreshes the signed-in user; a 401 ends the session (api-client). */
export const getMe = (signal?: AbortSignal) => apiRequest('/auth/me', { schema: meResponse, signal });

export const meQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'me', token],
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 5 * 60_000,
  });
