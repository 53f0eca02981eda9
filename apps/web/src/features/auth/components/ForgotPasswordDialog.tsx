import { useEffect, useState, type FormEvent } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { IconMail } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../../lib/notify.tsx';
import { useRequestPasswordReset } from '../api/request-password-reset.ts';

type ForgotPasswordDialogProps = {
  opened: boolean;
  onClose: () => void;
  /** Pre-fills the email with what the login form already holds. */
  initialEmail: string;
};

/** The reset-password dialog of the login page: Submit is disabled in flight; closes on success. */
export function ForgotPasswordDialog({ opened, onClose, initialEmail }: ForgotPasswordDialogProps) {
  const [email, setEmail] = useState(initialEmail);
  const [error, setError] = useState<string | null>(null);
  const request = useRequestPasswordReset();

  useEffect(() => {
    if (opened) {
      setEmail(initialEmail);
      setError(null);
    }
  }, [opened, initialEmail]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (request.isPending) return;
    if (!email.trim()) {
      setError('Email is required');
      return;
    }
    request.mutate(email.trim(), {
      onSuccess: (res) => {
        notifySuccess(res.message);
        onClose();
      },
      onError: (err) => notifyFailure(errorMessage(err), 'Attention'),
    });
  };

  return (
    <LazyModal
      opened={opened}
      onClose={onClose}
      title="Reset your password"
      centered
      radius="lg"
      padding="xl"
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            Enter the email you signed up with. We&apos;ll send you a link to choose a new password.
          </Text>
          <TextInput
            label="Email"
            placeholder="you@company.com"
            type="email"
            autoComplete="email"
            leftSection={<IconMail size={18} />}
            value={email}
            onChange={(e) => {
              setEmail(e.currentTarget.value);
              setError(null);
            }}
            error={error}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={request.isPending} disabled={request.isPending}>
              Submit
            </Button>
          </Group>
        </Stack>
      </form>
    </LazyModal>
  );
}
