import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { SenderChoice } from '../../../entities/messages/index.ts';
import { useAdminChannels } from '../api/admin-channels.ts';

/** '#a', '#a and #b', '#a, #b and #c'. */
export const channelList = (names: readonly string[]) => {
  const tags = names.map((n) => `#${n}`);
  return tags.length <= 1 ? (tags[0] ?? '') : `${tags.slice(0, -1).join(', ')} and ${tags.at(-1)}`;
};

type AdminChannelWarningProps = {
  sender: SenderChoice;
  /** The channels the message is posted in (not DMs to their members). */
  channelIds: readonly string[];
  /** The server's refusal of the last send (ADMIN_NOT_IN_CHANNEL), when the check before it had not shown. */
  refused: string | null;
  onUseBot(): void;
  disabled?: boolean;
};

/**
 * Before a send as an admin: the channels they are not in, where Slack would refuse the message
 * (`not_in_channel`), with the way out: send it as the Bot, or join first. Nothing when they are in every one.
 */
export function AdminChannelWarning({
  sender,
  channelIds,
  refused,
  onUseBot,
  disabled,
}: AdminChannelWarningProps) {
  const check = useAdminChannels(sender, channelIds);
  if (sender.sender !== 'admin') return null;
  const missing = check.data?.channels ?? [];
  if (missing.length === 0 && !refused) return null;
  const admin = check.data?.admin ?? 'This admin';
  const list = channelList(missing.map((c) => c.name));
  const them = missing.length === 1 ? 'it' : 'them';
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconAlertTriangle size={18} />}
      title={missing.length > 0 ? `${admin} is not in ${list}` : 'Slack would refuse this message'}
      role="alert"
      // The title in the text's colour: Mantine's orange on its light orange reads below AA contrast.
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
    >
      <Stack gap="xs" align="flex-start">
        <Text fz="sm">
          {missing.length > 0
            ? `Slack refuses a message from someone who is not a member of the channel. Send it as the Bot instead, or have ${admin} join ${them} in Slack first.`
            : refused!.replace(/^[a-z_]+: /, '')}
        </Text>
        <Button size="xs" variant="default" onClick={onUseBot} disabled={disabled}>
          Send as the Bot instead
        </Button>
      </Stack>
    </Alert>
  );
}
