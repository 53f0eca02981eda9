import {
  activityRowsResponse,
  botDetailsResponse,
  channelActivityResponse,
  memberActivityResponse,
  summaryCardsResponse,
  tasksResponse,
  userAdminResponse,
} from '@flywheel/shared/analytics';
import {
  authorizedAdminSchema,
  channelSchema,
  dataOf,
  memberSchema,
  memberSuggestionSchema,
  tagSchema,
  workspaceStatusResponse,
  type Member,
  type WorkspaceStatus,
} from '@flywheel/shared/directory';
import { memberHitSchema, memberSearchResponse } from '@flywheel/shared/member-directory';
import { fixture, reply } from './fixture.ts';
import type { MockHandler, MockReply } from './mock-api.ts';

export function member(id: string, realName: string, extra: Partial<Member> = {}): Member {
  return fixture(memberSchema, {
    member_id: id,
    real_name: realName,
    display_name: realName.split(' ')[0]?.toLowerCase() ?? '',
    email: `${id.toLowerCase()}@example.com`,
    avatar: null,
    is_admin: false,
    deleted: false,
    messages: 0,
    replies: 0,
    reactions: 0,
    activity: 0,
    last_active: 0,
    join_time: 0,
    tags: null,
    ...extra,
  });
}

export const MEMBERS: Member[] = [
  member('U001', 'Ada Lovelace'),
  member('U002', 'Alan Turing'),
  member('U003', 'Grace Hopper'),
  member('U004', 'Katherine Johnson'),
];

export function workspaceStatus(overrides: Partial<WorkspaceStatus> = {}, teamId = 'T001'): WorkspaceStatus {
  return fixture(workspaceStatusResponse, {
    team_id: teamId,
    status: 'active',
    disconnect_reason: null,
    backfill: { status: 'done', percent: 100, messages: 1200, error: null },
    ...overrides,
  });
}

const hitOf = (m: Member) => ({
  member_id: m.member_id,
  real_name: m.real_name,
  display_name: m.display_name,
  email: m.email,
  deleted: m.deleted,
});

/**
 * The server's member search and lookup over `members`, as the directory module answers them
 * (GET /members/search: substring of name, display name or e-mail, at most `limit`; POST /members/lookup).
 */
export function memberDirectoryMocks(
  teamId = 'T001',
  members: Member[] = MEMBERS,
): Record<string, MockHandler> {
  return {
    [`GET /members/search/${teamId}`]: (_body, { url }) => {
      const params = new URL(url, 'http://localhost').searchParams;
      const q = (params.get('q') ?? '').trim().toLowerCase();
      const limit = Number(params.get('limit') ?? 10);
      const found = members.filter(
        (m) =>
          (params.get('left') === 'true' || !m.deleted) &&
          [m.real_name, m.display_name, m.email].some((f) => f.toLowerCase().includes(q)),
      );
      return reply(memberSearchResponse, {
        data: found.slice(0, limit).map(hitOf),
        more: found.length > limit,
      });
    },
    'POST /members/lookup': (body) => {
      const { member_ids = [], entries = [] } = body as { member_ids?: string[]; entries?: string[] };
      const typed = new Set(entries.map((e) => e.trim().replace(/^@/, '').toLowerCase()));
      const found = members.filter(
        (m) =>
          member_ids.includes(m.member_id) ||
          [m.email, m.real_name, m.display_name, m.member_id].some((f) => typed.has(f.toLowerCase())),
      );
      return reply(dataOf(memberHitSchema), { data: found.map(hitOf) });
    },
  };
}

/** Answers for everything a signed-in page loads for a workspace. */
export function workspaceDataMocks(
  teamId = 'T001',
  options: { members?: Member[]; status?: WorkspaceStatus } = {},
): Record<string, MockHandler | MockReply> {
  const none = { data: [] };
  return {
    ...memberDirectoryMocks(teamId, options.members ?? MEMBERS),
    [`GET /members/getmembers/${teamId}`]: reply(dataOf(memberSchema), { data: options.members ?? MEMBERS }),
    [`GET /members/getmembersuggestion/${teamId}`]: reply(dataOf(memberSuggestionSchema), none),
    [`GET /channels/getchannels/${teamId}`]: reply(dataOf(channelSchema), {
      data: [{ channel_id: 'C001', channel_name: 'general', is_private: false, is_archived: false }],
    }),
    [`GET /getauthorizedadmins/${teamId}/u1`]: reply(dataOf(authorizedAdminSchema), {
      data: [{ user_id: 'U001', real_name: 'Ada Lovelace', label: 'Ada Lovelace', value: 'U001' }],
    }),
    [`GET /tags/gettags/${teamId}`]: reply(dataOf(tagSchema), { data: [{ id: 1, name: 'vip' }] }),
    [`GET /workspaces/status/${teamId}`]: reply(
      workspaceStatusResponse,
      options.status ?? workspaceStatus({}, teamId),
    ),
    // Home is where signed-in users land: its cards answer empty unless a test says otherwise.
    [`GET /homepage/getcardsdata/${teamId}`]: reply(summaryCardsResponse, none),
    [`GET /homepage/workspacehighlights/${teamId}`]: reply(activityRowsResponse, none),
    [`GET /homepage/getchanneldata/${teamId}`]: reply(channelActivityResponse, none),
    [`GET /homepage/gettasks/${teamId}`]: reply(tasksResponse, none),
    [`GET /alterbot/getbotdetails/${teamId}`]: reply(botDetailsResponse, {
      data: { bot_name: 'Flywheel', bot_image: null, use_custom: true },
    }),
    'POST /homepage/getuseradmindata': reply(userAdminResponse, { data: EMPTY_CONTENT }),
    'POST /homepage/getmostactivemembers': reply(memberActivityResponse, none),
  };
}

/** Content Generation with nothing said by anyone. */
export const EMPTY_CONTENT = { admin: 0, members: 0, admin_percent: 0, members_percent: 0 };
