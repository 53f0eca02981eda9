import { LogLevel, SocketModeClient, type Logger as SlackLogger } from '@slack/socket-mode';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import { slackIntake } from './intake.ts';

/** What the SDK hands to a `slack_event` listener (one envelope). */
type Envelope = {
  ack: (response?: Record<string, unknown>) => Promise<void>;
  envelope_id: string;
  type: string;
  body: unknown;
  retry_num?: number;
  retry_reason?: string;
};

export type SocketModeConnection = { client: SocketModeClient; stop(): Promise<void> };

/** The SDK's logger interface over the process's pino logger (its debug lines stay at debug). */
function sdkLogger(logger: Logger): SlackLogger {
  const log = logger.child({ component: 'socket-mode' });
  let level = LogLevel.INFO;
  const line = (...msg: unknown[]) => msg.map((m) => (typeof m === 'string' ? m : String(m))).join(' ');
  return {
    debug: (...msg) => log.debug(line(...msg)),
    info: (...msg) => log.info(line(...msg)),
    warn: (...msg) => log.warn(line(...msg)),
    error: (...msg) => log.error(line(...msg)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}

/**
 * Socket Mode: one connection from this process to Slack with the official client (@slack/socket-mode), which
 * opens it with apps.connections.open and the app-level token, and reconnects on its own after a `disconnect`
 * message (Slack refreshes connections every few hours), a close or a missed ping. Each envelope goes through
 * the same intake as the HTTP routes (intake.ts): an event is acknowledged once it is stored (a failed store is
 * not acknowledged, so Slack sends it again); an interaction's answer is the acknowledgement's payload. Slack
 * spreads envelopes over an app's connections (one per worker process, up to 10) and may send one again: the
 * inbox keeps one row per event_id, so a duplicate is harmless.
 */
export async function startSocketMode(
  ctx: AppContext,
  options: { clientPingTimeoutMs?: number } = {},
): Promise<SocketModeConnection> {
  const appToken = ctx.slack.appToken;
  if (!appToken) throw new Error('Socket Mode needs an app-level token (SLACK_APP_TOKEN)');
  const intake = slackIntake(ctx);
  const logger = ctx.logger.child({ component: 'socket-mode' });
  const client = new SocketModeClient({
    appToken,
    logger: sdkLogger(ctx.logger),
    autoReconnectEnabled: true,
    // Also the wait before a reconnect (times the failures in a row): 2 s keeps the gap after a refresh short.
    clientPingTimeout: options.clientPingTimeoutMs ?? 2_000,
    clientOptions: { slackApiUrl: ctx.slack.apiUrl },
  });

  const onEnvelope = async (e: Envelope): Promise<void> => {
    if (e.type === 'events_api') {
      try {
        await intake.event(e.body, undefined, logger);
      } catch (err) {
        // Stored or not, a malformed event would only come back: acknowledged. A failed store is not.
        if (!(err instanceof AppError && err.statusCode === 400)) {
          logger.error({ err, envelopeId: e.envelope_id }, 'event not stored; Slack will send it again');
          return;
        }
        logger.warn({ err, envelopeId: e.envelope_id }, 'malformed event envelope acknowledged and dropped');
      }
      await e.ack();
      return;
    }
    if (e.type === 'interactive') {
      const answer = await intake.interaction(e.body);
      await e.ack(answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : undefined);
      return;
    }
    // slash_commands and anything newer: nothing handles them here; acknowledged so Slack does not retry.
    await e.ack();
  };
  client.on('slack_event', (e: Envelope) => {
    onEnvelope(e).catch((err: unknown) =>
      logger.error({ err, envelopeId: e.envelope_id, type: e.type }, 'Socket Mode envelope failed'),
    );
  });
  // Between 'reconnecting' and 'connected' the SDK's own start() is pending, and disconnect() then rejects it with
  // nothing to catch it (an unhandled rejection; @slack/socket-mode 3.1.0): stop() waits for that start to end.
  let reconnecting: Promise<void> | undefined;
  let reconnected = () => {};
  client.on('connected', () => {
    logger.info('Socket Mode connected');
    reconnected();
  });
  client.on('reconnecting', () => {
    logger.info('Socket Mode reconnecting');
    reconnecting = new Promise<void>((resolve) => {
      reconnected = () => {
        reconnecting = undefined;
        resolve();
      };
    });
  });

  await client.start();
  return {
    client,
    async stop() {
      if (reconnecting) await Promise.race([reconnecting, new Promise((r) => setTimeout(r, 10_000).unref())]);
      await client
        .disconnect()
        .catch((err: unknown) => logger.warn({ err }, 'Socket Mode disconnect failed'));
    },
  };
}
