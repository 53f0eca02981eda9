import { useState } from 'react';
import { ActionIcon, Badge, Card, Group, Select, Stack, Table, Text, Tooltip } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { IconTrash, IconX } from '@tabler/icons-react';
import { ROLE_LABEL, type Role, type TeamAdmin, type TeamInvitation } from '@flywheel/shared/roles';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal.tsx';
import { ErrorView } from '../../../components/ErrorView.tsx';
import { PageSkeleton } from '../../../components/PageSkeleton.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { formatDate } from '../../../lib/format-date.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useIsOwner } from '../../../lib/role.ts';
import { currentWorkspace, useSession } from '../../../lib/session.ts';
import { InviteAdminButton } from './InviteAdminButton.tsx';
import { invalidateTeam, useRemoveAdmin, useRevokeInvitation, useSetRole, useTeam } from '../api/team.ts';

const ROLE_DATA = (['owner', 'editor', 'viewer'] as const).map((r) => ({ value: r, label: ROLE_LABEL[r] }));

/** Settings → Team: the admins with their roles and the pending invitations; an Owner changes them. */
export function TeamPanel() {
  const session = useSession();
  const workspace = currentWorkspace(session);
  const teamId = workspace?.team_id ?? '';
  const owner = useIsOwner();
  const team = useTeam(teamId);
  const client = useQueryClient();
  const setRole = useSetRole();
  const remove = useRemoveAdmin();
  const revoke = useRevokeInvitation();
  const [removing, setRemoving] = useState<TeamAdmin | null>(null);
  const [withdrawing, setWithdrawing] = useState<TeamInvitation | null>(null);

  if (team.isPending) return <PageSkeleton />;
  if (team.isError) return <ErrorView error={team.error} />;
  const failed = (err: unknown) => notifyFailure(errorMessage(err));

  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="team-admins-title">
        <Group justify="space-between" mb="sm" wrap="wrap">
          <div>
            <Text fw={600} fz="lg" component="h2" id="team-admins-title" m={0}>
              Admins
            </Text>
            <Text fz="sm" c="dimmed">
              {owner
                ? 'Owners manage admins, roles and API keys; Editors act; Viewers read.'
                : 'Only an Owner can change roles, remove admins or invite.'}
            </Text>
          </div>
          {owner && workspace ? (
            <InviteAdminButton
              teamId={teamId}
              workspaceName={workspace.workspace_name}
              variant="button"
              onInvited={() => void invalidateTeam(client, teamId)}
            />
          ) : null}
        </Group>
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Added</Table.Th>
                {owner ? <Table.Th aria-label="Remove" /> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {team.data.admins.map((a) => (
                <Table.Tr key={a.user_id}>
                  <Table.Td>
                    {a.username}
                    {a.user_id === session?.userid ? (
                      <Text span c="dimmed" fz="sm">
                        {' '}
                        (you)
                      </Text>
                    ) : null}
                  </Table.Td>
                  <Table.Td>{a.email}</Table.Td>
                  <Table.Td>
                    {owner ? (
                      <Select
                        aria-label={`Role of ${a.email}`}
                        data={ROLE_DATA}
                        value={a.role}
                        allowDeselect={false}
                        w={130}
                        disabled={setRole.isPending}
                        onChange={(v) =>
                          v &&
                          v !== a.role &&
                          setRole.mutate(
                            { team_id: teamId, user_id: a.user_id, role: v as Role },
                            {
                              onSuccess: () => notifySuccess(`${a.email} is now ${ROLE_LABEL[v as Role]}.`),
                              onError: failed,
                            },
                          )
                        }
                      />
                    ) : (
                      <Badge variant="light">{ROLE_LABEL[a.role]}</Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{formatDate(a.added_at)}</Table.Td>
                  {owner ? (
                    <Table.Td>
                      <Tooltip label="Remove from this workspace" withArrow>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Remove ${a.email}`}
                          onClick={() => setRemoving(a)}
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
      </Card>

      <Card withBorder radius="md" padding="lg" component="section" aria-labelledby="team-invitations-title">
        <Text fw={600} fz="lg" component="h2" id="team-invitations-title" m={0} mb="sm">
          Pending invitations
        </Text>
        {team.data.invitations.length === 0 ? (
          <Text fz="sm" c="dimmed">
            No pending invitations.
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Email</Table.Th>
                  <Table.Th>Role</Table.Th>
                  <Table.Th>Invited by</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  {owner ? <Table.Th aria-label="Withdraw" /> : null}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {team.data.invitations.map((i) => (
                  <Table.Tr key={i.email}>
                    <Table.Td>{i.email}</Table.Td>
                    <Table.Td>
                      <Badge variant="light">{ROLE_LABEL[i.role]}</Badge>
                    </Table.Td>
                    <Table.Td>{i.invited_by ?? '—'}</Table.Td>
                    <Table.Td>{formatDate(i.expires_at)}</Table.Td>
                    {owner ? (
                      <Table.Td>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={`Withdraw the invitation of ${i.email}`}
                          onClick={() => setWithdrawing(i)}
                        >
                          <IconX size={16} />
                        </ActionIcon>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Card>

      <ConfirmDeleteModal
        opened={removing !== null}
        title="Remove admin?"
        what={`${removing?.email ?? ''} will no longer administer ${workspace?.workspace_name ?? 'this workspace'} in Flywheel.`}
        consequences={['Their API keys stop working. Slack itself is not changed.']}
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { team_id: teamId, user_id: removing.user_id },
            { onSuccess: () => setRemoving(null), onError: failed },
          )
        }
      />
      <ConfirmDeleteModal
        opened={withdrawing !== null}
        title="Withdraw invitation?"
        what={`The invitation of ${withdrawing?.email ?? ''} will no longer work.`}
        confirmLabel="Withdraw"
        busy={revoke.isPending}
        onCancel={() => setWithdrawing(null)}
        onConfirm={() =>
          withdrawing &&
          revoke.mutate(
            { team_id: teamId, email: withdrawing.email },
            { onSuccess: () => setWithdrawing(null), onError: failed },
          )
        }
      />
    </Stack>
  );
}
