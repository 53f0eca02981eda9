import type { IncomingHttpHeaders } from 'node:http';
import type { TokenInfo } from '../auth.ts';
import type { Core } from '../core.ts';
import type { UploadedPart } from '../http/body.ts';
import type { Tier } from '../rate-limit.ts';
import type { ChannelRecord } from '../state/channels.ts';
import type { Team } from '../state/team.ts';
import type { Json } from '../types.ts';

export type CallContext = {
  method: string;
  params: Record<string, unknown>;
  parts: UploadedPart[];
  headers: IncomingHttpHeaders;
  core: Core;
  token?: TokenInfo;
  team?: Team;
};

/** A method's contract: rate-limit tier, whether it needs a token, the scope it needs, and the handler. */
export type MethodDef = {
  tier: Tier;
  auth?: 'token' | 'none';
  /** Scope needed; a function picks it from the arguments (e.g. channels: vs groups:history). */
  scope?: string | ((c: AuthedContext) => string | undefined);
  /** Argument naming the channel, for per-channel limits (chat.postMessage). */
  channelArg?: string;
  handle(c: CallContext): Json | Promise<Json>;
};
export type AuthedContext = CallContext & { token: TokenInfo; team: Team };

/** ok:false answer with a Slack error code (and optional extra fields such as needed/provided). */
export class SlackError extends Error {
  readonly code: string;
  readonly extra: Json;
  constructor(code: string, extra: Json = {}) {
    super(code);
    this.code = code;
    this.extra = extra;
  }
}

export function authed(c: CallContext): AuthedContext {
  if (!c.token || !c.team) throw new SlackError('not_authed');
  return c as AuthedContext;
}

/** Required argument: missing -> invalid_arguments with Slack's message. */
export function required(c: CallContext, name: string): string {
  const v = c.params[name];
  if (v === undefined || v === null || v === '') {
    throw new SlackError('invalid_arguments', {
      response_metadata: { messages: [`[ERROR] missing required field: ${name}`] },
    });
  }
  return String(v);
}

export function channelOf(c: AuthedContext, name = 'channel', value?: string): ChannelRecord {
  const id = value ?? required(c, name);
  const ch = c.team.channels.get(id);
  if (!ch) throw new SlackError('channel_not_found');
  return ch;
}

/** Scope needed to read a conversation's history/info, by its type. */
export const historyScope = (ch: ChannelRecord | undefined): string =>
  ch?.isIm ? 'im:history' : ch?.isPrivate ? 'groups:history' : 'channels:history';
export const readScope = (ch: ChannelRecord | undefined): string =>
  ch?.isIm ? 'im:read' : ch?.isPrivate ? 'groups:read' : 'channels:read';

/** Private channels and IMs are invisible to tokens whose user is not in them. */
export function visibleChannel(c: AuthedContext, name = 'channel'): ChannelRecord {
  const ch = channelOf(c, name);
  if ((ch.isPrivate || ch.isIm) && !c.team.channels.isMember(ch.id, c.token.userId))
    throw new SlackError('channel_not_found');
  return ch;
}

export function limitArg(c: CallContext, dflt: number, max: number): number {
  const raw = c.params.limit;
  if (raw === undefined || raw === '' || raw === null) return dflt;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new SlackError('invalid_limit');
  return n === 0 ? dflt : Math.min(max, Math.floor(n));
}

export const encodeCursor = (value: string): string => Buffer.from(value).toString('base64');
export function decodeCursor(c: CallContext, prefix: string): string | undefined {
  const raw = c.params.cursor;
  if (raw === undefined || raw === '') return undefined;
  const text = Buffer.from(String(raw), 'base64').toString('utf8');
  if (!text.startsWith(`${prefix}:`)) throw new SlackError('invalid_cursor');
  return text.slice(prefix.length + 1);
}

/** Offset-cursor pagination over an array. */
export function paginate<T>(c: CallContext, items: readonly T[], dflt: number, max: number) {
  const limit = limitArg(c, dflt, max);
  const offset = Number(decodeCursor(c, 'offset') ?? 0);
  if (!Number.isInteger(offset) || offset < 0) throw new SlackError('invalid_cursor');
  const page = items.slice(offset, offset + limit);
  const next = offset + limit < items.length ? encodeCursor(`offset:${offset + limit}`) : '';
  return { page, next };
}
