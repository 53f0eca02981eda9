import { queryOptions } from '@tanstack/react-query';
import { getPublicConfig as publicConfigEndpoint } from '@flywheel/shared/endpoints/platform';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** GET /public/config: demo credentials shown on the login page in demo mode. */
export const getPublicConfig = (signal?: AbortSignal) => callEndpoint(publicConfigEndpoint, {}, { signal });

export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: ({ signal }) => getPublicConfig(signal),
  staleTime: Infinity,
  retry: false,
});
