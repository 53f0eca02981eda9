import { useMemo } from 'react';
import type { MentionLookup } from '@flywheel/shared/mrkdwn';
import { useChannels, useMembers } from './workspace-data.ts';

/** The workspace's members and channels, so @names and #names typed in the editor become Slack tokens. */
export function useMentionLookup(): MentionLookup {
  const members = useMembers();
  const channels = useChannels();
  return useMemo(
    () => ({
      members: (members.data ?? []).map((m) => ({
        id: m.member_id,
        display_name: m.display_name,
        real_name: m.real_name,
      })),
      channels: (channels.data ?? []).map((c) => ({ id: c.channel_id, name: c.channel_name })),
    }),
    [members.data, channels.data],
  );
}
