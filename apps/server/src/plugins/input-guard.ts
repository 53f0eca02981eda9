import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CONTROL_CHARACTERS, controlCharacterMessage, loneSurrogateMessage } from '@flywheel/shared/input';
import { hasLoneSurrogate } from '@flywheel/shared/text';
import { AppError } from '../lib/errors.ts';

/** Deeper than any contract of ours: a body nested past this is refused rather than walked. */
const MAX_DEPTH = 32;

type Unsafe = { field: string; message: string };

const problemOf = (text: string, field: string): Unsafe | null => {
  if (CONTROL_CHARACTERS.test(text))
    return { field, message: controlCharacterMessage(field || 'the request') };
  if (hasLoneSurrogate(text)) return { field, message: loneSurrogateMessage(field || 'the request') };
  return null;
};

/**
 * The first string (or key) holding a control character (NUL and friends) or half of a surrogate pair (half of
 * an emoji, which jsonb refuses), with the 400's message naming its path; or null.
 */
export function findUnsafeText(value: unknown, path: string, depth = 0): Unsafe | null {
  if (typeof value === 'string') return problemOf(value, path);
  if (value === null || typeof value !== 'object') return null;
  if (depth > MAX_DEPTH) return { field: path, message: controlCharacterMessage(path || 'the request') };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const hit = findUnsafeText(value[i], `${path}[${i}]`, depth + 1);
      if (hit) return hit;
    }
    return null;
  }
  for (const [k, v] of Object.entries(value)) {
    const key = path ? `${path}.${k}` : k;
    const hit = problemOf(k, key) ?? findUnsafeText(v, key, depth + 1);
    if (hit) return hit;
  }
  return null;
}

/**
 * Before any route hook (the workspace guard reads team_id before the schema does): a control character or
 * half of an emoji in a path parameter, query or JSON body is a 400 naming the field, never a database error. Route schemas refuse
 * them too (`safeText`, `slackId` in @flywheel/shared/input); this is the net under every route
 * but Slack's signed callbacks.
 */
export function registerInputGuard(app: FastifyInstance) {
  app.addHook('preValidation', async (request: FastifyRequest) => {
    // Slack's callbacks are checked against their signature first and carry Slack's own text.
    if (request.url.startsWith('/slack/')) return;
    for (const part of [request.params, request.query, request.body]) {
      const unsafe = findUnsafeText(part, '');
      if (unsafe) throw new AppError('VALIDATION_ERROR', 400, unsafe.message);
    }
  });
}
