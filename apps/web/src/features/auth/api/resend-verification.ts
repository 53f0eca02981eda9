import { useMutation } from '@tanstack/react-query';
import { resendVerification as resendVerificationEndpoint } from '@flywheel/shared/endpoints/auth';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /auth/resendverification: a new verification link for an unverified account. */
export const resendVerification = (email: string) =>
  callEndpoint(resendVerificationEndpoint, { body: { email } });

export function useResendVerification() {
  return useMutation({ mutationFn: resendVerification });
}
