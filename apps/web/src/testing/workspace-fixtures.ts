import type { Member, WorkspaceStatus } from '@flywheel/shared/directory';
import type { MockReply } from './mock-api.ts';

export function member(id: string, realName: string, extra: Partial<Member> = {}): Member {
  return {
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
  };
}

export const MEMBERS: Member[] = [
  member('U001', 'Ada Lovelace'),
  member('U002', 'Alan Turing'),
  member('U003', 'Grace Hopper'),
  member('U004', 'Katherine Johnson'),
];

export function workspaceStatus(overrides: Partial<WorkspaceStatus> = {}, teamId = 'T001'): WorkspaceStatus {
  return {
    team_id: teamId,
    status: 'active',
    disconnect_reason: null,
    backfill: { status: 'done', percent: 100, messages: 1200, error: null },
    ...overrides,
  };
}

/** Answers for everything a signed-in page loads for a workspace (spec section 4 plus the status poll). */
export function workspaceDataMocks(
  teamId = 'T001',
  options: { members?: Member[]; status?: WorkspaceStatus } = {},
): Record<string, MockReply> {
  return {
    [`GET /members/getmembers/${teamId}`]: { body: { data: options.members ?? MEMBERS } },
    [`GET /members/getmembersuggestion/${teamId}`]: { body: { data: [] } },
    [`GET /channels/getchannels/${teamId}`]: {
      body: {
        data: [{ channel_id: 'C001', channel_name: 'general', is_private: false, is_archived: false }],
      },
    },
    [`GET /getauthorizedadmins/${teamId}/u1`]: {
      body: { data: [{ user_id: 'U001', real_name: 'Ada Lovelace', label: 'Ada Lovelace', value: 'U001' }] },
    },
    [`GET /tags/gettags/${teamId}`]: { body: { data: [{ id: 1, name: 'vip' }] } },
    [`GET /workspaces/status/${teamId}`]: { body: options.status ?? workspaceStatus({}, teamId) },
    // Home is where signed-in users land: its cards answer empty unless a test says otherwise.
    [`GET /homepage/getcardsdata/${teamId}`]: { body: { data: [] } },
    [`GET /homepage/workspacehighlights/${teamId}`]: { body: { data: [] } },
    [`GET /homepage/getchanneldata/${teamId}`]: { body: { data: [] } },
    [`GET /homepage/gettasks/${teamId}`]: { body: { data: [] } },
    [`GET /alterbot/getbotdetails/${teamId}`]: {
      body: { data: { bot_name: 'Flywheel', bot_image: null, use_custom: true } },
    },
    'POST /homepage/getuseradmindata': { body: { data: { admin: 0, members: 0 } } },
    'POST /homepage/getmostactivemembers': { body: { data: [] } },
  };
}
