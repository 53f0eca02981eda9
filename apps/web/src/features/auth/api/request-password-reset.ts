import { useMutation } from '@tanstack/react-query';
import { initiateChangePassword } from '@flywheel/shared/endpoints/auth';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /auth/inititatechangepassword (the API's spelling): e-mails a reset link. */
export const requestPasswordReset = (email: string) =>
  callEndpoint(initiateChangePassword, { body: { email } });

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
