import { authed, paginate, required, SlackError, type AuthedContext, type MethodDef } from './registry.ts';

const userOr404 = (c: AuthedContext, id: string) => {
  const u = c.team.users.get(id);
  if (!u) throw new SlackError('user_not_found');
  return u;
};

export const userMethods: Record<string, MethodDef> = {
  'users.list': {
    tier: 2,
    scope: 'users:read',
    handle: (call) => {
      const c = authed(call);
      const { page, next } = paginate(c, [...c.team.users.ids()], 1000, 1000);
      const canEmail = c.token.scopes.includes('users:read.email');
      const members = page.map((id) => {
        const json = c.team.users.toJson(userOr404(c, id));
        if (!canEmail) delete (json.profile as Record<string, unknown>).email;
        return json;
      });
      return {
        ok: true,
        members,
        cache_ts: Math.floor(c.core.now() / 1000),
        response_metadata: { next_cursor: next },
      };
    },
  },
  'users.info': {
    tier: 4,
    scope: 'users:read',
    handle: (call) => {
      const c = authed(call);
      const json = c.team.users.toJson(userOr404(c, required(c, 'user')));
      if (!c.token.scopes.includes('users:read.email'))
        delete (json.profile as Record<string, unknown>).email;
      return { ok: true, user: json };
    },
  },
  'users.lookupByEmail': {
    tier: 3,
    scope: 'users:read.email',
    handle: (call) => {
      const c = authed(call);
      const u = c.team.users.byEmail(required(c, 'email'));
      if (!u) throw new SlackError('users_not_found');
      return { ok: true, user: c.team.users.toJson(u) };
    },
  },
  'users.profile.get': {
    tier: 4,
    scope: 'users.profile:read',
    handle: (call) => {
      const c = authed(call);
      const u = userOr404(c, (call.params.user as string | undefined) ?? c.token.userId);
      return { ok: true, profile: c.team.users.profile(u) };
    },
  },
};
