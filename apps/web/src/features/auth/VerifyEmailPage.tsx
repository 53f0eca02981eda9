import { useState, type ReactNode } from 'react';
import { Alert, Button, Loader, Stack, Text, TextInput, ThemeIcon, Group } from '@mantine/core';
import { IconCircleCheck, IconMail } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useResendVerification } from './api/resend-verification.ts';
import { verifyEmailQuery } from './api/verify-email.ts';
import { AuthLayout } from './components/AuthLayout.tsx';

function ResendForm() {
  const [email, setEmail] = useState('');
  const resend = useResendVerification();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (!email.trim()) return;
        resend.mutate(email.trim(), {
          onSuccess: (res) => notifySuccess(res.message),
          onError: (err) => notifyFailure(errorMessage(err), 'Attention'),
        });
      }}
      noValidate
    >
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          Need a fresh link? Enter your email and we will send a new one.
        </Text>
        <Group align="flex-end" gap="sm" wrap="nowrap">
          <TextInput
            label="Email"
            placeholder="you@company.com"
            type="email"
            leftSection={<IconMail size={18} />}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" size="md" variant="light" loading={resend.isPending} disabled={!email.trim()}>
            Resend
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Opened from the e-mailed link /auth/verify-email?token=...: verifies on load and shows the result. */
export function VerifyEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const verify = useQuery({ ...verifyEmailQuery(token), enabled: token !== '' });

  let body: ReactNode;
  if (!token) {
    body = (
      <Alert color="red" variant="light" radius="md" title="This link is incomplete">
        The verification link is missing its code. Open the link from your email again.
      </Alert>
    );
  } else if (verify.isPending) {
    body = (
      <Group gap="sm" role="status">
        <Loader size="sm" />
        <Text>Verifying your email…</Text>
      </Group>
    );
  } else if (verify.isError) {
    body = (
      <Alert color="red" variant="light" radius="md" title="We could not verify your email">
        {errorMessage(verify.error)}
      </Alert>
    );
  } else {
    body = (
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={44} radius="xl" color="teal" variant="light">
          <IconCircleCheck size={26} />
        </ThemeIcon>
        <Text mt={10}>{verify.data.message}</Text>
      </Group>
    );
  }

  return (
    <AuthLayout title="Email verification" subtitle="Confirming the address you signed up with.">
      <Stack gap="xl">
        {body}
        <Button component={Link} to="/auth/login" size="md" fullWidth>
          Go to log in
        </Button>
        {!token || verify.isError ? <ResendForm /> : null}
      </Stack>
    </AuthLayout>
  );
}
