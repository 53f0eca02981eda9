import { useMutation } from '@tanstack/react-query';
import type { SignupBody } from '@flywheel/shared/auth';
import { messageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /auth/signup (no token). */
export const signup = (body: SignupBody) =>
  apiRequest('/auth/signup', { body, auth: false, schema: messageResponse });

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
