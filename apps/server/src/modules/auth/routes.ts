import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  initiateChangePassword,
  login,
  logout,
  me,
  resendVerification,
  resetPassword,
  signup,
  verifyEmail,
} from '@flywheel/shared/endpoints/auth';
import { authenticate, currentUser } from '../../plugins/auth.ts';
import { endpointRoutes } from '../../plugins/endpoint-route.ts';
import { linkOrigin, type LinkOriginPolicy } from '../../lib/link-origin.ts';
import type { AuthService } from './service.ts';

/** `links`: where e-mailed links lead back to (the origin the user is on when allowed, lib/link-origin.ts). */
export function authRoutes(auth: AuthService, links?: LinkOriginPolicy) {
  return async (app: FastifyInstance) => {
    const route = endpointRoutes(app, { user: authenticate(auth), userAt: 'preHandler' });
    const mailMeta = (req: FastifyRequest) => ({
      ip: req.ip,
      origin: links ? linkOrigin(req, links) : undefined,
    });

    route(signup, async (req, reply) => reply.code(201).send(await auth.signup(req.body, mailMeta(req))));
    route(login, async (req) => auth.login(req.body, { ip: req.ip, userAgent: req.headers['user-agent'] }));
    route(logout, async (req) => auth.logout(currentUser(req), req.body?.token));
    route(me, async (req) => auth.me(currentUser(req)));
    route(initiateChangePassword, async (req) => auth.requestPasswordReset(req.body.email, mailMeta(req)));
    route(resetPassword, async (req) =>
      auth.resetPassword(req.body.token, req.body.password, { ip: req.ip }),
    );
    route(verifyEmail, async (req) => auth.verifyEmail(req.body.token, { ip: req.ip }));
    route(resendVerification, async (req) => auth.resendVerification(req.body.email, mailMeta(req)));
  };
}
