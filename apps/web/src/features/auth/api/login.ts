import { useMutation } from '@tanstack/react-query';
import type { LoginBody } from '@flywheel/shared/auth';
import { login as loginEndpoint } from '@flywheel/shared/endpoints/auth';
import { callEndpoint } from '../../../lib/endpoint-client.ts';

/** POST /auth/login (no token). */
export const login = (body: LoginBody) => callEndpoint(loginEndpoint, { body });

export function useLogin() {
  return useMutation({ mutationFn: login });
}
