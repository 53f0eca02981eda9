import { useMutation } from '@tanstack/react-query';
import type { SignupBody } from '@flywheel/shared/auth';
import { signup as signupEndpoint } from '@flywheel/shared/endpoints/auth';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /auth/signup (no token). */
export const signup = (body: SignupBody) => callEndpoint(signupEndpoint, { body });

export function useSignup() {
  return useMutation({ mutationFn: signup });
}
