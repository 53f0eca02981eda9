import { useMutation } from '@tanstack/react-query';
import { loginResponse, type LoginBody } from '@flywheel/shared/auth';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /auth/login (no token). */
export const login = (body: LoginBody) =>
  apiRequest('/auth/login', { body, auth: false, schema: loginResponse });

export function useLogin() {
  return useMutation({ mutationFn: login });
}
