import { useMutation } from '@tanstack/react-query';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /auth/inititatechangepassword (the API's spelling): e-mails a reset link. */
export const requestPasswordReset = (email: string) =>
  apiRequest('/auth/inititatechangepassword', { body: { email }, auth: false, schema: messageResponse });

export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset });
}
