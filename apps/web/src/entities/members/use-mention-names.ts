import { useMemo } from 'react';
import { namesFrom, type MentionNames } from '@flywheel/shared/mentions';
import { useLazyMemberNames } from './member-directory.ts';
import { useChannels } from '../workspace/index.ts';

/**
 * Member and channel names of the workspace, for mention tokens the server left in a text (SlackText).
 * Member names are looked up for the ids on screen (batched), not from the whole directory.
 */
export function useMentionNames(): MentionNames {
  const member = useLazyMemberNames();
  const channels = useChannels();
  return useMemo(() => {
    const channelNames = namesFrom(
      new Map(),
      new Map((channels.data ?? []).map((c) => [c.channel_id, c.channel_name])),
    );
    return { member, channel: channelNames.channel };
  }, [member, channels.data]);
}
