import {
  initiateChangePasswordBody,
  loginBody,
  loginResponse,
  logoutBody,
  meResponse,
  resendVerificationBody,
  resetPasswordBody,
  signupBody,
  verifyEmailBody,
} from '../auth.ts';
import { defineEndpoint } from '../endpoint.ts';
import { messageResponse } from '../http.ts';

/*
 * Accounts (apps/server/src/modules/auth/routes.ts): public calls, and the signed-in person's own (`user`, the
 * token checked after the schema). /auth/algoliatoken, an old call the conversations module answers, is declared
 * with that module's calls (endpoints/conversations.ts).
 */

const tags = ['auth'] as const;

export const signup = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth/signup',
  scope: 'public',
  tags,
  body: signupBody,
  response: { 201: messageResponse },
});

export const login = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth/login',
  scope: 'public',
  tags,
  body: loginBody,
  response: { 200: loginResponse },
});

export const logout = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth/logout',
  scope: 'user',
  tags,
  body: logoutBody.optional(),
  response: { 200: messageResponse },
});

export const me = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/auth/me',
  scope: 'user',
  tags,
  response: { 200: meResponse },
});

export const initiateChangePassword = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth/inititatechangepassword',
  scope: 'public',
  tags,
  body: initiateChangePasswordBody,
  response: { 200: messageResponse },
});

export const resetPassword = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth/resetpassword',
  scope: 'public',
  tags,
  body: resetPasswordBody,
  response: { 200: messageResponse },
});

export const verifyEmail = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth/verifyemail',
  scope: 'public',
  tags,
  body: verifyEmailBody,
  response: { 200: messageResponse },
});

export const resendVerification = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/auth/resendverification',
  scope: 'public',
  tags,
  body: resendVerificationBody,
  response: { 200: messageResponse },
});
