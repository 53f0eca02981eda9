import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Core } from '../core.ts';
import { parseRequest } from '../http/body.ts';
import { sendJson } from '../http/respond.ts';
import type { Team } from '../state/team.ts';
import type { Json, SlackMessage } from '../types.ts';

const str = (v: unknown): string => (v === undefined || v === null ? '' : String(v));

/** JSON endpoints behind the member page: read as a member, and act as one (post, react, press, submit). */
export async function handleUiApi(
  core: Core,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const { params: p } = await parseRequest(req, url);
  const route = url.pathname.slice('/_ui/api/'.length);
  if (route === 'teams')
    return sendJson(
      res,
      200,
      [...core.teams.values()].map((t) => ({ id: t.id, name: t.name })),
    );
  const team = core.team(str(p.team));
  if (!team) return sendJson(res, 404, { error: 'team_not_found' });
  const user = str(p.user);
  const names = (ids: Iterable<string>): Json => {
    const out: Json = {};
    for (const id of ids) {
      const u = team.users.get(id);
      if (u) out[id] = { name: u.displayName || u.realName, avatar: team.users.avatar(u, 72), bot: u.isBot };
    }
    return out;
  };
  const withNames = (messages: SlackMessage[]) => {
    const ids = new Set<string>();
    for (const m of messages) {
      if (m.user) ids.add(m.user);
      for (const x of m.text.matchAll(/<@([UW][A-Z0-9]+)>/g)) ids.add(x[1] as string);
      for (const r of m.reactions ?? []) r.users.forEach((u) => ids.add(u));
    }
    return { messages, names: names(ids) };
  };
  switch (route) {
    case 'members':
      return sendJson(res, 200, searchMembers(team, str(p.q)));
    case 'sidebar':
      return sendJson(res, 200, sidebar(team, user));
    case 'messages': {
      const page = team.messages.history(str(p.channel), { limit: 60 });
      const ch = team.channels.get(str(p.channel));
      return sendJson(res, 200, {
        channel: ch
          ? {
              id: ch.id,
              name: ch.name,
              isMember: team.channels.isMember(ch.id, user),
              pins: [...team.messages.pins(ch.id)],
            }
          : null,
        ...withNames(page.messages.reverse()),
      });
    }
    case 'thread': {
      const parent = team.messages.find(str(p.channel), str(p.ts));
      return sendJson(
        res,
        200,
        withNames(parent ? [parent, ...team.messages.threadReplies(str(p.channel), str(p.ts))] : []),
      );
    }
    case 'post': {
      if (!team.channels.isMember(str(p.channel), user))
        return sendJson(res, 403, { error: 'not_in_channel' });
      const thread = str(p.thread_ts);
      const parent = thread ? team.messages.find(str(p.channel), thread) : undefined;
      const m = team.postMessage(str(p.channel), {
        user,
        text: str(p.text),
        team: team.id,
        client_msg_id: crypto.randomUUID(),
        ...(parent ? { thread_ts: parent.ts, parent_user_id: parent.user } : {}),
      });
      return sendJson(res, 200, { ok: true, ts: m.ts });
    }
    case 'react': {
      const m = team.messages.find(str(p.channel), str(p.ts));
      if (!m) return sendJson(res, 404, { error: 'message_not_found' });
      const mine = m.reactions?.find((r) => r.name === str(p.name))?.users.includes(user) ?? false;
      team.react(str(p.channel), str(p.ts), str(p.name), user, !mine);
      return sendJson(res, 200, { ok: true, added: !mine });
    }
    case 'join':
      if (!team.channels.isMember(str(p.channel), user)) team.joinChannel(str(p.channel), user);
      return sendJson(res, 200, { ok: true });
    case 'dm':
      return sendJson(res, 200, { ok: true, channel: team.channels.openIm(user, str(p.other)).ch.id });
    case 'action': {
      const m = team.messages.find(str(p.channel), str(p.ts));
      if (!m) return sendJson(res, 404, { error: 'message_not_found' });
      const value = p.value === undefined || p.value === '' ? undefined : str(p.value);
      const result = await core.interactivity.clickButton({
        teamId: team.id,
        userId: user,
        channel: str(p.channel),
        message: m,
        actionId: str(p.action_id),
        value,
      });
      return sendJson(res, 200, result);
    }
    case 'surfaces':
      return sendJson(res, 200, core.interactivity.surfaces(user));
    case 'ephemerals':
      return sendJson(res, 200, core.interactivity.ephemerals(team.id, user, str(p.channel) || undefined));
    case 'view-submit': {
      const values =
        typeof p.values === 'string'
          ? (JSON.parse(p.values) as Json)
          : ((p.values as Json | undefined) ?? {});
      return sendJson(res, 200, await core.interactivity.submitView(user, str(p.view_id), values));
    }
    case 'view-close':
      core.interactivity.closeView(user);
      return sendJson(res, 200, { ok: true });
    case 'dialog-submit': {
      const submission =
        typeof p.submission === 'string'
          ? (JSON.parse(p.submission) as Json)
          : ((p.submission as Json | undefined) ?? {});
      return sendJson(res, 200, await core.interactivity.submitDialog(user, submission));
    }
    case 'dialog-close':
      core.interactivity.closeDialog(user);
      return sendJson(res, 200, { ok: true });
    default:
      return sendJson(res, 404, { error: 'unknown_route' });
  }
}

function searchMembers(team: Team, q: string) {
  const needle = q.toLowerCase();
  const out = [];
  for (const id of team.users.ids()) {
    const u = team.users.get(id);
    if (!u || team.users.isDeleted(u) || u.isBot) continue;
    if (needle && !`${u.realName} ${u.displayName} ${u.email}`.toLowerCase().includes(needle)) continue;
    out.push({ id: u.id, name: u.realName, admin: u.isAdmin });
    if (out.length >= 50) break;
  }
  return out;
}

function sidebar(team: Team, user: string) {
  const channels = [];
  const others = [];
  const dms = [];
  for (const ch of team.channels.all()) {
    const member = team.channels.isMember(ch.id, user);
    if (ch.isIm) {
      if (!member) continue;
      const other = ch.imUsers?.find((u) => u !== user) ?? user;
      const u = team.users.get(other);
      dms.push({ id: ch.id, name: u?.displayName || u?.realName || other, bot: u?.isBot ?? false });
    } else if (member) channels.push({ id: ch.id, name: ch.name, isPrivate: ch.isPrivate });
    else if (!ch.isPrivate) others.push({ id: ch.id, name: ch.name });
  }
  return { channels, others: others.slice(0, 40), dms };
}
