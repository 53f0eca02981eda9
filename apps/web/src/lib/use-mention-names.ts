import { useMemo } from 'react';
import { namesFrom, type MentionNames } from '@flywheel/shared/mentions';
import { useChannels, useMembers } from './workspace-data.ts';

/** Member and channel names of the workspace, for mention tokens the server left in a text (SlackText). */
export function useMentionNames(): MentionNames {
  const members = useMembers();
  const channels = useChannels();
  return useMemo(
    () =>
      namesFrom(
        new Map((members.data ?? []).map((m) => [m.member_id, m.real_name || m.display_name])),
        new Map((channels.data ?? []).map((c) => [c.channel_id, c.channel_name])),
      ),
    [members.data, channels.data],
  );
}
