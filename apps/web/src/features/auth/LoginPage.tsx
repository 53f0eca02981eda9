import { lazy, Suspense, useState } from 'react';
import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock, IconMail, IconMailForward } from '@tabler/icons-react';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { startSession } from '../../lib/session.ts';
import { useLogin } from './api/login.ts';
import { useResendVerification } from './api/resend-verification.ts';
import { AuthLayout } from './components/AuthLayout.tsx';
import { DemoNote } from './components/DemoNote.tsx';

// The dialog (Modal, focus trap, scroll lock) is fetched on first use, keeping the login page light.
const loadForgotDialog = () => import('./components/ForgotPasswordDialog.tsx');
const ForgotPasswordDialog = lazy(() =>
  loadForgotDialog().then((m) => ({ default: m.ForgotPasswordDialog })),
);

type LoginValues = { email: string; password: string; remember: boolean };

function initialEmail(state: unknown): string {
  if (state && typeof state === 'object' && 'email' in state && typeof state.email === 'string')
    return state.email;
  return '';
}

export function LoginPage() {
  const navigate = useNavigate();
  const location = useLocation();
  const [forgotOpen, setForgotOpen] = useState(false);
  const [forgotUsed, setForgotUsed] = useState(false);
  const [unverifiedEmail, setUnverifiedEmail] = useState<{ email: string; message: string } | null>(null);
  const login = useLogin();
  const resend = useResendVerification();

  const form = useForm<LoginValues>({
    initialValues: { email: initialEmail(location.state), password: '', remember: false },
    validate: {
      email: (v) => (v.trim() ? null : 'Email is required'),
      password: (v) => (v ? null : 'Password is required'),
    },
  });

  const submit = form.onSubmit((values) => {
    setUnverifiedEmail(null);
    login.mutate(
      { email: values.email.trim(), password: values.password, remember: values.remember },
      {
        onSuccess: (res) => {
          const session = startSession(res);
          notifySuccess('login successfull');
          navigate(session.workspace.length > 0 ? '/dashboard/home' : '/dashboard/createdashboard', {
            replace: true,
          });
        },
        onError: (err) => {
          if (isApiError(err) && err.code === 'EMAIL_NOT_VERIFIED') {
            setUnverifiedEmail({ email: values.email.trim(), message: err.message });
          }
          notifyFailure(errorMessage(err), 'Attention');
        },
      },
    );
  });

  const resendVerification = () => {
    if (!unverifiedEmail) return;
    resend.mutate(unverifiedEmail.email, {
      onSuccess: (res) => notifySuccess(res.message),
      onError: (err) => notifyFailure(errorMessage(err), 'Attention'),
    });
  };

  return (
    <AuthLayout title="Welcome back" subtitle="Log in to manage your Slack communities.">
      <DemoNote
        onUse={(email, password) => {
          form.setValues({ email, password });
          form.clearErrors();
        }}
      />
      {unverifiedEmail ? (
        <Alert variant="light" color="yellow" radius="md" mb="lg" title="Verify your email">
          <Stack gap="sm">
            <Text fz="sm">{unverifiedEmail.message}</Text>
            <Button
              size="xs"
              variant="white"
              color="yellow.9"
              w="fit-content"
              leftSection={<IconMailForward size={16} />}
              loading={resend.isPending}
              onClick={resendVerification}
            >
              Resend verification email
            </Button>
          </Stack>
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Email"
            placeholder="you@company.com"
            type="email"
            autoComplete="email"
            leftSection={<IconMail size={18} />}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label="Password"
            placeholder="Your password"
            autoComplete="current-password"
            leftSection={<IconLock size={18} />}
            {...form.getInputProps('password')}
          />
          <Group justify="space-between">
            <Checkbox label="Keep me signed in" {...form.getInputProps('remember', { type: 'checkbox' })} />
            <Anchor
              component="button"
              type="button"
              fz="sm"
              fw={500}
              onPointerEnter={() => void loadForgotDialog()}
              onFocus={() => void loadForgotDialog()}
              onClick={() => {
                setForgotUsed(true);
                setForgotOpen(true);
              }}
            >
              Forgot password?
            </Anchor>
          </Group>
          <Button type="submit" size="md" fullWidth mt="xs" loading={login.isPending}>
            Log in
          </Button>
        </Stack>
      </form>
      <Text ta="center" fz="sm" c="dimmed" mt="xl">
        Don&apos;t have an account?{' '}
        <Anchor component={Link} to="/auth/signup" fw={600} inherit>
          Sign up
        </Anchor>
      </Text>
      {forgotUsed ? (
        <Suspense fallback={null}>
          <ForgotPasswordDialog
            opened={forgotOpen}
            onClose={() => setForgotOpen(false)}
            initialEmail={form.values.email}
          />
        </Suspense>
      ) : null}
    </AuthLayout>
  );
}
