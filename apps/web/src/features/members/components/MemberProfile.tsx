import { useState } from 'react';
import {
  ActionIcon,
  Avatar,
  Badge,
  Button,
  Card,
  Divider,
  Group,
  List,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconInfoCircle, IconMail } from '@tabler/icons-react';
import type { MemberInfo } from '@flywheel/shared/members';
import { firstGrapheme } from '@flywheel/shared/text';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useRemoveTag } from '../api/remove-tag.ts';
import type { MemberDetailSlots } from '../slots.ts';
import { CreateTagModal } from './CreateTagModal.tsx';
import { TagBadges } from './TagBadges.tsx';
import { LEVEL_LABELS, LEVEL_RULES } from '@flywheel/shared/levels';
import { LevelBadge } from '../../../entities/members/index.ts';

const date = (us: number) => formatDate(us / 1000);

/**
 * 'Date of join' as people can read it. Slack gives a join date only for joins inside the history Flywheel
 * imported; for everyone who joined earlier it says so ('Before 24 Jul 2026') instead of 'Unknown'.
 */
export function joinText(member: Pick<MemberInfo, 'join_time' | 'history_start'>): {
  text: string;
  why?: string;
} {
  if (member.join_time) return { text: date(member.join_time) };
  if (member.history_start)
    return {
      text: `Before ${formatDate(member.history_start)}`,
      why: `Joined before the history Flywheel can see (it starts on ${formatDate(member.history_start)}): Slack gives no join date for earlier members.`,
    };
  return {
    text: 'Before the history Flywheel can see',
    why: 'Slack gives no join date for members who joined before the history Flywheel imported.',
  };
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Stack gap={0} role="group" aria-label={label}>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600} aria-hidden>
        {label}
      </Text>
      <Text fw={700} fz="lg">
        {value}
      </Text>
    </Stack>
  );
}

/** The member detail's left panel, with the message button on the name row. */
export function MemberProfile({
  member,
  MessageMember,
}: { member: MemberInfo } & Pick<MemberDetailSlots, 'MessageMember'>) {
  const remove = useRemoveTag();
  const [adding, setAdding] = useState(false);
  const name = member.real_name || member.display_name || member.member_id;
  const join = joinText(member);
  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Group wrap="nowrap">
          <Avatar src={member.avatar} size={64} radius="xl" alt={name} color="brand">
            {firstGrapheme(name)}
          </Avatar>
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={1} fz="xl">
              {name}
            </Title>
            {member.email ? (
              <Group gap={4} wrap="nowrap">
                <Text fz="sm" c="dimmed" truncate>
                  {member.email}
                </Text>
                <ActionIcon
                  component="a"
                  href={`mailto:${member.email}`}
                  variant="subtle"
                  size="sm"
                  aria-label={`E-mail ${name}`}
                >
                  <IconMail size={14} />
                </ActionIcon>
              </Group>
            ) : null}
            {member.deleted ? (
              <Badge color="gray" variant="light" w="fit-content">
                Left the workspace
              </Badge>
            ) : null}
          </Stack>
        </Group>
        <Stack gap={2}>
          <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
            Name
          </Text>
          <Group gap={6} wrap="nowrap">
            <Text fz="sm">{name}</Text>
            {MessageMember && !member.deleted ? (
              <MessageMember memberId={member.member_id} name={name} />
            ) : null}
          </Group>
          <Text fz="xs" c="dimmed" tt="uppercase" fw={600} mt={6}>
            Nick name
          </Text>
          <Text fz="sm">{member.display_name || '—'}</Text>
        </Stack>
        <Divider />
        <Stack gap={6} id="tags">
          <Group justify="space-between">
            <Text fw={600}>Tags</Text>
            <Button size="compact-sm" variant="light" onClick={() => setAdding(true)}>
              + create tag
            </Button>
          </Group>
          {member.tags.length > 0 ? (
            <TagBadges
              tags={member.tags}
              owner={name}
              disabled={remove.isPending}
              onRemove={(t) =>
                remove.mutate(
                  { memberId: member.member_id, tagId: t.id },
                  {
                    onSuccess: (res) => notifySuccess(res.message),
                    onError: (err) => notifyFailure(errorMessage(err)),
                  },
                )
              }
            />
          ) : (
            <Text fz="sm" c="dimmed">
              no tags found
            </Text>
          )}
        </Stack>
        <Stack gap={6} id="level">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600}>Engagement level</Text>
            <LevelBadge level={member.level} size="md" />
          </Group>
          {member.level ? (
            <Text fz="xs" c="dimmed">
              {LEVEL_RULES[member.level]}
              {/* A first level dates from when Flywheel first looked, not from when it began. */}
              {member.level_since && (member.level_history?.length ?? 0) > 1
                ? ` · since ${formatDate(member.level_since)}`
                : ''}
            </Text>
          ) : (
            <Text fz="xs" c="dimmed">
              Levels are computed within a minute of the history import's end, then each hour.
            </Text>
          )}
          {member.level_history && member.level_history.length > 1 ? (
            <List size="xs" spacing={2} aria-label="Level history">
              {member.level_history.slice(0, 6).map((h) => (
                <List.Item key={`${h.day}-${h.to}`}>
                  <Text fz="xs" span>
                    {formatDate(h.day)}:{' '}
                    {h.from
                      ? `${LEVEL_LABELS[h.from]} → ${LEVEL_LABELS[h.to]}`
                      : `first seen as ${LEVEL_LABELS[h.to]}`}
                  </Text>
                </List.Item>
              ))}
            </List>
          ) : null}
        </Stack>
        <Stack gap={6}>
          <Text fw={600}>Channels</Text>
          <Group gap={4}>
            {member.channels.map((c) => (
              <Badge key={c.channel_id} variant="outline" tt="none">
                #{c.channel_name}
              </Badge>
            ))}
            {member.channels.length === 0 ? (
              <Text fz="sm" c="dimmed">
                No channels
              </Text>
            ) : null}
          </Group>
        </Stack>
        <Divider />
        <SimpleGrid cols={2} spacing="xs">
          <Stack gap={0}>
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              Date of join
            </Text>
            {join.why ? (
              <Tooltip label={join.why} multiline w={260} withArrow>
                <Text
                  fz="sm"
                  tabIndex={0}
                  aria-label={`${join.text}. ${join.why}`}
                  style={{ cursor: 'help' }}
                >
                  {join.text}
                  <IconInfoCircle size={13} style={{ marginLeft: 4, verticalAlign: -2 }} aria-hidden />
                </Text>
              </Tooltip>
            ) : (
              <Text fz="sm">{join.text}</Text>
            )}
          </Stack>
          <Stack gap={0}>
            <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
              Last active
            </Text>
            <Text fz="sm">{member.last_active ? date(member.last_active) : 'Not Active'}</Text>
          </Stack>
        </SimpleGrid>
        <SimpleGrid cols={2} spacing="xs">
          <Stat label="Total activity" value={member.activity} />
          <Stat label="Messages" value={member.messages} />
          <Stat label="Replies" value={member.replies} />
          <Stat label="Reactions" value={member.reactions} />
        </SimpleGrid>
      </Stack>
      <CreateTagModal opened={adding} onClose={() => setAdding(false)} memberId={member.member_id} />
    </Card>
  );
}
