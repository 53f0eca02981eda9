import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { LazyModal } from '../../components/LazyModal.tsx';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { CONVERSATION_TEXTS, SUMMARY_COPIED_MS } from '@flywheel/shared/conversations';
import { errorMessage } from '../../lib/api-client.ts';
import { useCurrentTeam } from '../../entities/workspace/index.ts';
import { useSummarize, type ThreadRef } from './api.ts';

/** Thread Summary popup: the summary, 'Copy Summary', 'Summary copied' for 3 s. */
export function SummaryModal({ thread, onClose }: { thread: ThreadRef | null; onClose(): void }) {
  return (
    <LazyModal opened={thread !== null} onClose={onClose} title="Thread Summary" size="lg">
      {thread ? <SummaryBody thread={thread} /> : null}
    </LazyModal>
  );
}

function SummaryBody({ thread }: { thread: ThreadRef }) {
  const { teamId } = useCurrentTeam();
  const summarize = useSummarize();
  const [copied, setCopied] = useState(false);
  const { mutate } = summarize;
  useEffect(() => {
    mutate({ team_id: teamId, threadParentTs: thread.ts, channel_id: thread.channelId });
  }, [mutate, teamId, thread.ts, thread.channelId]);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), SUMMARY_COPIED_MS);
    return () => clearTimeout(t);
  }, [copied]);

  if (summarize.isError)
    return (
      <Alert color="red" title="The summary could not be made">
        {errorMessage(summarize.error)}
      </Alert>
    );
  const s = summarize.data;
  if (!s)
    return (
      <Group gap="sm" py="lg" justify="center">
        <Loader size="sm" role="status" aria-label="Summarizing the thread" />
        <Text c="dimmed">Summarizing the thread…</Text>
      </Group>
    );
  return (
    <Stack gap="md">
      <Group gap="xs">
        <Badge variant="light" color={s.kind === 'ai' ? 'blue' : 'gray'}>
          {s.kind === 'ai' ? `AI summary (${s.model})` : 'Extractive summary'}
        </Badge>
      </Group>
      <Text data-testid="thread-summary" style={{ whiteSpace: 'pre-wrap' }} fz="sm">
        {s.summary}
      </Text>
      <Group justify="flex-end" gap="sm">
        {copied ? (
          <Text fz="sm" c="teal" role="status">
            {CONVERSATION_TEXTS.summaryCopied}
          </Text>
        ) : null}
        <Button
          leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          onClick={() => void navigator.clipboard.writeText(s.summary).then(() => setCopied(true))}
        >
          {CONVERSATION_TEXTS.copySummary}
        </Button>
      </Group>
    </Stack>
  );
}
