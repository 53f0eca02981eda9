import { useMutation } from '@tanstack/react-query';
import { resetPassword as resetPasswordEndpoint } from '@flywheel/shared/endpoints/auth';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /auth/resetpassword: completes the e-mailed reset link. */
export const resetPassword = (body: { token: string; password: string }) =>
  callEndpoint(resetPasswordEndpoint, { body });

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
