import { queryOptions } from '@tanstack/react-query';
import { verifyEmail as verifyEmailEndpoint } from '@flywheel/shared/endpoints/auth';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /auth/verifyemail: completes the e-mailed verification link (asked once per token). */
export const verifyEmail = (token: string) => callEndpoint(verifyEmailEndpoint, { body: { token } });

export const verifyEmailQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => verifyEmail(token),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
