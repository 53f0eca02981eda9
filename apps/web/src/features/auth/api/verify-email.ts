import { queryOptions } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /auth/verifyemail: completes the e-mailed verification link (asked once per token). */
export const verifyEmail = (token: string) =>
  apiRequest('/auth/verifyemail', { body: { token }, auth: false, schema: messageResponse });

export const verifyEmailQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => verifyEmail(token),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
