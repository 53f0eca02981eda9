import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { currentUser } from '../../plugins/auth.ts';
import { idempotencyRepo, KEY_TTL_HOURS } from './idempotency-repo.ts';

/** What a route answers: replayed as is to the same key. */
export type Answer = { status: number; body: unknown };

/** JSON with object keys sorted, so the same request always hashes the same. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object')
    return `{${Object.keys(v)
      .sort()
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'null';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Idempotency-Key for every send and every creation of a future send (docs/product/sending.md, "Sending limits"): per workspace
 * and admin, a key's first request runs; the same key again (in sequence or in parallel) gets the same answer
 * and changes nothing; the same key with another request is a 409. Parallel duplicates resolve through the
 * table's primary key: one claims the key, the others wait for its answer. A request that fails frees its key.
 */
export const idempotencyService = (deps: {
  db: Db;
  logger: Logger;
  /** How long a duplicate waits for the first request's answer before a 409 (default 20 s). */
  waitMs?: number;
  /** After this long without an answer the first request is taken as dead and another may run (default 120 s). */
  staleSeconds?: number;
}) => {
  const repo = idempotencyRepo(deps.db);
  const waitMs = deps.waitMs ?? 20_000;
  const staleSeconds = deps.staleSeconds ?? 120;

  return {
    /**
     * Runs `run` once per key. `run` gets the key's token (undefined without a key): a send names its receipt
     * with it, so a request run again after a crash between its receipt and its answer still makes one receipt.
     */
    async once(
      scope: { teamId: string; userId: string; key: string | undefined; route: string; body: unknown },
      run: (token: string | undefined) => Promise<Answer>,
    ): Promise<Answer & { replayed: boolean }> {
      if (scope.key === undefined) return { ...(await run(undefined)), replayed: false };
      const k = { teamId: scope.teamId, userId: scope.userId, key: scope.key };
      const hash = crypto
        .createHash('sha256')
        .update(`${scope.route}\n${canonical(scope.body)}`)
        .digest('hex');
      const deadline = Date.now() + waitMs;
      let token: string | null = null;
      for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
        token = await repo.claim(k, hash, crypto.randomUUID(), staleSeconds);
        if (token) break;
        const row = await repo.find(k);
        if (!row) continue; // freed (its request failed) or expired meanwhile: claim it
        if (row.request_hash !== hash)
          throw new AppError(
            'IDEMPOTENCY_KEY_REUSED',
            409,
            `This Idempotency-Key was already used for another request in the last ${KEY_TTL_HOURS} hours: send a new key with a new request`,
          );
        if (row.status_code !== null) return { status: row.status_code, body: row.response, replayed: true };
        if (Date.now() > deadline)
          throw new AppError(
            'IDEMPOTENCY_KEY_IN_PROGRESS',
            409,
            'A request with this Idempotency-Key is still running: try again in a moment',
            { 'retry-after': '2' },
          );
        await sleep(pause);
      }
      try {
        const answer = await run(token);
        await repo.answer(k, token, answer.status, answer.body);
        return { ...answer, replayed: false };
      } catch (err) {
        await repo.release(k, token).catch((e: unknown) => deps.logger.warn({ err: e }, 'key not freed'));
        throw err;
      }
    },
  };
};
export type IdempotencyService = ReturnType<typeof idempotencyService>;

/**
 * A route's answer through its Idempotency-Key (header `Idempotency-Key`, checked by the route's schema): the
 * workspace is the body's `team_id`, the admin the signed-in user. A replayed answer carries
 * `Idempotent-Replayed: true`.
 */
export async function answerOnce(
  idempotency: IdempotencyService,
  req: FastifyRequest,
  reply: FastifyReply,
  teamId: string,
  run: (token: string | undefined) => Promise<Answer>,
) {
  const key = (req.headers as Record<string, string | undefined>)['idempotency-key'];
  const a = await idempotency.once(
    {
      teamId,
      userId: currentUser(req).id,
      key,
      route: `${req.method} ${req.routeOptions.url ?? req.url}`,
      body: req.body,
    },
    run,
  );
  if (a.replayed) void reply.header('idempotent-replayed', 'true');
  return reply.code(a.status).send(a.body);
}

/** The receipt key of a person's send made under an Idempotency-Key's token. */
export const receiptKeyOf = (token: string | undefined) => (token ? `http:${token}` : undefined);
