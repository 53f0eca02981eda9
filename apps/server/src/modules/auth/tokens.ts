import crypto from 'node:crypto';
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose';
import { AppError } from '../../lib/errors.ts';

export type TokenClaims = { sub: string; email: string; jti: string; exp: number };

export const randomToken = () => crypto.randomBytes(32).toString('base64url');
export const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

export const sessionTokens = (secret: string) => {
  const key = new TextEncoder().encode(secret);
  return {
    async sign(claims: { sub: string; email: string; jti: string }, expiresAt: Date): Promise<string> {
      return new SignJWT({ email: claims.email })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setJti(claims.jti)
        .setIssuedAt()
        .setIssuer('flywheel')
        .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
        .sign(key);
    },
    /** Checks signature, issuer and expiry; throws a 401 AppError a person can act on. */
    async verify(token: string): Promise<TokenClaims> {
      try {
        const { payload } = await jwtVerify(token, key, { issuer: 'flywheel', algorithms: ['HS256'] });
        if (!payload.sub || !payload.jti || typeof payload.email !== 'string' || !payload.exp) {
          throw new AppError('TOKEN_INVALID', 401, 'Your session token is not valid. Please log in again.');
        }
        return { sub: payload.sub, jti: payload.jti, email: payload.email, exp: payload.exp };
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (err instanceof joseErrors.JWTExpired) {
          throw new AppError('TOKEN_EXPIRED', 401, 'Your session has expired. Please log in again.');
        }
        throw new AppError('TOKEN_INVALID', 401, 'Your session token is not valid. Please log in again.');
      }
    },
  };
};
