import { SlackError, type MethodDef } from './registry.ts';

/**
 * apps.connections.open: a WebSocket URL for Socket Mode. Only the app-level token (xapp-…, scope
 * connections:write) is accepted; a bot or user token is `not_allowed_token_type`, as on Slack. Calling it turns
 * the app's Socket Mode on (an app that uses it has the toggle on in its settings).
 */
export const appMethods: Record<string, MethodDef> = {
  'apps.connections.open': {
    tier: 1,
    auth: 'none',
    handle: ({ core, headers, params }) => {
      const token =
        /^Bearer\s+(\S+)$/i.exec(String(headers.authorization ?? ''))?.[1] ??
        (params.token ? String(params.token) : undefined);
      if (!token) throw new SlackError('not_authed');
      if (core.auth.lookup(token)) throw new SlackError('not_allowed_token_type');
      if (token !== core.auth.app.appToken) throw new SlackError('invalid_auth');
      const url = core.socket.openUrl(core.baseUrl());
      if (!url) throw new SlackError('too_many_websockets');
      core.config.socketMode = true;
      return { ok: true, url };
    },
  },
};
