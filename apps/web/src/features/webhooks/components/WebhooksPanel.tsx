import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  CopyButton,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEventType,
  type WebhookSubscription,
} from '@flywheel/shared/webhooks';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useReplayDelivery,
  useSetWebhookEnabled,
  useWebhookDeliveries,
  useWebhooks,
} from '../api/webhooks.ts';

const STATUS_COLOR: Record<WebhookDelivery['status'], string> = {
  pending: 'yellow.9',
  delivered: 'teal.9',
  failed: 'red.9',
};

/** Create: a URL and the event types; the answer's secret is shown once, with a copy button. */
function CreateWebhook() {
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  const submit = () => {
    setError(null);
    if (!url.trim()) return setError('url is required');
    if (events.length === 0) return setError('events must name at least one event type');
    create.mutate(
      { url: url.trim(), events },
      {
        onSuccess: (res) => {
          setSecret(res.data.secret);
          setUrl('');
          setEvents([]);
        },
        onError: (err) => setError(errorMessage(err)),
      },
    );
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="webhook-create-title">
      <Title order={2} fz="lg" id="webhook-create-title" mb="sm">
        Add a webhook
      </Title>
      <Stack gap="sm">
        <TextInput
          label="Target URL"
          description="https, on a public address"
          placeholder="https://example.com/flywheel-hook"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={error?.startsWith('url') ? error : undefined}
        />
        <Checkbox.Group
          label="Events"
          value={events}
          onChange={(v) => setEvents(v as WebhookEventType[])}
          error={error?.startsWith('events') ? error : undefined}
        >
          <Stack gap={6} mt={6}>
            {WEBHOOK_EVENT_TYPES.map((t) => (
              <Checkbox key={t} value={t} label={`${t}: ${WEBHOOK_EVENT_LABELS[t]}`} />
            ))}
          </Stack>
        </Checkbox.Group>
        {error && !error.startsWith('url') && !error.startsWith('events') ? (
          <Text c="red.8" fz="sm" role="alert">
            {error}
          </Text>
        ) : null}
        <Group>
          <Button onClick={submit} loading={create.isPending}>
            Create webhook
          </Button>
        </Group>
      </Stack>
      <LazyModal opened={secret !== null} onClose={() => setSecret(null)} title="Signing secret" size="md">
        <Stack gap="sm">
          <Alert color="yellow" variant="light">
            Copy this secret now: it is shown only this once. Your receiver checks each delivery&apos;s
            signature with it.
          </Alert>
          <Code block data-testid="webhook-secret">
            {secret ?? ''}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={secret ?? ''}>
              {({ copied, copy }) => (
                <Button variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy secret'}
                </Button>
              )}
            </CopyButton>
            <Button onClick={() => setSecret(null)}>Done</Button>
          </Group>
        </Stack>
      </LazyModal>
    </Card>
  );
}

/** One subscription's delivery log, newest first, with Replay. */
function DeliveryLog({ webhook }: { webhook: WebhookSubscription }) {
  const log = useWebhookDeliveries(webhook.id);
  useErrorToast(log);
  const replay = useReplayDelivery(webhook.id);
  const rows = log.data ?? [];
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={3} fz="md">
          Deliveries
        </Title>
        <Button variant="subtle" size="xs" onClick={() => void log.refetch()} loading={log.isFetching}>
          Refresh
        </Button>
      </Group>
      {log.isSuccess && rows.length === 0 ? (
        <Text c="dimmed" fz="sm">
          No deliveries yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table aria-label={`Deliveries of ${webhook.url}`} striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Event</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Attempts</Table.Th>
                <Table.Th>Response</Table.Th>
                <Table.Th>Last error</Table.Th>
                <Table.Th>Queued</Table.Th>
                <Table.Th>Time</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>
                    <Text fz="sm">{d.type}</Text>
                    <Text fz="xs" c="dimmed">
                      {d.event_id}
                      {d.replay_of ? ` (replay of #${d.replay_of})` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="outline" color={STATUS_COLOR[d.status]} radius="sm" tt="none">
                      {d.status}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{d.attempts}</Table.Td>
                  <Table.Td>{d.response_code ?? '-'}</Table.Td>
                  <Table.Td>
                    <Text fz="sm" lineClamp={2}>
                      {d.last_error ?? '-'}
                    </Text>
                  </Table.Td>
                  <Table.Td>{formatDateTime(d.created_at)}</Table.Td>
                  <Table.Td>{d.duration_ms === null ? '-' : `${d.duration_ms} ms`}</Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      aria-label={`Replay delivery ${d.id}`}
                      loading={replay.isPending && replay.variables === d.id}
                      onClick={() =>
                        replay.mutate(d.id, {
                          onSuccess: () => {
                            notifySuccess('Delivery queued again');
                            void log.refetch();
                          },
                          onError: (err) => notifyFailure(errorMessage(err)),
                        })
                      }
                    >
                      Replay
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}

/**
 * Outbound webhooks of the current workspace (docs/webhooks.md): the subscriptions (URL, events, paused or
 * active, pending and recently failed deliveries), create with the secret shown once, pause/resume, delete with
 * a confirmation, and each one's delivery log with Replay.
 */
export function WebhooksPanel() {
  const list = useWebhooks();
  useErrorToast(list);
  const setEnabled = useSetWebhookEnabled();
  const remove = useDeleteWebhook();
  const [deleting, setDeleting] = useState<WebhookSubscription | null>(null);
  const [logOf, setLogOf] = useState<number | null>(null);
  const rows = list.data ?? [];
  const shown = rows.find((w) => w.id === logOf) ?? null;

  const toggle = (w: WebhookSubscription) =>
    setEnabled.mutate(
      { id: w.id, enabled: !w.enabled },
      {
        onSuccess: (res) => notifySuccess(res.data.enabled ? 'Webhook resumed' : 'Webhook paused'),
        onError: (err) => notifyFailure(errorMessage(err)),
      },
    );

  const confirmDelete = () => {
    if (!deleting) return;
    remove.mutate(deleting.id, {
      onSuccess: () => {
        notifySuccess('Webhook deleted');
        if (logOf === deleting.id) setLogOf(null);
        setDeleting(null);
      },
      onError: (err) => notifyFailure(errorMessage(err)),
    });
  };

  return (
    <Stack gap="lg">
      <Card withBorder padding="lg" component="section" aria-labelledby="webhooks-list-title">
        <Title order={2} fz="lg" id="webhooks-list-title" mb="sm">
          Subscriptions
        </Title>
        {list.isSuccess && rows.length === 0 ? (
          <Text c="dimmed" fz="sm">
            No webhooks yet: add one below to tell another system when members join, forms come back and more.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={720}>
            <Table aria-label="Webhooks">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>URL</Table.Th>
                  <Table.Th>Events</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th>Queue</Table.Th>
                  <Table.Th>Actions</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((w) => (
                  <Table.Tr key={w.id}>
                    <Table.Td style={{ wordBreak: 'break-all' }}>{w.url}</Table.Td>
                    <Table.Td>
                      <Text fz="sm">{w.events.join(', ')}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Badge variant="outline" color={w.enabled ? 'teal.9' : 'gray.7'} radius="sm" tt="none">
                        {w.enabled ? 'Active' : 'Paused'}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Text fz="sm">
                        {`${w.pending} pending`}
                        {w.failed_recently > 0 ? `, ${w.failed_recently} failed today` : ''}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="xs"
                          variant="default"
                          aria-label={`${w.enabled ? 'Pause' : 'Resume'} ${w.url}`}
                          onClick={() => toggle(w)}
                        >
                          {w.enabled ? 'Pause' : 'Resume'}
                        </Button>
                        <Button
                          size="xs"
                          variant="light"
                          aria-label={`Deliveries of ${w.url}`}
                          aria-pressed={logOf === w.id}
                          onClick={() => setLogOf(logOf === w.id ? null : w.id)}
                        >
                          Deliveries
                        </Button>
                        <Button
                          size="xs"
                          color="red"
                          variant="light"
                          aria-label={`Delete ${w.url}`}
                          onClick={() => setDeleting(w)}
                        >
                          Delete
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {shown ? (
          <Stack mt="md">
            <DeliveryLog webhook={shown} />
          </Stack>
        ) : null}
      </Card>
      <CreateWebhook />
      <LazyModal
        opened={deleting !== null}
        onClose={() => setDeleting(null)}
        title="Delete webhook"
        size="sm"
      >
        <Text fz="sm">
          {`Delete the webhook to ${deleting?.url ?? ''}? Deliveries it has not made are dropped, with its log.`}
        </Text>
        <Group justify="flex-end" mt="lg">
          <Button variant="default" onClick={() => setDeleting(null)} disabled={remove.isPending}>
            Cancel
          </Button>
          <Button color="red" onClick={confirmDelete} loading={remove.isPending}>
            Delete
          </Button>
        </Group>
      </LazyModal>
    </Stack>
  );
}
