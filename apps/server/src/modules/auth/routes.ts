import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
} from '@flywheel/shared/auth';
import { messageResponse } from '@flywheel/shared/http';
import { authenticate, currentUser } from '../../plugins/auth.ts';
import { linkOrigin, type LinkOriginPolicy } from '../../lib/link-origin.ts';
import type { AuthService } from './service.ts';

const tags = ['auth'];

/** `links`: where e-mailed links lead back to (the origin the user is on when allowed, lib/link-origin.ts). */
export function authRoutes(auth: AuthService, links?: LinkOriginPolicy) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();
    const guard = authenticate(auth);
    const mailMeta = (req: FastifyRequest) => ({
      ip: req.ip,
      origin: links ? linkOrigin(req, links) : undefined,
    });

    r.post(
      '/auth/signup',
      { schema: { tags, body: signupBody, response: { 201: messageResponse } } },
      async (req, reply) => reply.code(201).send(await auth.signup(req.body, mailMeta(req))),
    );
    r.post(
      '/auth/login',
      { schema: { tags, body: loginBody, response: { 200: loginResponse } } },
      async (req) => auth.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] }),
    );
    r.post(
      '/auth/logout',
      {
        preHandler: guard,
        schema: { tags, body: logoutBody.optional(), response: { 200: messageResponse } },
      },
      async (req) => auth.logout(currentUser(req), req.body?.token),
    );
    r.get('/auth/me', { preHandler: guard, schema: { tags, response: { 200: meResponse } } }, async (req) =>
      auth.me(currentUser(req)),
    );
    r.post(
      '/auth/inititatechangepassword',
      { schema: { tags, body: initiateChangePasswordBody, response: { 200: messageResponse } } },
      async (req) => auth.requestPasswordReset(req.body.email, mailMeta(req)),
    );
    r.post(
      '/auth/resetpassword',
      { schema: { tags, body: resetPasswordBody, response: { 200: messageResponse } } },
      async (req) => auth.resetPassword(req.body.token, req.body.password, { ip: req.ip }),
    );
    r.post(
      '/auth/verifyemail',
      { schema: { tags, body: verifyEmailBody, response: { 200: messageResponse } } },
      async (req) => auth.verifyEmail(req.body.token, { ip: req.ip }),
    );
    r.post(
      '/auth/resendverification',
      { schema: { tags, body: resendVerificationBody, response: { 200: messageResponse } } },
      async (req) => auth.resendVerification(req.body.email, mailMeta(req)),
    );
  };
}
