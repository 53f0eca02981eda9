import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /auth/resetpassword: completes the e-mailed reset link. */
export const resetPassword = (body: { token: string; password: string }) =>
  apiRequest('/auth/resetpassword', { body, auth: false, schema: messageResponse });

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
