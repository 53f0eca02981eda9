import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /auth/resendverification: a new verification link for an unverified account. */
export const resendVerification = (email: string) =>
  apiRequest('/auth/resendverification', { body: { email }, auth: false, schema: messageResponse });

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
