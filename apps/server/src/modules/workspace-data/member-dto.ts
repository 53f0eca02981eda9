import type { Member } from '@flywheel/shared/directory';

/** A member's profile with its counts, as the members reads select it (timestamps as microsecond text). */
export type MemberCountsRow = {
  member_id: string;
  real_name: string;
  display_name: string;
  email: string | null;
  avatar_url: string | null;
  is_admin: boolean;
  deleted: boolean;
  join_time: string | null;
  last_active: string | null;
  messages: number;
  replies: number;
  reactions: number;
};

/** A microsecond timestamp selected as text (bigint), as the number the API answers; 0 when unknown. */
export const micros = (v: string | null): number => (v ? Number(v) : 0);

/** The one mapping of a member row to the API's Member (Members list, directory, member detail). */
export function toMember(
  m: MemberCountsRow,
  tags: { id: number; name: string }[] | null | undefined,
): Member {
  return {
    member_id: m.member_id,
    real_name: m.real_name,
    display_name: m.display_name,
    email: m.email ?? '',
    avatar: m.avatar_url,
    is_admin: m.is_admin,
    deleted: m.deleted,
    messages: m.messages,
    replies: m.replies,
    reactions: m.reactions,
    activity: m.messages + m.replies + m.reactions,
    last_active: micros(m.last_active),
    join_time: micros(m.join_time),
    tags: tags && tags.length > 0 ? tags : null,
  };
}
