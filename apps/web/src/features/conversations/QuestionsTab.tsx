import { useEffect, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Center,
  Group,
  Loader,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import {
  IconChecks,
  IconExternalLink,
  IconMessageReply,
  IconSearch,
  IconThumbUp,
  IconWand,
} from '@tabler/icons-react';
import {
  DEFAULT_ANSWER_AFTER_MINUTES,
  DEFAULT_QUESTION_AGE_DAYS,
  type Question,
} from '@flywheel/shared/questions';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { SlackText } from '../../components/SlackText.tsx';
import { ActGate } from '../../components/ActGate.tsx';
import { useMarkHandled, useQuestions, useReact, useRefreshConversations, type ThreadRef } from './api.ts';
import { ChannelSelect } from './ChannelSelect.tsx';
import { formatWhen } from './format.ts';
import type { ConversationSlots } from './slots.ts';
import { SummaryModal } from './SummaryModal.tsx';

const AGES = [
  { value: '1', label: 'Last 24 hours' },
  { value: '7', label: 'Last 7 days' },
  { value: '30', label: 'Last 30 days' },
  { value: '90', label: 'Last 90 days' },
];

/** How long a question waits for an answer before it is listed (default 2 hours). */
const WAITS = [
  { value: '0', label: 'Any time' },
  { value: '30', label: '30 minutes' },
  { value: '120', label: '2 hours' },
  { value: '1440', label: '24 hours' },
];

/**
 * Questions: members' questions in channels that nobody else has answered (no reply in the thread, no
 * reaction) two hours after they were asked; the rule is in docs/product/questions.md. Reply, react,
 * summarise, open in Slack or mark handled from each card; the list asks the server again every 30 seconds.
 */
export function QuestionsTab({ slots }: { slots: ConversationSlots }) {
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [channelId, setChannelId] = useState<string | null>(null);
  const [age, setAge] = useState(String(DEFAULT_QUESTION_AGE_DAYS));
  const [wait, setWait] = useState(String(DEFAULT_ANSWER_AFTER_MINUTES));
  const [summary, setSummary] = useState<ThreadRef | null>(null);
  useEffect(() => {
    const t = setTimeout(() => setQ(typed.trim()), 400);
    return () => clearTimeout(t);
  }, [typed]);
  const questions = useQuestions({
    channelId,
    maxAgeDays: Number(age),
    answerAfterMinutes: Number(wait),
    q,
  });
  const rows = questions.data?.pages.flatMap((p) => p.data) ?? [];
  const total = questions.data?.pages[0]?.total;

  return (
    <Card withBorder radius="md" padding="lg">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
          <div>
            <Title order={2} fz="lg">
              Unanswered questions
            </Title>
            <Text fz="sm" c="dimmed">
              Members&apos; questions in your channels that nobody else has replied to or reacted to yet
              (after 2 hours unless you choose otherwise).
            </Text>
          </div>
          {total !== undefined ? (
            <Badge size="lg" variant="light" color="blue" aria-live="polite">
              {total} unanswered
            </Badge>
          ) : null}
        </Group>
        <Group gap="sm" wrap="wrap">
          <TextInput
            aria-label="Search questions"
            placeholder="Search questions"
            leftSection={<IconSearch size={16} />}
            value={typed}
            onChange={(e) => setTyped(e.currentTarget.value)}
            w={240}
          />
          <ChannelSelect value={channelId} onChange={setChannelId} />
          <Select
            aria-label="Asked in"
            data={AGES}
            value={age}
            onChange={(v) => v && setAge(v)}
            allowDeselect={false}
            w={170}
          />
          <Select
            aria-label="Unanswered for"
            data={WAITS}
            value={wait}
            onChange={(v) => v && setWait(v)}
            allowDeselect={false}
            w={200}
          />
        </Group>
        {questions.isPending ? (
          <Center py="xl">
            <Loader role="status" aria-label="Loading questions" />
          </Center>
        ) : questions.isError ? (
          <Alert color="red" title="Questions could not be loaded">
            {errorMessage(questions.error)}
          </Alert>
        ) : rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="xl">
            {q || channelId ? 'No unanswered questions match' : 'Every question has an answer'}
          </Text>
        ) : (
          <Stack gap="sm">
            {rows.map((question) => (
              <QuestionCard
                key={`${question.channel_id}-${question.ts}`}
                question={question}
                slots={slots}
                onSummarize={setSummary}
              />
            ))}
            {questions.hasNextPage ? (
              <Group justify="center">
                <Button
                  variant="default"
                  loading={questions.isFetchingNextPage}
                  onClick={() => void questions.fetchNextPage()}
                >
                  Load older questions
                </Button>
              </Group>
            ) : null}
          </Stack>
        )}
      </Stack>
      <SummaryModal thread={summary} onClose={() => setSummary(null)} />
    </Card>
  );
}

function QuestionCard({
  question: m,
  slots,
  onSummarize,
}: {
  question: Question;
  slots: ConversationSlots;
  onSummarize(t: ThreadRef): void;
}) {
  const { teamId } = useCurrentTeam();
  const react = useReact();
  const handled = useMarkHandled();
  const refresh = useRefreshConversations();
  const [replying, setReplying] = useState(false);
  const who = `${m.sender}'s question`;
  return (
    <Card withBorder radius="md" padding="md" data-testid="question-card">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600} fz="sm">
              {m.sender}
            </Text>
            <Text fz="xs" c="dimmed">
              #{m.channel_name} · {formatWhen(m.posted_at)}
            </Text>
          </Group>
          <SlackText text={m.content} />
        </Stack>
        <Group gap={4} wrap="nowrap">
          {slots.Reply ? (
            <Tooltip label="Reply">
              <ActionIcon variant="light" aria-label={`Reply to ${who}`} onClick={() => setReplying(true)}>
                <IconMessageReply size={16} />
              </ActionIcon>
            </Tooltip>
          ) : null}
          <Tooltip label="React with :thumbsup:">
            <ActionIcon
              variant="subtle"
              aria-label={`React to ${who}`}
              loading={react.isPending}
              onClick={() =>
                react.mutate(
                  { team_id: teamId, channel_id: m.channel_id, ts: m.ts, name: 'thumbsup', sender: 'bot' },
                  {
                    onSuccess: (r) => notifySuccess(r.message),
                    onError: (e) => notifyFailure(errorMessage(e)),
                  },
                )
              }
            >
              <IconThumbUp size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Summarize the thread">
            <ActionIcon
              variant="subtle"
              aria-label={`Summarize the thread of ${who}`}
              onClick={() => onSummarize({ channelId: m.channel_id, ts: m.ts })}
            >
              <IconWand size={16} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Open in Slack">
            <Anchor
              href={m.permalink}
              target="_blank"
              rel="noreferrer"
              aria-label={`Open ${who} in Slack`}
              px={4}
            >
              <IconExternalLink size={16} />
            </Anchor>
          </Tooltip>
          <ActGate>
            {(viewer) => (
              <Button
                disabled={viewer}
                size="xs"
                variant="default"
                leftSection={<IconChecks size={14} />}
                loading={handled.isPending}
                aria-label={`Mark handled: ${who}`}
                onClick={() =>
                  handled.mutate(
                    { team_id: teamId, channel_id: m.channel_id, ts: m.ts },
                    {
                      onSuccess: (r) => notifySuccess(r.message),
                      onError: (e) => notifyFailure(errorMessage(e)),
                    },
                  )
                }
              >
                Mark handled
              </Button>
            )}
          </ActGate>
        </Group>
      </Group>
      {slots.Reply ? (
        <slots.Reply
          opened={replying}
          onClose={() => setReplying(false)}
          channelId={m.channel_id}
          ts={m.ts}
          channelName={m.channel_name}
          onSent={() => void refresh()}
        />
      ) : null}
    </Card>
  );
}
