import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core.ts';
import { parseRequest } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import type { Json } from '../types.ts';
import { SlackError, type CallContext, type MethodDef } from './registry.ts';

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Token from `Authorization: Bearer` (preferred) or the `token` argument. */
function tokenOf(req: IncomingMessage, params: Record<string, unknown>): string | undefined {
  const header = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
  return header ?? (params.token ? String(params.token) : undefined);
}

/** Runs one Web API call: faults, auth, scopes, rate limits, handler, Slack-shaped answer. */
export async function dispatchMethod(
  core: Core,
  methods: Record<string, MethodDef>,
  method: string,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const def = methods[method];
  if (!def) return sendJson(res, 404, { ok: false, error: 'unknown_method', req_method: method });
  let parsed: Awaited<ReturnType<typeof parseRequest>>;
  try {
    parsed = await parseRequest(req, url);
  } catch {
    return sendJson(res, 200, { ok: false, error: 'invalid_json' });
  }
  const { params, parts } = parsed;
  const fault = core.faults.pick(method);
  const latency = core.faults.latency(method);
  if (latency > 0) await sleep(latency);
  if (fault?.kind === 'drop') {
    req.socket.destroy();
    return;
  }
  if (fault?.kind === '5xx') return sendJson(res, 503, { ok: false, error: 'service_unavailable' });
  if (fault?.kind === 'ratelimited') {
    return sendJson(
      res,
      429,
      { ok: false, error: 'ratelimited' },
      { 'retry-after': String(fault.retryAfter ?? 1) },
    );
  }
  if (fault?.kind === 'error')
    return sendJson(res, 200, { ok: false, error: fault.error ?? 'internal_error' });

  const call: CallContext = { method, params, parts, headers: req.headers, core };
  const headers: Record<string, string> = {};
  try {
    if (def.auth !== 'none') {
      const token = tokenOf(req, params);
      if (!token) throw new SlackError('not_authed');
      const info = core.auth.lookup(token);
      if (!info) throw new SlackError('invalid_auth');
      // An expired rotating token is refused on every method until it is refreshed (Slack: token_expired).
      if (info.expiresAt !== undefined && core.now() >= info.expiresAt) throw new SlackError('token_expired');
      const team = core.teams.get(info.teamId);
      if (!team) throw new SlackError('invalid_auth');
      call.token = info;
      call.team = team;
      headers['x-oauth-scopes'] = info.scopes.join(',');
      const needed = typeof def.scope === 'function' ? def.scope({ ...call, token: info, team }) : def.scope;
      if (needed) headers['x-accepted-oauth-scopes'] = needed;
      if (needed && !info.scopes.includes(needed)) {
        throw new SlackError('missing_scope', { needed, provided: info.scopes.join(',') });
      }
    }
    const teamKey = call.team?.id ?? String(params.client_id ?? 'anon');
    const channel = def.channelArg ? String(params[def.channelArg] ?? '') : undefined;
    const waitMs = core.rateLimiter.check(method, def.tier, teamKey, channel);
    if (waitMs > 0) {
      const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
      return sendJson(
        res,
        429,
        { ok: false, error: 'ratelimited' },
        { ...headers, 'retry-after': String(retryAfter) },
      );
    }
    const body: Json = await def.handle(call);
    if (fault?.kind === 'lost') {
      // Applied, but the answer never arrives whole: a 503 or a cut connection.
      if (Math.random() < 0.5) return sendJson(res, 503, { ok: false, error: 'service_unavailable' });
      req.socket.destroy();
      return;
    }
    return sendJson(res, 200, body, headers);
  } catch (err) {
    if (err instanceof SlackError)
      return sendJson(res, 200, { ok: false, error: err.code, ...err.extra }, headers);
    if (err instanceof SyntaxError) return sendJson(res, 200, { ok: false, error: 'invalid_json' }, headers);
    console.error(`[slack-emulator] ${method} failed`, err);
    return sendJson(res, 200, { ok: false, error: 'internal_error' }, headers);
  }
}
