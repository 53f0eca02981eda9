import { useState } from 'react';
import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { useMutation } from '@tanstack/react-query';
import { IconUserPlus } from '@tabler/icons-react';
import type { InviteAdminRequest, InviteAdminResponse } from '@flywheel/shared/invitations';
import { apiRequest, errorMessage } from '../../../lib/api-client.ts';
import { notifySuccess } from '../../../lib/notify.tsx';

/** POST /workspaces/inviteadmin */
function inviteAdmin(body: InviteAdminRequest): Promise<InviteAdminResponse> {
  return apiRequest<InviteAdminResponse>('/workspaces/inviteadmin', { body });
}

type InviteAdminButtonProps = { teamId: string; workspaceName: string };

/**
 * Top bar 'Invite an admin': another person becomes an admin of this workspace in Flywheel when they log in
 * (or sign up) with the invited e-mail address. Only Slack admins can join by installing; this is how
 * everyone else is let in, by someone who already is.
 */
export function InviteAdminButton({ teamId, workspaceName }: InviteAdminButtonProps) {
  const [opened, setOpened] = useState(false);
  const [email, setEmail] = useState('');
  const invite = useMutation({
    mutationFn: inviteAdmin,
    onSuccess: (res) => {
      notifySuccess(res.message, 'Invitation sent');
      setOpened(false);
      setEmail('');
    },
  });
  const close = () => {
    setOpened(false);
    invite.reset();
  };
  return (
    <>
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
      <LazyModal opened={opened} onClose={close} title={`Invite an admin to ${workspaceName}`}>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            invite.mutate({ team_id: teamId, email: email.trim() });
          }}
        >
          <Stack>
            <Text fz="sm" c="dimmed">
              They become an admin of {workspaceName} here when they log in, or sign up, with this address.
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
