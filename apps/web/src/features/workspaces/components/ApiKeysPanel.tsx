import { useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Code,
  CopyButton,
  Group,
  Radio,
  Stack,
  Table,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy, IconKey, IconTrash } from '@tabler/icons-react';
import { API_KEY_RATE, type ApiKey, type ApiKeyScope } from '@flywheel/shared/roles';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal.tsx';
import { ErrorView } from '../../../components/ErrorView.tsx';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { PageSkeleton } from '../../../components/PageSkeleton.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDate, formatDateTime } from '../../../lib/format-date.ts';
import { notifyFailure } from '../../../lib/notify.tsx';
import { useIsOwner } from '../../../lib/role.ts';
import { currentWorkspace, useSession } from '../../../lib/session.ts';
import { useApiKeys, useCreateApiKey, useRevokeApiKey } from '../api/team.ts';

const SCOPE_TEXT: Record<ApiKeyScope, string> = {
  read: 'Read: dashboards, lists and exports',
  act: 'Read and act: also sends, schedules, forms, polls, workflows, buckets, tags',
};

/** The create dialog: name and scope, then the key, shown once with a copy button. */
function CreateKeyModal({ teamId, opened, onClose }: { teamId: string; opened: boolean; onClose(): void }) {
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiKeyScope>('read');
  const create = useCreateApiKey();
  const secret = create.data?.secret;
  const close = () => {
    setName('');
    setScope('read');
    create.reset();
    onClose();
  };
  return (
    <LazyModal opened={opened} onClose={close} title={secret ? 'Your new API key' : 'Create an API key'}>
      {secret ? (
        <Stack>
          <Alert color="yellow" title="Copy it now: you won't see it again">
            Flywheel keeps only a fingerprint of the key. If you lose it, revoke it and create another.
          </Alert>
          <Group gap="xs" wrap="nowrap" align="center">
            <Code block style={{ flex: 1, wordBreak: 'break-all' }} aria-label="The new API key">
              {secret}
            </Code>
            <CopyButton value={secret}>
              {({ copied, copy }) => (
                <Button
                  variant="light"
                  leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                  onClick={copy}
                >
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
          <Text fz="sm" c="dimmed">
            Send it as <Code>Authorization: Bearer {secret.slice(0, 8)}…</Code> to this workspace&apos;s API
            (see /api/docs).
          </Text>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            create.mutate({ team_id: teamId, name: name.trim(), scope });
          }}
        >
          <Stack>
            <TextInput
              label="Name"
              description="What it is for, e.g. 'Weekly report' or 'Zapier'"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={80}
              error={create.isError ? errorMessage(create.error) : null}
              data-autofocus
            />
            <Radio.Group label="Scope" value={scope} onChange={(v) => setScope(v as ApiKeyScope)}>
              <Stack gap="xs" mt="xs">
                <Radio value="read" label={SCOPE_TEXT.read} />
                <Radio value="act" label={SCOPE_TEXT.act} />
              </Stack>
            </Radio.Group>
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending} disabled={!name.trim()}>
                Create key
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </LazyModal>
  );
}

/** Settings → API keys: the workspace's keys; an Owner creates and revokes them. */
export function ApiKeysPanel() {
  const teamId = currentWorkspace(useSession())?.team_id ?? '';
  const owner = useIsOwner();
  const keys = useApiKeys(teamId);
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  if (keys.isPending) return <PageSkeleton />;
  if (keys.isError) return <ErrorView error={keys.error} />;

  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="api-keys-title">
      <Group justify="space-between" mb="sm" wrap="wrap">
        <div>
          <Text fw={600} fz="lg" component="h2" id="api-keys-title" m={0}>
            API keys
          </Text>
          <Text fz="sm" c="dimmed">
            Keys call this workspace&apos;s API on behalf of the Owner who created them, within their scope (
            {API_KEY_RATE.burst} requests at once, then {API_KEY_RATE.perSecond} a second).
            {owner ? '' : ' Only an Owner can create or revoke keys.'}
          </Text>
        </div>
        {owner ? (
          <Button leftSection={<IconKey size={16} />} onClick={() => setCreating(true)}>
            Create API key
          </Button>
        ) : null}
      </Group>
      {keys.data.data.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No API keys yet.
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Scope</Table.Th>
                <Table.Th>Created by</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                {owner ? <Table.Th aria-label="Revoke" /> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.data.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>{k.name}</Table.Td>
                  <Table.Td>
                    <Code>{k.prefix}…</Code>
                  </Table.Td>
                  <Table.Td>{k.scope === 'act' ? 'Read and act' : 'Read'}</Table.Td>
                  <Table.Td>{k.created_by ?? '—'}</Table.Td>
                  <Table.Td>{formatDate(k.created_at)}</Table.Td>
                  <Table.Td>{k.last_used_at ? formatDateTime(k.last_used_at) : 'Never'}</Table.Td>
                  {owner ? (
                    <Table.Td>
                      <Tooltip label="Revoke" withArrow>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Revoke ${k.name}`}
                          onClick={() => setRevoking(k)}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  ) : null}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <CreateKeyModal teamId={teamId} opened={creating} onClose={() => setCreating(false)} />
      <ConfirmDeleteModal
        opened={revoking !== null}
        title="Revoke API key?"
        what={`The key "${revoking?.name ?? ''}" will stop working at once.`}
        consequences={['Anything that uses it gets 401 from then on. This cannot be undone.']}
        confirmLabel="Revoke"
        busy={revoke.isPending}
        onCancel={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          revoke.mutate(
            { team_id: teamId, id: revoking.id },
            { onSuccess: () => setRevoking(null), onError: (err) => notifyFailure(errorMessage(err)) },
          )
        }
      />
    </Card>
  );
}
