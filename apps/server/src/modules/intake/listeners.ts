import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Tx } from '../../db/sql.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Module } from '../module.ts';
import { slackEventPayloads, type SlackEventOf, type SlackEventType } from '../../slack/events.ts';
import {
  slackInteractivityPayloads,
  type SlackInteractionOf,
  type SlackInteractivityType,
} from '../../slack/interactivity.ts';

/** Where an event listener runs: the drain's open batch transaction, for one event of one workspace. */
export type EventScope = {
  tx: Tx;
  teamId: string;
  tz: string;
  eventId: string;
  ctx: AppContext;
  /** Runs `fn` once the batch's transaction has committed (e.g. wake a job for the rows written); once per key. */
  afterCommit(key: string, fn: () => Promise<unknown>): void;
};

export type EventListener<S extends z.ZodType = z.ZodType> = {
  type: string; // Slack event type, e.g. 'team_join', 'reaction_added'
  payload: S; // the inner `event` object's schema (slack/events.ts); a payload that fails it is logged and skipped for THIS listener only
  /** Runs inside the drain's batch transaction, in event order, after workspace-data/activity applied the event. Write rows with scope.tx (transactional outbox); never call Slack here. */
  handle(event: z.infer<S>, scope: EventScope): Promise<void>;
};

export type InteractivityListener<S extends z.ZodType = z.ZodType> = {
  type: string; // payload.type: 'block_actions' | 'view_submission' | 'view_closed' | 'shortcut' | ...
  match?: (payload: z.infer<S>) => boolean; // e.g. action_id / callback_id prefix
  payload: S; // the payload's schema (slack/interactivity.ts); a payload that fails it is not this listener's
  /** Called after the signature check; its return value (if any) is the HTTP answer (e.g. { response_action: 'errors', errors }). Must answer within Slack's 3 s. */
  handle(payload: z.infer<S>, ctx: AppContext): Promise<unknown>;
};

/**
 * A listener for one Slack event type, its payload's schema taken from the catalogue (slack/events.ts): typed at
 * the definition, stored erased (the registry only hands a listener what that schema accepted).
 */
export const defineEventListener = <T extends SlackEventType>(l: {
  type: T;
  handle(event: SlackEventOf<T>, scope: EventScope): Promise<void>;
}): EventListener => ({
  type: l.type,
  payload: slackEventPayloads[l.type],
  handle: (event, scope) => l.handle(event as SlackEventOf<T>, scope),
});

/**
 * A listener for one interactivity payload type, its schema taken from the catalogue (slack/interactivity.ts):
 * typed at the definition, stored erased like an event listener.
 */
export const defineInteractivityListener = <T extends SlackInteractivityType>(l: {
  type: T;
  match?: (payload: SlackInteractionOf<T>) => boolean;
  handle(payload: SlackInteractionOf<T>, ctx: AppContext): Promise<unknown>;
}): InteractivityListener => ({
  type: l.type,
  payload: slackInteractivityPayloads[l.type],
  match: l.match ? (p) => l.match!(p as SlackInteractionOf<T>) : undefined,
  handle: (p, ctx) => l.handle(p as SlackInteractionOf<T>, ctx),
});

/** Every module's event listeners by event type, in module order. */
export type EventListeners = ReadonlyMap<string, readonly EventListener[]>;

export function eventListenersOf(modules: readonly Module[]): EventListeners {
  const byType = new Map<string, EventListener[]>();
  for (const l of modules.flatMap((m) => m.events ?? [])) {
    byType.set(l.type, [...(byType.get(l.type) ?? []), l]);
  }
  return byType;
}

/**
 * Hands one drained event to the listeners of its type. A payload a listener's schema refuses is logged and
 * skipped for that listener only; what a listener throws fails the batch like any other write would (the
 * drain then applies the batch's events one by one and sets aside the one that keeps failing).
 */
export async function dispatchEvent(
  listeners: readonly EventListener[],
  event: unknown,
  scope: EventScope,
  logger: Logger,
): Promise<void> {
  for (const l of listeners) {
    const parsed = l.payload.safeParse(event);
    if (!parsed.success) {
      logger.warn(
        { eventId: scope.eventId, type: l.type, issues: parsed.error.issues.slice(0, 3) },
        'event payload refused by a listener; skipped for it',
      );
      continue;
    }
    await l.handle(parsed.data, scope);
  }
}

/**
 * The answer to an interactivity payload: the first listener of its type whose schema accepts it and whose
 * `match` (when given) says yes; `undefined` (an empty 200) when none does.
 */
export async function dispatchInteractivity(
  listeners: readonly InteractivityListener[],
  payload: { type?: unknown },
  ctx: AppContext,
): Promise<unknown> {
  for (const l of listeners) {
    if (l.type !== payload.type) continue;
    const parsed = l.payload.safeParse(payload);
    if (!parsed.success) continue;
    if (l.match && !l.match(parsed.data)) continue;
    return l.handle(parsed.data, ctx);
  }
  return undefined;
}
