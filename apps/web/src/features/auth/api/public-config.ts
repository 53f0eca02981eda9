import { queryOptions } from '@tanstack/react-query';
import { publicConfigResponse } from '@flywheel/shared/auth';
import { apiRequest } from '../../../lib/api-client.ts';

/** GET /public/config: demo credentials shown on the login page in demo mode. */
export const getPublicConfig = (signal?: AbortSignal) =>
  apiRequest('/public/config', { auth: false, schema: publicConfigResponse, signal });

export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: ({ signal }) => getPublicConfig(signal),
  staleTime: Infinity,
  retry: false,
});
