import { useState } from 'react';
import { ActionIcon, Badge, Button, Group, Tooltip } from '@mantine/core';
import { IconPin, IconPinnedOff, IconThumbUp } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { useAddReaction } from '../api/add-reaction.ts';
import { usePinPost } from '../api/pin-post.ts';
import { useUnpinPost } from '../api/unpin-post.ts';
import { ReplyModal } from './ReplyModal.tsx';

/** The reaction the thumbs-up button adds (as the bot). */
export const QUICK_REACTION = 'thumbsup';

export type MessageRowActionsProps = {
  channelId: string;
  ts: string;
  channelName: string;
  /** The message's pin state when known: only the action that changes it is offered. */
  pinned?: boolean;
};

const toast = {
  onSuccess: (res: { message: string }) => notifySuccess(res.message),
  onError: (err: unknown) => notifyFailure(errorMessage(err)),
};

/**
 * On a message row (member detail Actions tab): 'reply' opens the reply dialog for that channel and ts
 * pin, unpin and a thumbs-up reaction as the bot (Flywheel's own addition), each toasting the server's message.
 * A pinned message says so ('Pinned'), not only by which of Pin and Unpin is offered.
 */
export function MessageRowActions({ channelId, ts, channelName, pinned }: MessageRowActionsProps) {
  const { teamId } = useCurrentTeam();
  // What the last pin or unpin here made it (the row's own state until then).
  const [pinnedNow, setPinnedNow] = useState(pinned);
  const pin = usePinPost();
  const unpin = useUnpinPost();
  const react = useAddReaction();
  const [replying, setReplying] = useState(false);
  const busy = pin.isPending || unpin.isPending || react.isPending;
  const where = `the message in #${channelName}`;
  const post = { team_id: teamId, channel_id: channelId, ts };
  return (
    <Group gap={4} wrap="nowrap">
      {pinnedNow === true ? (
        <Badge
          variant="light"
          color="grape"
          // The light variant's text (grape 6) is ~3.6:1 on its tint: grape 9 is ~6.5:1.
          c="grape.9"
          tt="none"
          leftSection={<IconPin size={12} aria-hidden />}
          style={{ flex: 'none', overflow: 'visible' }}
          styles={{ label: { overflow: 'visible' } }}
        >
          Pinned
        </Badge>
      ) : null}
      <Button
        size="compact-xs"
        variant="light"
        onClick={() => setReplying(true)}
        aria-label={`Reply to ${where}`}
      >
        reply
      </Button>
      {pinnedNow !== true ? (
        <Tooltip label="Pin">
          <ActionIcon
            variant="subtle"
            size="sm"
            disabled={busy}
            onClick={() =>
              pin.mutate(post, {
                ...toast,
                onSuccess: (res) => {
                  if (pinnedNow !== undefined) setPinnedNow(true);
                  toast.onSuccess(res);
                },
              })
            }
            aria-label={`Pin ${where}`}
          >
            <IconPin size={14} />
          </ActionIcon>
        </Tooltip>
      ) : null}
      {pinnedNow !== false ? (
        <Tooltip label={pinnedNow ? 'Pinned: unpin' : 'Unpin'}>
          <ActionIcon
            variant={pinnedNow ? 'light' : 'subtle'}
            size="sm"
            disabled={busy}
            onClick={() =>
              unpin.mutate(post, {
                ...toast,
                onSuccess: (res) => {
                  if (pinnedNow !== undefined) setPinnedNow(false);
                  toast.onSuccess(res);
                },
              })
            }
            aria-label={`Unpin ${where}`}
          >
            <IconPinnedOff size={14} />
          </ActionIcon>
        </Tooltip>
      ) : null}
      <Tooltip label={`React with :${QUICK_REACTION}:`}>
        <ActionIcon
          variant="subtle"
          size="sm"
          disabled={busy}
          onClick={() => react.mutate({ ...post, sender: 'bot', name: QUICK_REACTION }, toast)}
          aria-label={`React to ${where}`}
        >
          <IconThumbUp size={14} />
        </ActionIcon>
      </Tooltip>
      <ReplyModal
        opened={replying}
        onClose={() => setReplying(false)}
        channelId={channelId}
        ts={ts}
        channelName={channelName}
      />
    </Group>
  );
}
