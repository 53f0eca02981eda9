import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { handleAdmin, type AdminActions } from './admin.ts';
import type { Core } from './core.ts';
import { parseRequest, readBody, parseMultipart } from './http/body.ts';
import { escapeHtml, redirect, sendHtml, sendJson } from './http/respond.ts';
import type { createOAuth } from './oauth.ts';
import type { Json } from './types.ts';
import { memberPage } from './ui/page.ts';
import { handleUiApi } from './ui/routes.ts';
import { dispatchMethod } from './web-api/dispatch.ts';
import { acceptUpload } from './web-api/files.ts';
import type { MethodDef } from './web-api/registry.ts';

type Deps = {
  core: Core;
  methods: Record<string, MethodDef>;
  oauth: ReturnType<typeof createOAuth>;
  admin: AdminActions;
};

function avatarSvg(core: Core, id: string): string {
  const team = [...core.teams.values()].find((t) => t.users.get(id));
  const u = team?.users.get(id);
  const label = u ? (u.firstName[0] ?? '') + (u.lastName[0] ?? '') : (core.teams.get(id)?.name[0] ?? 'B');
  const color = u?.color ?? '4a154b';
  return `<svg xmlns="http://www.w3.org/2000/svg" width="72" height="72" viewBox="0 0 72 72"><rect width="72" height="72" rx="8" fill="#${color}"/><text x="36" y="46" font-family="Helvetica,Arial,sans-serif" font-size="28" font-weight="700" fill="#fff" text-anchor="middle">${escapeHtml(label.toUpperCase())}</text></svg>`;
}

async function handleUpload(
  core: Core,
  req: IncomingMessage,
  res: ServerResponse,
  key: string,
): Promise<void> {
  const raw = await readBody(req);
  const type = String(req.headers['content-type'] ?? '');
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(type);
  const b = boundary?.[1] ?? boundary?.[2];
  const data =
    type.startsWith('multipart/form-data') && b
      ? (parseMultipart(raw, b.trim())[0]?.data ?? Buffer.alloc(0))
      : raw;
  const out = acceptUpload(core, key, data);
  res.writeHead(out.status, { 'content-type': 'text/plain' });
  res.end(out.text);
}

/** response_url: replace_original / delete_original update the message; otherwise post in the channel. */
async function handleResponseUrl(
  core: Core,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const [, , teamId = '', channel = '', ts = ''] = url.pathname.split('/');
  const { params } = await parseRequest(req, url);
  const team = core.teams.get(teamId);
  const install = core.auth.installs.get(teamId);
  if (!team || !install) return sendJson(res, 404, { ok: false, error: 'expired_url' });
  const p = params as Json;
  const content = {
    text: String(p.text ?? ''),
    ...(Array.isArray(p.blocks) ? { blocks: p.blocks as unknown[] } : {}),
  };
  if (p.delete_original === true || p.delete_original === 'true') team.deleteMessage(channel, ts);
  else if (p.replace_original === true || p.replace_original === 'true')
    team.updateMessage(channel, ts, content, install.botUserId);
  else
    team.postMessage(channel, {
      ...content,
      user: install.botUserId,
      bot_id: install.botId,
      team: team.id,
      bot_profile: core.auth.botProfile(install, core.baseUrl()),
    });
  return sendJson(res, 200, { ok: true });
}

export function createHttpServer({ core, methods, oauth, admin }: Deps): Server {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    const route = async (): Promise<void> => {
      if (path.startsWith('/api/')) return dispatchMethod(core, methods, path.slice(5), req, res, url);
      if (path === '/oauth/v2/authorize') return oauth.handle(req, res, url);
      if (path.startsWith('/upload/v1/') && req.method === 'POST')
        return handleUpload(core, req, res, path.slice(11));
      if (path.startsWith('/_admin')) return handleAdmin(core, admin, req, res, url);
      if (path.startsWith('/_ui/api/')) return handleUiApi(core, req, res, url);
      if (path.startsWith('/_response/') && req.method === 'POST')
        return handleResponseUrl(core, req, res, url);
      if (path.startsWith('/avatars/')) {
        res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' });
        return void res.end(avatarSvg(core, path.slice(9).replace(/\.svg$/, '')));
      }
      if (path.startsWith('/files/')) {
        const file = core.files.get(path.split('/')[2] ?? '');
        if (!file?.data) return sendJson(res, 404, { ok: false, error: 'file_not_found' });
        res.writeHead(200, { 'content-type': file.mimetype });
        return void res.end(file.data);
      }
      if (path.startsWith('/archives/')) {
        const [, , channel = ''] = path.split('/');
        const team = [...core.teams.values()].find((t) => t.channels.get(channel));
        return redirect(res, `/?team=${team?.id ?? ''}&channel=${channel}`);
      }
      if (path === '/health') return sendJson(res, 200, { ok: true });
      if (path === '/' || path === '/index.html') return sendHtml(res, 200, memberPage());
      return sendJson(res, 404, { ok: false, error: 'not_found' });
    };
    route().catch((err: unknown) => {
      console.error('[slack-emulator] request failed', err);
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: 'internal_error' });
      else res.end();
    });
  });
  // Socket Mode: the single-use URLs apps.connections.open hands out (/link/?ticket=…).
  server.on('upgrade', (req, socket, head) => core.socket.upgrade(req, socket, head));
  // Idle connections stay open 72 s (Fastify's default, as the Flywheel server has): with Node's 5 s, a client that
  // pauses about that long between calls can send on a connection as it closes and get a reset (socket hang up).
  server.keepAliveTimeout = 72_000;
  server.headersTimeout = 73_000;
  return server;
}
