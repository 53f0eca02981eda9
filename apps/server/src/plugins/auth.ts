import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors.ts';
import type { AuthService, AuthUser } from '../modules/auth/service.ts';

declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  interface FastifyRequest {
    user?: AuthUser;
  }
}

/** A hook that requires a live bearer token ('Token is required', 401). */
export const authenticate = (auth: AuthService) => async (request: FastifyRequest) => {
  const header = request.headers.authorization;
  const match = header?.match(/^Bearer\s+(\S+)$/i);
  if (!match) throw new AppError('TOKEN_REQUIRED', 401, 'Token is required');
  request.user = await auth.authenticate(match[1]!);
};

/** The signed-in user of a route guarded by `authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.user) throw new AppError('TOKEN_REQUIRED', 401, 'Token is required');
  return request.user;
}
