import { queryOptions, useMutation } from '@tanstack/react-query';
import type { LoginBody, LoginResponse, MeResponse, SignupBody } from '@flywheel/shared/auth';
import type { MessageResponse } from '@flywheel/shared/http';
import { apiRequest } from '../../lib/api-client.ts';

/** GET /api/v0/public/config: demo credentials shown on the login page in demo mode. */
export type PublicConfig = { demoMode: boolean; demoEmail: string | null; demoPassword: string | null };

export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: ({ signal }) => apiRequest<PublicConfig>('/public/config', { auth: false, signal }),
  staleTime: Infinity,
  retry: false,
});

/** GET /api/v0/auth/me: refreshes the signed-in user; a 401 ends the session (api-client). */
export const meQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'me', token],
    queryFn: ({ signal }) => apiRequest<MeResponse>('/auth/me', { signal }),
    staleTime: 5 * 60_000,
  });

export function useLogin() {
  return useMutation({
    mutationFn: (body: LoginBody) => apiRequest<LoginResponse>('/auth/login', { body, auth: false }),
  });
}

export function useSignup() {
  return useMutation({
    mutationFn: (body: SignupBody) => apiRequest<MessageResponse>('/auth/signup', { body, auth: false }),
  });
}

export function useRequestPasswordReset() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<MessageResponse>('/auth/inititatechangepassword', { body: { email }, auth: false }),
  });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: (body: { token: string; password: string }) =>
      apiRequest<MessageResponse>('/auth/resetpassword', { body, auth: false }),
  });
}

export function useResendVerification() {
  return useMutation({
    mutationFn: (email: string) =>
      apiRequest<MessageResponse>('/auth/resendverification', { body: { email }, auth: false }),
  });
}

export const verifyEmailQuery = (token: string) =>
  queryOptions({
    queryKey: ['auth', 'verify-email', token],
    queryFn: () => apiRequest<MessageResponse>('/auth/verifyemail', { body: { token }, auth: false }),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
