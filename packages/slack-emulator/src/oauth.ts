import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from './core.ts';
import { parseRequest } from './http/body.ts';
import { escapeHtml, redirect, sendHtml } from './http/respond.ts';
import { randomToken } from './ids.ts';
import { pageShell } from './ui/shell.ts';
import { SlackError, type MethodDef } from './web-api/registry.ts';

type Code = {
  teamId: string;
  installerId: string;
  scopes: string;
  userScopes: string;
  redirectUri?: string;
  expiresAt: number;
  used: boolean;
};

const scopeList = (s: string): string[] => s.split(/[ ,]+/).filter(Boolean);

/** The OAuth v2 flow: authorize page (Allow / Cancel) and single-use expiring codes for oauth.v2.access. */
export function createOAuth(core: Core) {
  const codes = new Map<string, Code>();
  const ttl = core.options.oauthCodeTtlMs ?? 10 * 60_000;
  const app = core.auth.app;

  const redirectAllowed = (uri: string | undefined): boolean =>
    !uri || !app.redirectUris?.length || app.redirectUris.some((allowed) => uri.startsWith(allowed));

  const withParams = (uri: string, params: Record<string, string>): string => {
    const url = new URL(uri);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  };

  const renderPage = (q: Record<string, unknown>): string => {
    const teams = [...core.teams.values()];
    const fixedTeam = q.team ? core.teams.get(String(q.team)) : undefined;
    const chosen = fixedTeam ?? teams[0];
    const admins = (chosen?.ws.members ?? []).filter((m) => m.isAdmin || m.isOwner).slice(0, 30);
    const hidden = ['client_id', 'scope', 'user_scope', 'state', 'redirect_uri']
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(String(q[k] ?? ''))}">`)
      .join('');
    const scopes = (title: string, list: string[]) =>
      list.length
        ? `<h3>${title}</h3><ul class="scopes">${list.map((s) => `<li><code>${escapeHtml(s)}</code></li>`).join('')}</ul>`
        : '';
    const teamPicker = fixedTeam
      ? `<input type="hidden" name="team" value="${fixedTeam.id}"><p>Workspace: <b>${escapeHtml(fixedTeam.name)}</b></p>`
      : `<label>Workspace <select name="team">${teams.map((t) => `<option value="${t.id}">${escapeHtml(t.name)}</option>`).join('')}</select></label>`;
    const userPicker = `<label>Installing as <select name="installer">${admins
      .map(
        (m) =>
          `<option value="${m.id}">${escapeHtml(m.realName)}${m.isPrimaryOwner ? ' (owner)' : ' (admin)'}</option>`,
      )
      .join('')}</select></label>`;
    return pageShell(
      `Install ${app.name}`,
      `<main class="oauth card"><h1><b>${escapeHtml(app.name)}</b> is requesting permission to access a workspace</h1>
      <form method="post" action="/oauth/v2/authorize">${hidden}${teamPicker}${userPicker}
      ${scopes('What the app can view and do (bot scopes)', scopeList(String(q.scope ?? '')))}
      ${scopes('What the app can do on your behalf (user scopes)', scopeList(String(q.user_scope ?? '')))}
      <div class="buttons"><button name="decision" value="cancel" class="secondary">Cancel</button>
      <button name="decision" value="allow" class="primary">Allow</button></div></form></main>`,
    );
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const { params } = await parseRequest(req, url);
    if (params.client_id !== app.clientId)
      return sendHtml(res, 400, pageShell('Error', '<main class="card"><h1>invalid_client_id</h1></main>'));
    const redirectUri = params.redirect_uri ? String(params.redirect_uri) : app.redirectUris?.[0];
    if (!redirectAllowed(redirectUri))
      return sendHtml(res, 400, pageShell('Error', '<main class="card"><h1>bad_redirect_uri</h1></main>'));
    if (req.method !== 'POST') return sendHtml(res, 200, renderPage(params));
    const state = String(params.state ?? '');
    if (params.decision !== 'allow') {
      if (!redirectUri)
        return sendHtml(
          res,
          200,
          pageShell('Cancelled', '<main class="card"><h1>Installation cancelled</h1></main>'),
        );
      return redirect(res, withParams(redirectUri, { error: 'access_denied', state }));
    }
    const team = core.teams.get(String(params.team ?? '')) ?? core.team();
    if (!team)
      return sendHtml(res, 400, pageShell('Error', '<main class="card"><h1>no workspace</h1></main>'));
    const installer = team.users.get(String(params.installer ?? ''))
      ? String(params.installer)
      : (team.ws.members[0]?.id as string);
    const code = `${team.id.slice(1)}.${randomToken(24)}`;
    codes.set(code, {
      teamId: team.id,
      installerId: installer,
      scopes: String(params.scope ?? ''),
      userScopes: String(params.user_scope ?? ''),
      redirectUri: params.redirect_uri ? String(params.redirect_uri) : undefined,
      expiresAt: core.now() + ttl,
      used: false,
    });
    if (!redirectUri)
      return sendHtml(
        res,
        200,
        pageShell('Code', `<main class="card"><h1>Code</h1><code>${code}</code></main>`),
      );
    return redirect(res, withParams(redirectUri, { code, state }));
  };

  /** The answer to a refresh: the new access token of the refresh token's kind, and the new refresh token. */
  const refreshed = (refreshToken: string) => {
    const out = core.auth.refresh(refreshToken);
    if (!out) throw new SlackError('invalid_refresh_token');
    const team = core.teams.get(out.info.teamId);
    return {
      ok: true,
      app_id: app.appId,
      scope: out.info.scopes.join(','),
      token_type: out.info.kind,
      access_token: out.token,
      refresh_token: out.refreshToken,
      expires_in: out.expiresIn,
      ...(out.info.kind === 'bot' ? { bot_user_id: out.info.userId } : { user_id: out.info.userId }),
      team: { id: out.info.teamId, name: team?.name ?? '' },
      enterprise: null,
      is_enterprise_install: false,
    };
  };

  const access: MethodDef = {
    tier: 4,
    auth: 'none',
    handle: (c) => {
      let clientId = c.params.client_id as string | undefined;
      let secret = c.params.client_secret as string | undefined;
      const basic = /^Basic (.+)$/i.exec(String(c.headers.authorization ?? ''));
      if (basic?.[1]) [clientId, secret] = Buffer.from(basic[1], 'base64').toString('utf8').split(':');
      if (clientId !== app.clientId) throw new SlackError('invalid_client_id');
      if (secret !== app.clientSecret) throw new SlackError('bad_client_secret');
      if (c.params.grant_type === 'refresh_token') return refreshed(String(c.params.refresh_token ?? ''));
      const codeArg = String(c.params.code ?? '');
      const code = codes.get(codeArg);
      if (!code || code.used || core.now() > code.expiresAt) {
        if (code) code.used = true;
        throw new SlackError('invalid_code');
      }
      if (
        code.redirectUri &&
        c.params.redirect_uri !== undefined &&
        c.params.redirect_uri !== code.redirectUri
      )
        throw new SlackError('bad_redirect_uri');
      code.used = true;
      const team = core.teams.get(code.teamId);
      if (!team) throw new SlackError('invalid_code');
      const install = core.auth.install(team, {
        scopes: code.scopes,
        userScopes: code.userScopes,
        installerId: code.installerId,
      });
      return {
        ok: true,
        app_id: app.appId,
        authed_user: {
          id: install.installerId,
          ...(install.userToken
            ? {
                scope: install.userScopes.join(','),
                access_token: install.userToken,
                token_type: 'user',
                ...(install.userRefreshToken
                  ? { refresh_token: install.userRefreshToken, expires_in: install.userExpiresIn }
                  : {}),
              }
            : {}),
        },
        scope: install.botScopes.join(','),
        token_type: 'bot',
        access_token: install.botToken,
        ...(install.botRefreshToken
          ? { refresh_token: install.botRefreshToken, expires_in: install.botExpiresIn }
          : {}),
        bot_user_id: install.botUserId,
        team: { id: team.id, name: team.name },
        enterprise: null,
        is_enterprise_install: false,
      };
    },
  };

  return { handle, access, codes };
}
