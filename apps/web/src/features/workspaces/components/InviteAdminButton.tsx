import { useState } from 'react';
import { ActionIcon, Button, Group, Select, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { useMutation } from '@tanstack/react-query';
import { IconUserPlus } from '@tabler/icons-react';
import type { InviteAdminRequest, InviteAdminResponse } from '@flywheel/shared/invitations';
import type { Role } from '@flywheel/shared/roles';
import { inviteAdmin as inviteAdminEndpoint } from '@flywheel/shared/endpoints/workspaces';
import { errorMessage } from '../../../lib/api-client.ts';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { notifySuccess } from '../../../lib/notify.tsx';

/** POST /workspaces/inviteadmin */
function inviteAdmin(body: InviteAdminRequest): Promise<InviteAdminResponse> {
  return callEndpoint(inviteAdminEndpoint, { body });
}

type InviteAdminButtonProps = {
  teamId: string;
  workspaceName: string;
  /** 'icon' (the top bar's) or a labelled button (Settings → Team). */
  variant?: 'icon' | 'button';
  onInvited?(): void;
};

/** The roles an invitation can give, with what each may do. */
export const ROLE_OPTIONS: { value: Role; label: string }[] = [
  { value: 'owner', label: 'Owner: manages admins, roles and API keys, and acts' },
  { value: 'editor', label: 'Editor: sends, schedules, creates forms, polls, workflows, buckets, tags' },
  { value: 'viewer', label: 'Viewer: reads dashboards and exports, acts on nothing' },
];

/**
 * Top bar 'Invite an admin': another person becomes an admin of this workspace in Flywheel when they log in
 * (or sign up) with the invited e-mail address. Only Slack admins can join by installing; this is how
 * everyone else is let in, by someone who already is.
 */
export function InviteAdminButton({
  teamId,
  workspaceName,
  variant = 'icon',
  onInvited,
}: InviteAdminButtonProps) {
  const [opened, setOpened] = useState(false);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('editor');
  const invite = useMutation({
    mutationFn: inviteAdmin,
    onSuccess: (res) => {
      notifySuccess(res.message, 'Invitation sent');
      setOpened(false);
      setEmail('');
      setRole('editor');
      onInvited?.();
    },
  });
  const close = () => {
    setOpened(false);
    invite.reset();
  };
  return (
    <>
      {variant === 'button' ? (
        <Button leftSection={<IconUserPlus size={16} />} onClick={() => setOpened(true)}>
          Invite an admin
        </Button>
      ) : (
        <Tooltip label="Invite an admin" withArrow openDelay={400}>
          <ActionIcon
            variant="light"
            size="lg"
            radius="md"
            aria-label="Invite an admin"
            onClick={() => setOpened(true)}
          >
            <IconUserPlus size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      <LazyModal opened={opened} onClose={close} title={`Invite an admin to ${workspaceName}`}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            invite.mutate({ team_id: teamId, email: email.trim(), role });
          }}
        >
          <Stack>
            <Text fz="sm" c="dimmed">
              They become an admin of {workspaceName} here, with this role, when they log in, or sign up, with
              this address.
            </Text>
            <TextInput
              label="Email"
              type="email"
              placeholder="colleague@company.com"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={invite.isError ? errorMessage(invite.error) : null}
              data-autofocus
            />
            <Select
              label="Role"
              data={ROLE_OPTIONS}
              value={role}
              onChange={(v) => v && setRole(v as Role)}
              allowDeselect={false}
              comboboxProps={{ withinPortal: true }}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={invite.isPending} disabled={!email.trim()}>
                Send invitation
              </Button>
            </Group>
          </Stack>
        </form>
      </LazyModal>
    </>
  );
}
