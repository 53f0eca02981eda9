import { linkOrigin } from '../../lib/link-origin.ts';
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';
import { AUTH_TEXT, type LoginResponse } from '@flywheel/shared/auth';
import { cutText } from '@flywheel/shared/text';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { Queue } from '../../jobs/queue.ts';
import { AppError } from '../../lib/errors.ts';
import { mailSendJob } from '../mail/jobs.ts';
import { resetPasswordMail, signupAttemptMail, verifyEmailMail } from '../mail/templates.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { weakPasswordReason } from './password-strength.ts';
import { authRepo } from './repo.ts';
import { randomToken, sessionTokens, sha256, type TokenClaims } from './tokens.ts';

// argon2id with OWASP's second recommended profile (19 MiB, 2 passes, 1 lane).
const ARGON = { algorithm: 2 as const, memoryCost: 19456, timeCost: 2, parallelism: 1 };
const VERIFY_TTL_MS = 48 * 3600_000;
const RESET_TTL_MS = 3600_000;
/** How long a login (or verification, or reset) at an address vouches for the account there. */
const PROOF_TTL_MS = 30 * 86400_000;
const PROOF_PREFIX = 'login-ok:';

export type AuthUser = { id: string; email: string; jti: string; exp: number };
/** Who is asking: the client's address (throttles count per address). */
/** `origin`: where e-mailed links lead back to (lib/link-origin.ts; PUBLIC_URL or the default without it). */
export type ClientMeta = { ip: string; userAgent?: string; origin?: string };

const minutesText = (seconds: number) => {
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

function assertStrong(password: string, userInputs: string[]) {
  const reason = weakPasswordReason(password, userInputs);
  if (reason) throw new AppError('WEAK_PASSWORD', 400, reason);
}
export type AuthService = Awaited<ReturnType<typeof authService>>;

type Deps = {
  db: Db;
  config: Config;
  queue: Pick<Queue, 'send'>;
  workspaces: WorkspacesService;
};

const retryAfterSeconds = (oldest: Date, windowMinutes: number) =>
  Math.max(1, Math.ceil((oldest.getTime() + windowMinutes * 60_000 - Date.now()) / 1000));

export async function authService({ db, config, queue, workspaces }: Deps) {
  const repo = authRepo(db);
  const secret =
    config.jwtSecret ?? (await repo.secret('jwt', () => crypto.randomBytes(48).toString('base64url')));
  const tokens = sessionTokens(secret);
  // Verifying against this when the e-mail is unknown keeps both answers equally slow.
  const dummyHash = await hash(crypto.randomBytes(16).toString('hex'), ARGON);

  const link = (path: string, token: string, origin: string | undefined) =>
    `${origin ?? linkOrigin(undefined, config.links)}${path}?token=${encodeURIComponent(token)}`;

  async function issueToken(userId: string, kind: 'verify_email' | 'reset_password', ttlMs: number) {
    await repo.retireTokens(userId, kind);
    const token = randomToken();
    await repo.insertToken({
      tokenHash: sha256(token),
      userId,
      kind,
      expiresAt: new Date(Date.now() + ttlMs),
    });
    return token;
  }

  /**
   * Every e-mail we send on request (signup, reset, verification) takes a slot per recipient and per client
   * address in the mail window: nobody can flood a mailbox or use us to send mail in bulk.
   */
  async function throttleMail(to: string, meta: ClientMeta) {
    const { windowMinutes, maxPerAddress, maxPerClient } = config.mailLimits;
    const slot = await repo.reserveAttempts(
      [
        { key: `mail-to:${to}`, max: maxPerAddress },
        { key: `mail-ip:${meta.ip}`, max: maxPerClient },
      ],
      new Date(Date.now() - windowMinutes * 60_000),
    );
    if (!slot.ok) {
      const retryAfter = retryAfterSeconds(slot.oldest, windowMinutes);
      throw new AppError(
        'TOO_MANY_ATTEMPTS',
        429,
        `Too many e-mails were requested. Please wait ${minutesText(retryAfter)} and try again.`,
        { 'retry-after': String(retryAfter) },
      );
    }
  }

  async function sendVerification(
    user: { id: string; email: string; username: string },
    origin: string | undefined,
  ) {
    const token = await issueToken(user.id, 'verify_email', VERIFY_TTL_MS);
    await queue.send(
      mailSendJob,
      verifyEmailMail(user.email, user.username, link('/auth/verify-email', token, origin)),
    );
  }

  /** The account proved at the address (see login): its owner logged in, verified or reset there. */
  const proofKey = (email: string, ip: string) => `${PROOF_PREFIX}${email}|${ip}`;
  const prove = (email: string, ip: string | undefined) =>
    ip ? repo.markProven(proofKey(email, ip)) : Promise.resolve();
  const isProven = (email: string, ip: string) =>
    repo.provenSince(proofKey(email, ip), new Date(Date.now() - PROOF_TTL_MS));

  async function loginResponse(user: { id: string; email: string; username: string; country: string }) {
    // Only verified accounts get here (login refuses the others): invitations to this address are theirs.
    await workspaces.acceptInvitations(user.id, user.email);
    return {
      userid: user.id,
      workspaces: await workspaces.listForUser(user.id),
      username: user.username,
      email: user.email,
      country: user.country,
    };
  }

  return {
    async signup(
      input: { email: string; password: string; username: string; country: string },
      meta: ClientMeta,
    ) {
      assertStrong(input.password, [input.email, input.username]);
      await throttleMail(input.email, meta);
      const user = {
        id: crypto.randomUUID(),
        email: input.email,
        username: input.username,
        country: input.country,
        passwordHash: await hash(input.password, ARGON),
      };
      if (await repo.insertUser(user)) await sendVerification(user, meta.origin);
      else {
        // The address has an account: the answer is the same as for a new one (it tells nobody who has an
        // account), and the owner hears of it by mail.
        const owner = await repo.findUserByEmail(input.email);
        if (owner) {
          const login = `${meta.origin ?? linkOrigin(undefined, config.links)}/auth/login`;
          await queue.send(mailSendJob, signupAttemptMail(owner.email, owner.username, login));
        }
      }
      return { message: AUTH_TEXT.signupDone };
    },

    async login(input: { email: string; password: string; remember?: boolean }, meta: ClientMeta) {
      const { windowMinutes, maxPerEmail, maxPerIp } = config.login;
      const since = new Date(Date.now() - windowMinutes * 60_000);
      const accountKey = `login:${input.email}|${meta.ip}`;
      const addressKey = `login-ip:${meta.ip}`;
      // Counted per e-mail AND address: a stranger elsewhere cannot lock the owner out. Every check takes its
      // slot first (atomically), so parallel guesses never pass the limit.
      let slot = await repo.reserveAttempts(
        [
          { key: accountKey, max: maxPerEmail },
          { key: addressKey, max: maxPerIp },
        ],
        since,
      );
      // Only the address is full (other accounts' failures, say from an office's shared address): whoever
      // proved this account at this address before (logged in, verified the e-mail or reset the password
      // here) still gets their password checked, within their account's own limit. Guesses elsewhere stay
      // bounded: past the address's limit only such proven accounts are checked at all, each its own few.
      if (!slot.ok && slot.key === addressKey && (await isProven(input.email, meta.ip)))
        slot = await repo.reserveAttempts([{ key: accountKey, max: maxPerEmail }], since);
      if (!slot.ok) {
        const retryAfter = retryAfterSeconds(slot.oldest, windowMinutes);
        throw new AppError(
          'TOO_MANY_ATTEMPTS',
          429,
          `Too many login attempts. Please wait ${minutesText(retryAfter)} and try again, or reset your password.`,
          { 'retry-after': String(retryAfter) },
        );
      }

      const user = await repo.findUserByEmail(input.email);
      const ok = await verify(user?.passwordHash ?? dummyHash, input.password).catch(() => false);
      if (!user || !ok) throw new AppError('INVALID_CREDENTIALS', 401, AUTH_TEXT.invalidCredentials);
      // The right password: this attempt does not count, and the e-mail's failures from here are forgiven.
      await repo.releaseAttempts(slot.ids);
      if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VERIFIED', 403, AUTH_TEXT.emailNotVerified);
      await repo.clearAttempts(accountKey);
      await prove(user.email, meta.ip);

      const ttlMs = input.remember ? config.rememberMeTtlDays * 86400_000 : config.tokenTtlHours * 3600_000;
      const expiresAt = new Date(Date.now() + ttlMs);
      const jti = crypto.randomUUID();
      await repo.insertSession({
        jti,
        userId: user.id,
        expiresAt,
        ip: meta.ip,
        userAgent: meta.userAgent === undefined ? undefined : cutText(meta.userAgent, 300),
      });
      const token = await tokens.sign({ sub: user.id, email: user.email, jti }, expiresAt);
      return { token, ...(await loginResponse(user)) } satisfies LoginResponse;
    },

    /** Resolves a bearer token to its user; 401 when forged, expired or revoked. */
    async authenticate(token: string): Promise<AuthUser> {
      const claims: TokenClaims = await tokens.verify(token);
      const session = await repo.findSession(claims.jti);
      if (!session || session.userId !== claims.sub) {
        throw new AppError('TOKEN_INVALID', 401, 'Your session token is not valid. Please log in again.');
      }
      if (session.revokedAt)
        throw new AppError('TOKEN_REVOKED', 401, 'You have been logged out. Please log in again.');
      // The session row decides too (it may be shortened after the token was signed).
      if (session.expiresAt.getTime() <= Date.now())
        throw new AppError('TOKEN_EXPIRED', 401, 'Your session has expired. Please log in again.');
      return { id: claims.sub, email: claims.email, jti: claims.jti, exp: claims.exp };
    },

    async logout(user: AuthUser, bodyToken?: string) {
      await repo.revokeSession(user.jti);
      // The call's body also names a token: revoke it too when it is one of this user's own.
      if (bodyToken) {
        const claims = await tokens.verify(bodyToken).catch(() => undefined);
        if (claims && claims.sub === user.id) await repo.revokeSession(claims.jti);
      }
      return { message: AUTH_TEXT.loggedOut };
    },

    async me(user: AuthUser) {
      const row = await repo.findUserById(user.id);
      if (!row)
        throw new AppError('TOKEN_INVALID', 401, 'Your account no longer exists. Please sign up again.');
      return loginResponse(row);
    },

    /** Answers the same whether or not the e-mail belongs to an account. */
    async requestPasswordReset(email: string, meta: ClientMeta) {
      await throttleMail(email, meta);
      const user = await repo.findUserByEmail(email);
      if (user) {
        const token = await issueToken(user.id, 'reset_password', RESET_TTL_MS);
        await queue.send(
          mailSendJob,
          resetPasswordMail(user.email, user.username, link('/auth/reset-password', token, meta.origin)),
        );
      }
      return { message: AUTH_TEXT.resetRequested };
    },

    async resetPassword(token: string, password: string, meta?: Pick<ClientMeta, 'ip'>) {
      // Strength first: a weak choice must not use up the single-use link.
      assertStrong(password, []);
      const userId = await repo.consumeToken(sha256(token), 'reset_password');
      if (!userId) {
        throw new AppError(
          'RESET_TOKEN_INVALID',
          400,
          'This reset link is invalid or has expired. Ask for a new one from the login page.',
        );
      }
      await repo.setPassword(userId, await hash(password, ARGON));
      // The link proved the mailbox; every old session ends with the old password.
      await repo.markVerified(userId);
      await repo.revokeAllSessions(userId);
      // The owner proved the mailbox: failed logins for the account no longer block it, from any address.
      const user = await repo.findUserById(userId);
      if (user) {
        await repo.clearAttemptsStartingWith(`login:${user.email}|`);
        await prove(user.email, meta?.ip);
      }
      return { message: AUTH_TEXT.resetDone };
    },

    async verifyEmail(token: string, meta?: Pick<ClientMeta, 'ip'>) {
      const userId = await repo.consumeToken(sha256(token), 'verify_email');
      if (!userId) {
        throw new AppError(
          'VERIFY_TOKEN_INVALID',
          400,
          'This verification link is invalid or has expired. Log in to have a new one sent.',
        );
      }
      await repo.markVerified(userId);
      const user = await repo.findUserById(userId);
      if (user) await prove(user.email, meta?.ip);
      return { message: AUTH_TEXT.verifyDone };
    },

    async resendVerification(email: string, meta: ClientMeta) {
      await throttleMail(email, meta);
      const user = await repo.findUserByEmail(email);
      if (user && !user.emailVerifiedAt) await sendVerification(user, meta.origin);
      return { message: AUTH_TEXT.verificationResent };
    },

    /** The demo administrator: created verified on first start, its password kept as configured. */
    async ensureVerifiedAccount(input: {
      email: string;
      password: string;
      username: string;
      country: string;
    }) {
      const existing = await repo.findUserByEmail(input.email);
      const passwordHash = await hash(input.password, ARGON);
      if (existing) {
        if (!(await verify(existing.passwordHash, input.password).catch(() => false)))
          await repo.setPassword(existing.id, passwordHash);
        await repo.markVerified(existing.id);
        return existing.id;
      }
      const id = crypto.randomUUID();
      await repo.insertUser({
        id,
        email: input.email,
        username: input.username,
        country: input.country,
        passwordHash,
      });
      await repo.markVerified(id);
      return id;
    },

    /** Epoch seconds of the demo's first start (kept in the database so restarts agree). */
    demoEpoch: async () =>
      Number(await repo.secret('demo_epoch', () => String(Math.floor(Date.now() / 1000)))),

    /**
     * One-time markers kept in the database beside the data they describe (the demo's seed): `claimMarker` is
     * true for the one caller that wrote it, whatever runs at once.
     */
    marker: (name: string) => repo.marker(name),
    claimMarker: (name: string, value: string) => repo.claimMarker(name, value),
    setMarker: (name: string, value: string) => repo.setMarker(name, value),

    purgeExpired: () =>
      repo.purgeExpired(
        new Date(Date.now() - 24 * 3600_000),
        new Date(Date.now() - PROOF_TTL_MS),
        PROOF_PREFIX,
      ),
  };
}
