import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ErrorEnvelope } from '@flywheel/shared/http';
import { AppError } from '../lib/errors.ts';

const GENERIC_ZOD = /^Invalid input|^Invalid option|^Too (big|small)|^Invalid (string|type)/;

/** Turns a schema issue into a sentence a person can act on. */
function validationMessage(
  err: FastifyError & { validation: { instancePath: string; message?: string; keyword: string }[] },
) {
  const issue = err.validation[0]!;
  const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const context = err.validationContext ?? 'body';
  if (!field && context === 'body')
    return { code: 'PAYLOAD_REQUIRED' as const, message: 'Payload is required' };
  const message = issue.message ?? 'is not valid';
  if (!GENERIC_ZOD.test(message)) return { code: 'VALIDATION_ERROR' as const, message };
  if (/received undefined/.test(message))
    return { code: 'VALIDATION_ERROR' as const, message: `${field} is required` };
  return { code: 'VALIDATION_ERROR' as const, message: `${field || context}: ${message}` };
}

const FASTIFY_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, message: 'Payload is required' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, message: 'The request body is not valid JSON' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    status: 415,
    message: 'Send the request body as JSON (Content-Type: application/json)',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, message: 'The request body is too large' },
};

/**
 * PostgreSQL data exceptions a request value can cause (a NUL byte, a number out of range, a bad date): the
 * request's fault, so a 400. Contracts refuse these first; this is the net under them.
 */
const PG_INPUT_ERRORS = new Set(['22001', '22003', '22007', '22008', '22021', '22P02', '22P05', '54000']);

/** The PostgreSQL error code of an error or of what it wraps (Drizzle's DrizzleQueryError keeps it as cause). */
function pgCodeOf(err: unknown): string | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && PG_INPUT_ERRORS.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The single error envelope: `{ statusCode, code, message }`. 5xx details are logged, never sent. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    let body: ErrorEnvelope;
    if (err instanceof AppError) {
      reply.headers(err.headers);
      body = { ...err.details, statusCode: err.statusCode, code: err.code, message: err.message };
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      body = { statusCode: 400, ...validationMessage(err) };
    } else if (err.code && FASTIFY_MESSAGES[err.code]) {
      const known = FASTIFY_MESSAGES[err.code]!;
      body = { statusCode: known.status, code: 'VALIDATION_ERROR', message: known.message };
    } else if (pgCodeOf(err)) {
      request.log.warn({ err }, 'the database refused a request value');
      body = {
        statusCode: 400,
        code: 'VALIDATION_ERROR',
        message: 'A value in the request is out of range or not valid',
      };
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      body = {
        statusCode: err.statusCode,
        code: err.statusCode === 429 ? 'TOO_MANY_ATTEMPTS' : 'VALIDATION_ERROR',
        message: err.message,
      };
    } else {
      request.log.error({ err }, 'request failed');
      body = {
        statusCode: 500,
        code: 'INTERNAL',
        message: 'Something went wrong on our side. Please try again.',
      };
    }
    return reply.code(body.statusCode).send(body);
  });
}
