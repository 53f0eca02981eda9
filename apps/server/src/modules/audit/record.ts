import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditObjects } from '@flywheel/shared/audit';
import { cutText, truncateText } from '@flywheel/shared/text';
import { accessOf, teamIdOf } from '../../plugins/workspace-guard.ts';
import { actionOf, LOGIN_ROUTE } from './actions.ts';
import type { AuditActor, AuditEntry, AuditService } from './service.ts';

/** Who made the call: a person, or an API key (workspace-guard sets `request.apiKey` and the key's creator). */
export function actorOf(request: FastifyRequest): AuditActor {
  const key = request.apiKey;
  return {
    kind: key ? 'api_key' : 'user',
    userId: request.user?.id ?? null,
    email: request.user?.email ?? null,
    label: key ? cutText(key.name, 100) : null,
  };
}

const MAX_OBJECTS = 12;
const MAX_VALUE = 64;
const PREVIEW = 60;
const MAX_PAYLOAD = 64 * 1024;
/** Never kept, whatever the route calls them. */
const SECRET = /token|secret|password|passwd|signature|authorization|cookie|hash/i;
const ID_KEY = /^id$|_id$|Id$/;
/** Arrays whose length is worth keeping: who or what a bulk action reached. */
const COUNTED =
  /^(users|members|member_ids|user_ids|recipients|tags|tag_ids|channels|channel_ids|targets|ids)$/i;
/** Short text fields a preview may be cut from (a message, a poll's question, a name). */
const PREVIEWED = ['message', 'text', 'question', 'title', 'name', 'label', 'subject'];

const snake = (k: string) => k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
const isScalar = (v: unknown): v is string | number =>
  (typeof v === 'string' && v.length > 0) || (typeof v === 'number' && Number.isFinite(v));
const short = (v: string | number) => (typeof v === 'string' ? cutText(v, MAX_VALUE) : v);
const asRecord = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/** The JSON answer of a call, when it is small JSON (not a stream or a file). */
function responseJson(payload: unknown): Record<string, unknown> {
  if (typeof payload !== 'string' || payload.length > MAX_PAYLOAD || !payload.startsWith('{')) return {};
  try {
    return asRecord(JSON.parse(payload));
  } catch {
    return {};
  }
}

/**
 * What a call acted on, cheaply: the ids in its path, the ids and counted lists of its body, and the ids of its
 * answer (a receipt id, a new poll's id). No text beyond ids; at most a dozen entries.
 */
export function objectsOf(request: FastifyRequest, payload: unknown): AuditObjects {
  const out: AuditObjects = {};
  const put = (key: string, value: string | number) => {
    const k = snake(key);
    if (SECRET.test(k) || k === 'team_id' || k in out || Object.keys(out).length >= MAX_OBJECTS) return;
    out[k] = short(value);
  };
  for (const [k, v] of Object.entries(asRecord(request.params)))
    if (isScalar(v) && k !== 'teamId' && k !== 'team_id') put(k, v);
  const body = asRecord(request.body);
  for (const [k, v] of Object.entries(body)) {
    if (ID_KEY.test(k) && isScalar(v)) put(k, v);
    else if (COUNTED.test(k) && Array.isArray(v)) put(`${k}_count`, v.length);
  }
  const answer = responseJson(payload);
  const data = asRecord(answer.data);
  for (const source of [answer, data])
    for (const [k, v] of Object.entries(source))
      if (ID_KEY.test(k) && isScalar(v)) put(k === 'id' ? 'result_id' : k, v);
  return out;
}

/** A short preview of what was written (a message's first words, a name), on one line. */
export function previewOf(body: unknown): string | undefined {
  const b = asRecord(body);
  for (const field of PREVIEWED) {
    const v = b[field];
    if (typeof v !== 'string') continue;
    const line = v.replace(/\s+/g, ' ').trim();
    if (line) return truncateText(line, PREVIEW);
  }
  return undefined;
}

const ok = (status: number) => status >= 200 && status < 300;

/** What one successful acting call records (the hook's work, also called directly by the tests). */
export function entryOf(request: FastifyRequest, status: number, payload: unknown): AuditEntry | undefined {
  const config = request.routeOptions.config;
  const route = request.routeOptions.url;
  if (!config?.workspaceScoped || !route || accessOf(request.method, config) === 'read' || !ok(status))
    return undefined;
  const teamId = teamIdOf(request);
  if (!teamId) return undefined;
  const action = actionOf(request.method, route);
  const kind = action.kind;
  const label = action.labelOf?.(asRecord(request.body)) ?? action.label;
  const objects = objectsOf(request, payload);
  const preview = previewOf(request.body);
  const details = [
    label,
    Object.keys(objects).length ? formatObjects(objects) : '',
    preview ? `“${preview}”` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return {
    teamId,
    actor: actorOf(request),
    action: kind,
    method: request.method,
    route,
    objects,
    status,
    summary: details,
  };
}

const formatObjects = (o: AuditObjects) =>
  Object.entries(o)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

/** A successful login: one 'auth.login' row per workspace the person administers (from the login's answer). */
export function loginEntries(request: FastifyRequest, status: number, payload: unknown): AuditEntry[] {
  if (request.method !== 'POST' || request.routeOptions.url !== LOGIN_ROUTE || !ok(status)) return [];
  const answer = responseJson(payload);
  const userId = typeof answer.userid === 'string' ? answer.userid : null;
  const email = typeof answer.email === 'string' ? answer.email : null;
  const workspaces = Array.isArray(answer.workspaces) ? answer.workspaces : [];
  return workspaces
    .map((w) => asRecord(w).team_id)
    .filter((t): t is string => typeof t === 'string' && t.length > 0)
    .map((teamId) => ({
      teamId,
      actor: { kind: 'user', userId, email, label: null },
      action: 'auth.login',
      method: 'POST',
      route: LOGIN_ROUTE,
      objects: {},
      status,
      summary: 'Signed in',
    }));
}

/**
 * The audit hook: exactly one row for every successful (2xx) call of a route that acts on or manages a
 * workspace (its `access`, plugins/workspace-guard.ts), and the logins. Failed calls write nothing. The row is
 * written after the answer went out and never fails or delays the call.
 */
export function registerAuditLog(app: FastifyInstance, audit: AuditService) {
  const answers = new WeakMap<FastifyRequest, unknown>();
  app.addHook('onSend', async (request, reply, payload) => {
    if (ok(reply.statusCode)) answers.set(request, payload);
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    try {
      const payload = answers.get(request);
      const one = entryOf(request, reply.statusCode, payload);
      audit.record(one ? [one] : loginEntries(request, reply.statusCode, payload));
    } catch (err) {
      request.log.warn({ reason: (err as Error)?.message }, 'audit log: the call could not be described');
    }
  });
  // The last rows reach the database before the process closes it.
  app.addHook('onClose', async () => audit.flush());
}
