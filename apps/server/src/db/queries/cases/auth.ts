import { authRepo } from '../../../modules/auth/repo.ts';
import { AT, LATER, type QueryCase } from './common.ts';
import { USER, seedWorkspace } from './fixture.ts';

const file = 'auth';
const PROOF = 'login-ok:ada@example.com|127.0.0.1';

export const auth: QueryCase[] = [
  {
    file,
    name: 'authRepo.findUserByEmail',
    run: (db) => authRepo(db).findUserByEmail('ada@example.com'),
  },
  { file, name: 'authRepo.findUserById', run: (db) => authRepo(db).findUserById(USER) },
  {
    file,
    name: 'authRepo.insertUser',
    run: (db) =>
      authRepo(db).insertUser({
        id: 'u-new',
        email: 'new@example.com',
        username: 'new',
        country: 'DE',
        passwordHash: 'hash',
      }),
  },
  { file, name: 'authRepo.setPassword', run: (db) => authRepo(db).setPassword(USER, 'hash-2') },
  { file, name: 'authRepo.markVerified', run: (db) => authRepo(db).markVerified(USER) },
  {
    file,
    name: 'authRepo.insertSession',
    seed: seedWorkspace,
    run: (db) =>
      authRepo(db).insertSession({
        jti: 'jti-1',
        userId: USER,
        expiresAt: LATER,
        ip: '127.0.0.1',
        userAgent: 'vitest',
      }),
  },
  { file, name: 'authRepo.findSession', run: (db) => authRepo(db).findSession('jti-1') },
  { file, name: 'authRepo.revokeSession', run: (db) => authRepo(db).revokeSession('jti-1') },
  { file, name: 'authRepo.revokeAllSessions', run: (db) => authRepo(db).revokeAllSessions(USER) },
  {
    file,
    name: 'authRepo.insertToken',
    seed: seedWorkspace,
    run: (db) =>
      authRepo(db).insertToken({
        tokenHash: 'token-1',
        userId: USER,
        kind: 'verify_email',
        expiresAt: LATER,
      }),
  },
  { file, name: 'authRepo.consumeToken', run: (db) => authRepo(db).consumeToken('token-1', 'verify_email') },
  { file, name: 'authRepo.retireTokens', run: (db) => authRepo(db).retireTokens(USER, 'reset_password') },
  {
    file,
    name: 'authRepo.countAttempts',
    run: (db) => authRepo(db).countAttempts(['login:ada@example.com', 'ip:127.0.0.1'], AT),
  },
  {
    file,
    name: 'authRepo.reserveAttempts',
    run: (db) =>
      authRepo(db).reserveAttempts(
        [
          { key: 'login:ada@example.com', max: 5 },
          { key: 'ip:127.0.0.1', max: 20 },
        ],
        AT,
      ),
  },
  { file, name: 'authRepo.releaseAttempts', run: (db) => authRepo(db).releaseAttempts([1, 2]) },
  { file, name: 'authRepo.clearAttempts', run: (db) => authRepo(db).clearAttempts('login:ada@example.com') },
  {
    file,
    name: 'authRepo.clearAttemptsStartingWith',
    run: (db) => authRepo(db).clearAttemptsStartingWith('login:ada@example.com|'),
  },
  { file, name: 'authRepo.markProven', run: (db) => authRepo(db).markProven(PROOF) },
  { file, name: 'authRepo.provenSince', run: (db) => authRepo(db).provenSince(PROOF, AT) },
  { file, name: 'authRepo.purgeExpired', run: (db) => authRepo(db).purgeExpired(AT, AT, 'login-ok:') },
  { file, name: 'authRepo.secret', run: (db) => authRepo(db).secret('jwt', () => 'generated') },
  { file, name: 'authRepo.marker', run: (db) => authRepo(db).marker('demo') },
  { file, name: 'authRepo.claimMarker', run: (db) => authRepo(db).claimMarker('demo', 'v1') },
  { file, name: 'authRepo.setMarker', run: (db) => authRepo(db).setMarker('demo', 'v2') },
];
