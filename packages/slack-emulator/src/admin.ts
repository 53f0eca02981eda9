import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from './core.ts';
import { parseRequest } from './http/body.ts';
import { sendJson } from './http/respond.ts';
import { createTruth } from './state/truth.ts';
import type { Json } from './types.ts';
import { uninstall } from './web-api/auth-team.ts';

/** Streams newline-delimited JSON (one object per line) so huge workspaces never sit in memory. */
async function sendNdjson(res: ServerResponse, rows: Iterable<unknown>): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  let buf = '';
  for (const row of rows) {
    buf += `${JSON.stringify(row)}\n`;
    if (buf.length > 64 * 1024) {
      if (!res.write(buf)) await new Promise((r) => res.once('drain', r));
      buf = '';
    }
  }
  res.end(buf);
}

const num = (v: unknown): number | undefined => (v === undefined || v === '' ? undefined : Number(v));

/** Read-only ground truth and control endpoints under /_admin (no auth: local tool). */
export async function handleAdmin(
  core: Core,
  admin: AdminActions,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { params: p } = await parseRequest(req, url);
  const parts = url.pathname.split('/').filter(Boolean).slice(1);
  const [first, teamId, sub, id, action] = parts;
  const post = req.method === 'POST';
  if (first === 'state' || parts.length === 0) return sendJson(res, 200, admin.state());
  if (first === 'deliveries' && teamId && sub === 'redeliver' && post) {
    const d = core.dispatcher.redeliver(teamId, {
      newEventId: p.newEventId === true || p.newEventId === 'true',
    });
    return d
      ? sendJson(res, 200, { eventId: d.eventId, type: d.type, teamId: d.teamId })
      : sendJson(res, 404, { error: 'event_not_found' });
  }
  if (first === 'deliveries') {
    const type = p.type ? String(p.type) : undefined;
    const list = core.dispatcher.log().filter((d) => !type || d.type === type);
    return sendJson(res, 200, list.slice(-(num(p.limit) ?? 200)));
  }
  if (first === 'config' && post) return sendJson(res, 200, await admin.configure(p));
  if (first === 'token-rotation' && post) {
    const seconds = num(p.expiresInSeconds);
    core.auth.setRotation(seconds && seconds > 0 ? { expiresInSeconds: seconds } : undefined);
    return sendJson(res, 200, { tokenRotation: core.auth.rotation() ?? null });
  }
  if (first === 'transports') return sendJson(res, 200, admin.transports());
  if (first === 'socket-mode' && teamId === 'disconnect' && post) {
    const reason = String(p.reason ?? 'refresh_requested');
    if (reason !== 'warning' && reason !== 'refresh_requested' && reason !== 'link_disabled')
      return sendJson(res, 400, { error: 'invalid_reason' });
    return sendJson(res, 200, {
      disconnected: core.socket.disconnect(reason, p.connection ? String(p.connection) : undefined),
    });
  }
  if (first === 'socket-mode' && teamId === 'drop' && post) {
    core.socket.dropAll();
    return sendJson(res, 200, { ok: true });
  }
  if (first === 'socket-mode')
    return sendJson(res, 200, {
      enabled: core.config.socketMode,
      connections: core.socket.connections(),
      ...core.socket.stats(),
    });
  if (first === 'rate-limits' && post) {
    core.rateLimiter.configure(p as never);
    return sendJson(res, 200, core.rateLimiter.options());
  }
  if (first === 'faults') {
    if (req.method === 'DELETE') core.faults.clear();
    else if (teamId === 'next' && post) core.faults.enqueue(p as never);
    else if (post) core.faults.configure(p as never);
    return sendJson(res, 200, core.faults.options());
  }
  if (first !== 'teams' || !teamId) return sendJson(res, 404, { error: 'unknown_admin_route' });
  const team = core.teams.get(teamId);
  if (!team) return sendJson(res, 404, { error: 'team_not_found' });
  const truth = createTruth(team, core.auth);
  const json = p.format === 'json';
  switch (`${req.method} ${sub ?? ''}${id ? '/:id' : ''}${action ? `/${action}` : ''}`) {
    case 'GET ':
      return sendJson(res, 200, {
        ...truth.team,
        window: truth.window,
        spec: truth.spec,
        installed: !!truth.install(),
      });
    case 'GET members':
      return json ? sendJson(res, 200, [...truth.members()]) : sendNdjson(res, truth.members());
    case 'GET channels':
      return sendJson(res, 200, truth.channels());
    case 'GET membership-events':
      return sendNdjson(res, truth.membershipEvents(p.channel ? String(p.channel) : undefined));
    case 'GET messages': {
      const rows = truth.messages({
        channel: p.channel ? String(p.channel) : undefined,
        oldest: num(p.oldest),
        latest: num(p.latest),
      });
      return json ? sendJson(res, 200, [...rows]) : sendNdjson(res, rows);
    }
    case 'GET install':
      return sendJson(res, 200, truth.install() ?? null);
    case 'POST install':
      return sendJson(res, 200, admin.install(team.id, p));
    case 'POST expire-tokens':
      return sendJson(res, 200, { expired: core.auth.expireTokens(team.id) });
    case 'POST uninstall':
      uninstall(core, team.id);
      return sendJson(res, 200, { ok: true });
    case 'POST members':
      return sendJson(
        res,
        200,
        team.users.toJson(
          team.addMember({
            realName: String(p.realName ?? p.real_name ?? 'New Member'),
            email: p.email as string | undefined,
          }),
        ),
      );
    case 'POST members/:id': {
      const u = admin.updateMember(team.id, String(id), p);
      return u ? sendJson(res, 200, u) : sendJson(res, 404, { error: 'user_not_found' });
    }
    case 'POST channels':
      return sendJson(
        res,
        200,
        team.channels.toJson(
          team.createChannel(
            String(p.name),
            String(p.creator ?? team.ws.members[0]?.id),
            p.isPrivate === true,
          ),
        ),
      );
    case 'POST channels/:id/rename':
      return sendJson(res, 200, { ok: !!team.renameChannel(String(id), String(p.name)) });
    case 'POST channels/:id/archive':
      return sendJson(res, 200, {
        ok: !!team.archiveChannel(String(id), p.archived !== false, p.user ? String(p.user) : undefined),
      });
    case 'POST channels/:id/join':
      team.joinChannel(String(id), String(p.user), p.inviter ? String(p.inviter) : undefined);
      return sendJson(res, 200, { ok: true });
    case 'POST channels/:id/leave':
      team.leaveChannel(String(id), String(p.user));
      return sendJson(res, 200, { ok: true });
    case 'POST messages':
      return sendJson(res, 200, admin.postAs(team.id, p));
    default:
      return sendJson(res, 404, { error: 'unknown_admin_route' });
  }
}

/** Admin operations shared by the HTTP endpoints and the startEmulator handle. */
export function createAdminActions(core: Core) {
  const teamOrThrow = (teamId?: string) => {
    const team = core.team(teamId);
    if (!team) throw new Error(`unknown team ${teamId}`);
    return team;
  };
  /** Events and interactions by the way they went: the Request URLs, or Socket Mode envelopes. */
  const transports = () => {
    const sent = core.interactivity.sent();
    const log = core.dispatcher.log();
    return {
      http: { eventPosts: core.dispatcher.httpDeliveries(), interactions: sent.http },
      socket: {
        events: log.filter((d) => d.transport === 'socket').length,
        envelopes: core.socket.stats().envelopesSent,
        interactions: sent.socket,
      },
    };
  };
  return {
    transports,
    state: () => ({
      teams: [...core.teams.values()].map((t) => ({
        ...{
          id: t.id,
          name: t.name,
          domain: t.domain,
          members: t.users.count(),
          channels: t.channels.all().length,
        },
        ...{ window: { start: t.ws.startTime, end: t.ws.endTime }, installed: core.auth.installs.has(t.id) },
      })),
      app: { appId: core.auth.app.appId, clientId: core.auth.app.clientId, name: core.auth.app.name },
      config: core.config,
      transports: transports(),
      socketMode: { connections: core.socket.connections(), ...core.socket.stats() },
      rateLimits: core.rateLimiter.options(),
      faults: core.faults.options(),
      tokenRotation: core.auth.rotation() ?? null,
    }),
    /** Sets the Events / Interactivity URLs; a new events URL gets a url_verification handshake first. */
    configure: async (p: Json) => {
      if (p.socketMode !== undefined)
        core.config.socketMode = p.socketMode === true || p.socketMode === 'true';
      if (p.interactivityUrl !== undefined)
        core.config.interactivityUrl = (p.interactivityUrl as string) || undefined;
      if (p.eventsUrl !== undefined) {
        core.config.eventsUrl = (p.eventsUrl as string) || undefined;
        // Unverified until the new URL answers the challenge: nothing is sent to it meanwhile.
        core.config.eventsUrlVerified = false;
        core.config.eventsUrlVerified = core.config.eventsUrl
          ? await core.dispatcher.verifyUrl(core.config.eventsUrl, core.auth.app.verificationToken)
          : false;
      }
      return { ...core.config };
    },
    install: (teamId: string | undefined, p: Json = {}) =>
      core.auth.install(teamOrThrow(teamId), {
        scopes: p.scopes as string | string[] | undefined,
        userScopes: p.userScopes as string | string[] | undefined,
        installerId: p.installerId as string | undefined,
      }),
    updateMember: (teamId: string, userId: string, p: Json) => {
      const team = teamOrThrow(teamId);
      const patch: Json = {};
      for (const k of ['realName', 'displayName', 'title', 'statusText', 'statusEmoji', 'isAdmin'])
        if (p[k] !== undefined) patch[k] = p[k];
      if (p.deleted === true || p.deleted === 'true') patch.deletedAt = Math.floor(core.now() / 1000);
      const u = team.updateUser(userId, patch);
      return u ? team.users.toJson(u) : undefined;
    },
    postAs: (teamId: string | undefined, p: Json) => {
      const team = teamOrThrow(teamId);
      const channel = String(p.channel);
      const thread = p.thread_ts ? team.messages.find(channel, String(p.thread_ts)) : undefined;
      return team.postMessage(channel, {
        user: String(p.user),
        text: String(p.text ?? ''),
        team: team.id,
        ...(thread ? { thread_ts: thread.ts, parent_user_id: thread.user } : {}),
      });
    },
  };
}

export type AdminActions = ReturnType<typeof createAdminActions>;
