import {
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
  type ChatPostMessageArguments,
  type KnownBlock,
  type WebClient,
} from '@slack/web-api';
import type { Logger } from '../../lib/logger.ts';
import type { Pacing } from './pacing.ts';
import { engineSlice } from './engine-slice.ts';
import type { ClaimedRecipient, DeliveryRunnerRepo } from './runner-repo.ts';
import type { DeliveryMessage } from './table.ts';

/** The metadata every delivered message carries: how a later attempt recognises it in the conversation. */
export const DELIVERY_EVENT_TYPE = 'flywheel_delivery';

export type DeliveryConfig = {
  /** Workspace ceiling for chat.postMessage (Slack: "several hundred per minute"). */
  postsPerMinute: number;
  /** Per channel (Slack: about 1 per second). */
  channelPostsPerMinute: number;
  /** Tier 3 history reads, used to look for a message an uncertain attempt may have posted. */
  historyPerMinute: number;
  /** Tries before a retryable failure is recorded as failed (429s do not count: Slack did nothing). */
  maxAttempts: number;
  /** The first retry's delay; doubled for each further try, at most 5 minutes. */
  retryBaseMs: number;
  /** How long a claimed recipient belongs to its worker: more than a channel slot (5 s) and a call (20 s). */
  leaseSeconds: number;
  /** A worker waits at most this long for the workspace's next slot; longer, its job comes back later. */
  maxPaceWaitMs: number;
  /** chat.update and chat.delete per workspace (Slack: Tier 3, about 50 a minute). */
  updatesPerMinute: number;
};

/** Who sends: a WebClient with the bot or admin token, and the bot's name and image (chat:write.customize). */
export type SenderHandle = { client: WebClient; identity?: { username: string; icon_url: string } };

export type SenderLookup = (
  teamId: string,
  sender: 'bot' | 'admin',
  adminUser: string | null,
) => Promise<SenderHandle>;

/** A sender that can never work (an admin who has not authorized, a disconnected workspace). */
export class SenderUnavailable extends Error {
  constructor(
    readonly code: string,
    readonly retryable: boolean,
  ) {
    super(code);
  }
}

/** Slack's answers worth another try; every other ok:false is final and recorded with its code. */
const RETRYABLE_ERRORS = new Set([
  'ratelimited',
  'rate_limited',
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Slack section blocks hold at most 3,000 characters of text. */
export function sectionsOf(text: string): { type: 'section'; text: { type: 'mrkdwn'; text: string } }[] {
  const out = [];
  for (let i = 0; i < text.length; i += 3000)
    out.push({ type: 'section' as const, text: { type: 'mrkdwn' as const, text: text.slice(i, i + 3000) } });
  return out;
}

/** A message's text and, with images, its blocks (sections of the text, then the images): posts and edits. */
export function messageContent(message: Pick<DeliveryMessage, 'text' | 'images' | 'blocks'>): {
  text: string;
  blocks?: KnownBlock[];
} {
  if (message.images.length === 0 && !message.blocks?.length) return { text: message.text };
  return {
    text: message.text,
    blocks: [
      ...sectionsOf(message.text),
      ...message.images.map((id) => ({ type: 'image' as const, slack_file: { id }, alt_text: 'image' })),
      // Interactive blocks after the text and images (a form's button), as Slack's Block Kit JSON.
      ...((message.blocks ?? []) as unknown as KnownBlock[]),
    ],
  };
}

/** The chat.postMessage arguments for one recipient: text, image blocks, the thread, and our metadata. */
export function postArguments(
  r: Pick<ClaimedRecipient, 'id' | 'receipt_id' | 'kind' | 'target_id'>,
  message: DeliveryMessage,
  identity?: SenderHandle['identity'],
): ChatPostMessageArguments {
  return {
    channel: r.target_id,
    ...messageContent(message),
    metadata: { event_type: DELIVERY_EVENT_TYPE, event_payload: { recipient: r.id, receipt: r.receipt_id } },
    unfurl_links: false,
    ...(message.threadTs ? { thread_ts: message.threadTs } : {}),
    ...(identity ?? {}),
  };
}

export type Outcome =
  | { kind: 'sent'; channel: string | null; ts: string | null }
  | { kind: 'failed'; error: string; retryable: boolean }
  | {
      kind: 'later';
      error: string;
      afterMs: number;
      uncertain: boolean;
      countAttempt: boolean;
      pushBack?: number;
    };

/**
 * The delivery engine: the ONLY place that posts messages to Slack. Each recipient is claimed (attempt
 * recorded, lease set, committed), paced against the workspace budget shared through the database, posted with
 * metadata naming the recipient row, and its outcome committed with the receipt's counts. An attempt that may
 * have reached Slack without our learning it (timeout, 5xx, a worker killed mid-call) is searched for in the
 * conversation before anything is sent again: never lost, never doubled. Its loop over a workspace's due
 * recipients (lanes, the paced slots, the hand-over to another workspace) is engine-slice.ts.
 */
export function deliveryEngine(deps: {
  repo: DeliveryRunnerRepo;
  pacing: Pacing;
  senders: SenderLookup;
  config: DeliveryConfig;
  logger: Logger;
  /** Told every attempt's outcome (metrics). */
  onOutcome?: (teamId: string, outcome: 'sent' | 'failed' | 'retried' | 'rate_limited') => void;
}) {
  const { repo, pacing, config } = deps;

  const backoffMs = (attempt: number) =>
    Math.min(5 * 60_000, config.retryBaseMs * 2 ** Math.max(0, attempt - 1)) * (0.75 + Math.random() * 0.5);

  /** What an error from Slack means for this recipient. */
  function classify(err: unknown, attempt: number): Outcome {
    if (err instanceof WebAPIRateLimitedError) {
      const seconds = Math.max(1, err.retryAfter);
      return {
        kind: 'later',
        error: 'ratelimited',
        afterMs: seconds * 1000,
        uncertain: false,
        countAttempt: false,
        pushBack: seconds,
      };
    }
    let code: string;
    let uncertain: boolean;
    if (err instanceof WebAPIPlatformError) {
      code = err.data.error;
      if (!RETRYABLE_ERRORS.has(code)) return { kind: 'failed', error: code, retryable: false };
      uncertain = code === 'internal_error' || code === 'fatal_error' || code === 'request_timeout';
    } else if (err instanceof WebAPIHTTPError) {
      if (err.statusCode === 429) return classify(new WebAPIRateLimitedError(1), attempt);
      if (err.statusCode < 500) return { kind: 'failed', error: `http_${err.statusCode}`, retryable: false };
      code = `http_${err.statusCode}`;
      uncertain = true;
    } else if (err instanceof WebAPIRequestError) {
      code = /timeout/i.test(err.original?.message ?? '') ? 'timeout' : 'request_failed';
      uncertain = true;
    } else {
      code = 'request_failed';
      uncertain = true;
    }
    if (attempt >= config.maxAttempts) return { kind: 'failed', error: code, retryable: true };
    return { kind: 'later', error: code, afterMs: backoffMs(attempt), uncertain, countAttempt: true };
  }

  /**
   * Looks in the conversation for the message an earlier attempt of this recipient posted (our metadata names
   * the row). The DM's id comes from conversations.open when the earlier attempt died before recording it.
   */
  async function findPosted(
    r: ClaimedRecipient,
    client: WebClient,
  ): Promise<{ channel: string; ts: string | undefined } | null> {
    let channel = r.channel_id ?? (r.kind === 'channel' ? r.target_id : null);
    if (!channel) {
      const opened = await client.conversations.open({ users: r.target_id });
      channel = opened.channel?.id ?? null;
      if (!channel) return null;
      await repo.noteChannel(r, channel);
    }
    const oldest = (Date.parse(r.first_attempt_at) / 1000 - 120).toFixed(6);
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      await waitForSlot(r.team_id, [{ key: 'conversations.history', perMinute: config.historyPerMinute }]);
      const res = r.message.threadTs
        ? await client.conversations.replies({
            channel,
            ts: r.message.threadTs,
            oldest,
            include_all_metadata: true,
            limit: 200,
            cursor,
          })
        : await client.conversations.history({
            channel,
            oldest,
            include_all_metadata: true,
            limit: 200,
            cursor,
          });
      const hit = res.messages?.find(
        (m) =>
          m.metadata?.event_type === DELIVERY_EVENT_TYPE &&
          Number((m.metadata.event_payload as { recipient?: unknown } | undefined)?.recipient) === r.id,
      );
      if (hit) return { channel, ts: hit.ts };
      cursor = res.response_metadata?.next_cursor || undefined;
      if (!cursor) break;
    }
    return null;
  }

  async function waitForSlot(teamId: string, keys: { key: string; perMinute: number }[]): Promise<void> {
    const at = await pacing.reserve(teamId, keys);
    const wait = at - Date.now();
    if (wait > 0) await sleep(wait);
  }

  /** One recipient, start to end. */
  async function deliver(r: ClaimedRecipient): Promise<Outcome> {
    if (r.kind === 'member' && r.deactivated && !r.uncertain)
      return { kind: 'failed', error: 'user_deactivated', retryable: false };
    let sender: SenderHandle;
    try {
      sender = await deps.senders(r.team_id, r.sender, r.admin_user);
    } catch (err) {
      if (err instanceof SenderUnavailable)
        return { kind: 'failed', error: err.code, retryable: err.retryable };
      throw err;
    }
    try {
      if (r.uncertain) {
        const found = await findPosted(r, sender.client);
        if (found) return { kind: 'sent', channel: found.channel, ts: found.ts ?? null };
      }
      const res = await sender.client.chat.postMessage(postArguments(r, r.message, sender.identity));
      return { kind: 'sent', channel: res.channel ?? null, ts: res.ts ?? null };
    } catch (err) {
      const outcome = classify(err, r.attempts);
      // A search that cannot be made (e.g. a missing scope) must not turn into a second message.
      if (r.uncertain && outcome.kind === 'failed' && !outcome.retryable)
        return { kind: 'failed', error: `unconfirmed:${outcome.error}`, retryable: false };
      return outcome;
    }
  }

  async function record(r: ClaimedRecipient, o: Outcome): Promise<void> {
    deps.onOutcome?.(
      r.team_id,
      o.kind === 'later' ? (o.error === 'ratelimited' ? 'rate_limited' : 'retried') : o.kind,
    );
    if (o.kind === 'sent') await repo.markSent(r, o.channel, o.ts);
    else if (o.kind === 'failed') await repo.markFailed(r, o.error, o.retryable);
    else {
      if (o.pushBack) await pacing.pushBack(r.team_id, 'chat.postMessage', o.pushBack);
      await repo.retryLater(r, {
        dueAt: new Date(Date.now() + o.afterMs),
        error: o.error,
        uncertain: o.uncertain,
        countAttempt: o.countAttempt,
      });
    }
  }

  return {
    classify,
    ...engineSlice({ repo, pacing, config, logger: deps.logger, classify, deliver, record }),
  };
}
export type DeliveryEngine = ReturnType<typeof deliveryEngine>;
