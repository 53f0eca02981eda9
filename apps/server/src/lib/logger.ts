import pino from 'pino';
import pretty from 'pino-pretty';

export type Logger = pino.Logger;

/** Paths whose values never reach a log line: credentials, tokens and secrets. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-slack-signature"]',
  'headers.authorization',
  'password',
  'token',
  'accessToken',
  'botToken',
  'userToken',
  'secret',
  'clientSecret',
  'signingSecret',
  '*.password',
  '*.token',
  '*.accessToken',
  '*.botToken',
  '*.userToken',
  '*.secret',
  '*.clientSecret',
  '*.signingSecret',
  '*.passwordHash',
];

export function loggerOptions(level: string): pino.LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; id?: string }) => ({
        method: req.method,
        // Query strings can carry one-time codes; keep only the path.
        url: req.url.split('?')[0],
        id: req.id,
      }),
    },
  };
}

export const createLogger = (level: string, stream?: pino.DestinationStream): Logger =>
  stream ? pino(loggerOptions(level), stream) : pino(loggerOptions(level));

/**
 * The process's logger: pino's JSON lines, or with `format: 'pretty'` readable coloured lines (pino-pretty in the
 * process itself, synchronous: no worker thread, nothing lost at exit). Redaction applies either way.
 */
export const processLogger = (
  level: string,
  format: 'json' | 'pretty',
  destination?: NodeJS.WritableStream,
): Logger =>
  format === 'pretty'
    ? createLogger(
        level,
        pretty({
          colorize: destination === undefined,
          sync: true,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname',
          ...(destination ? { destination } : {}),
        }),
      )
    : createLogger(level, destination as pino.DestinationStream | undefined);
