import { queryOptions } from '@tanstack/react-query';
import { me } from '@flywheel/shared/endpoints/auth';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** GET /auth/me: refreshes the signed-in user; a 401 ends the session (api-client). */
export const getMe = (signal?: AbortSignal) => callEndpoint(me, {}, { signal });

export const meQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'me', token],
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 5 * 60_000,
  });
