import { useId, type ReactNode } from 'react';
import { Avatar, Badge, Box, Group, Image, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { DEFAULT_BOT_NAME } from '@flywheel/shared/analytics';
import { SlackText } from './SlackText.tsx';
import { usePreviews } from './ImagePicker.tsx';
import type { SenderChoice } from '../entities/messages/index.ts';
import { useMentionNames } from '../entities/members/index.ts';
import { useAuthorizedAdmins, useBotIdentity } from '../entities/workspace/index.ts';

type SlackPreviewProps = {
  sender: SenderChoice;
  /** The message as it goes to Slack (mrkdwn, mentions as <@U…> tokens). */
  text: string;
  files: readonly File[];
  /** Shown at the right of the 'Preview' title (e.g. 'Send a test to me'), to keep a step compact. */
  action?: ReactNode;
};

const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' });

/** Who the message comes from, as Slack shows it: the bot's name (with APP) or the admin's. */
function useSenderName(sender: SenderChoice): { name: string; app: boolean; image: string | null } | null {
  const bot = useBotIdentity();
  const admins = useAuthorizedAdmins();
  if (sender.sender === 'bot')
    return { name: bot.data?.bot_name || DEFAULT_BOT_NAME, app: true, image: bot.data?.bot_image ?? null };
  if (sender.sender === 'admin') {
    const a = admins.data?.find((x) => (x.value || x.user_id) === sender.adminUser);
    return { name: a ? a.label || a.real_name : 'Admin', app: false, image: null };
  }
  return null;
}

/**
 * How the message will read in Slack, as it is written: the sender's name (the bot's, marked APP, or the
 * admin's), the text with @names, #channels, emoji, bold, italics, code and links as Slack draws them (the
 * shared SlackText: text, never HTML), and the images under it.
 */
export function SlackPreview({ sender, text, files, action }: SlackPreviewProps) {
  const names = useMentionNames();
  const from = useSenderName(sender);
  const previews = usePreviews(files);
  const empty = text.trim() === '' && files.length === 0;
  const labelId = useId();
  return (
    <Stack gap={4}>
      <Group justify="space-between" gap="sm" wrap="nowrap">
        <Text fz="sm" fw={500} id={labelId}>
          Preview
        </Text>
        {action}
      </Group>
      <Paper withBorder radius="md" p="sm" aria-labelledby={labelId} role="group" data-slack-preview="">
        {empty ? (
          <Text fz="sm" c="dimmed">
            Your message shows here as it will look in Slack.
          </Text>
        ) : (
          <Group align="flex-start" gap="sm" wrap="nowrap">
            <Avatar
              src={from?.image ?? undefined}
              name={from?.name ?? '?'}
              color={from?.app ? 'violet' : 'initials'}
              radius="sm"
              size={36}
              alt=""
            />
            <Stack gap={2} miw={0} style={{ flex: 1 }}>
              <Group gap={6} wrap="wrap">
                <Text fz="sm" fw={700}>
                  {from?.name ?? 'Choose a sender'}
                </Text>
                {from?.app ? (
                  <Badge size="xs" radius="sm" color="gray.7" variant="outline">
                    APP
                  </Badge>
                ) : null}
                <Text fz="xs" c="dimmed">
                  {clock.format(new Date())}
                </Text>
              </Group>
              {text.trim() ? <SlackText text={text} names={names} /> : null}
              {files.length > 0 ? (
                <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="xs" mt={4}>
                  {files.map((f, i) => (
                    <Box key={`${f.name}-${i}`}>
                      {previews.get(f) ? (
                        <Image
                          src={previews.get(f)}
                          alt={`Image ${i + 1}: ${f.name}`}
                          radius="sm"
                          h={96}
                          fit="cover"
                        />
                      ) : (
                        <Text fz="xs" c="dimmed">
                          {f.name}
                        </Text>
                      )}
                    </Box>
                  ))}
                </SimpleGrid>
              ) : null}
            </Stack>
          </Group>
        )}
      </Paper>
    </Stack>
  );
}
