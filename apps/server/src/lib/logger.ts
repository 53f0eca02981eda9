import pino from 'pino';

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
