import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTROL_CHARACTERS, controlCharacterMessage } from '@flywheel/shared/input';
import { AppError } from '../lib/errors.ts';

/** Deeper than any contract of ours: a body nested past this is refused rather than walked. */
const MAX_DEPTH = 32;

/** The path of the first string holding a control character (NUL and friends), or null. */
export function findControlCharacter(value: unknown, path: string, depth = 0): string | null {
  if (typeof value === 'string') return CONTROL_CHARACTERS.test(value) ? path : null;
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return path;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findControlCharacter(value[i], `${path}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const key = path ? `${path}.${k}` : k;
    if (CONTROL_CHARACTERS.test(k)) return key;
    const hit = findControlCharacter(v, key, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/**
 * Before any route hook (the workspace guard reads team_id before the schema does): a control character in a
 * path parameter, query or JSON body is a 400 naming the field, never a database error. Route schemas refuse
 * them too (`safeText`, `slackId` in @flywheel/shared/input); this is the net under every route
 * but Slack's signed callbacks.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    // Slack's callbacks are checked against their signature first and carry Slack's own text.
    if (request.url.startsWith('/slack/')) return;
    for (const part of [request.params, request.query, request.body]) {
      const field = findControlCharacter(part, '');
      if (field !== null)
        throw new AppError('VALIDATION_ERROR', 400, controlCharacterMessage(field || 'the request'));
    }
  });
}
