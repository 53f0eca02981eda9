import { Alert, Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock } from '@tabler/icons-react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PASSWORD_MAX, PASSWORD_MIN } from '@flywheel/shared/auth';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useResetPassword } from './api/reset-password.ts';
import { AuthLayout } from './components/AuthLayout.tsx';

type ResetValues = { password: string; confirm: string };

/** Opened from the e-mailed link /auth/reset-password?token=...: sets a new password, then to login. */
export function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const reset = useResetPassword();
  const form = useForm<ResetValues>({
    initialValues: { password: '', confirm: '' },
    validate: {
      password: (v) =>
        v.length < PASSWORD_MIN
          ? `Password must be at least ${PASSWORD_MIN} characters`
          : v.length > PASSWORD_MAX
            ? `Password must be at most ${PASSWORD_MAX} characters`
            : null,
      confirm: (v, values) => (v === values.password ? null : 'Passwords do not match'),
    },
  });

  const linkInvalid = !token || (isApiError(reset.error) && reset.error.code === 'RESET_TOKEN_INVALID');

  const submit = form.onSubmit((values) => {
    reset.mutate(
      { token, password: values.password },
      {
        onSuccess: (res) => {
          notifySuccess(res.message);
          navigate('/auth/login', { replace: true });
        },
        onError: (err) => {
          // A weak password: the reason stays under the field, where the next choice is made.
          if (isApiError(err) && err.code === 'WEAK_PASSWORD') form.setFieldError('password', err.message);
          notifyFailure(errorMessage(err), 'Attention');
        },
      },
    );
  });

  return (
    <AuthLayout title="Set a new password" subtitle="Choose a new password for your Flywheel account.">
      {linkInvalid ? (
        <Alert color="red" variant="light" radius="md" mb="lg" title="This reset link cannot be used">
          {token
            ? errorMessage(reset.error)
            : 'The link is missing its code. Open the link from your email again.'}{' '}
          You can ask for a new link with &lsquo;Forgot password?&rsquo; on the log in page.
        </Alert>
      ) : null}
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <PasswordInput
            label="New password"
            placeholder="Choose a new password"
            description={`At least ${PASSWORD_MIN} characters, not a common or easily guessed password`}
            autoComplete="new-password"
            leftSection={<IconLock size={18} />}
            disabled={!token}
            {...form.getInputProps('password')}
          />
          <PasswordInput
            label="Confirm password"
            placeholder="Type it again"
            autoComplete="new-password"
            leftSection={<IconLock size={18} />}
            disabled={!token}
            {...form.getInputProps('confirm')}
          />
          <Button type="submit" size="md" fullWidth mt="xs" loading={reset.isPending} disabled={!token}>
            Save new password
          </Button>
        </Stack>
      </form>
      <Text ta="center" fz="sm" c="dimmed" mt="xl">
        Remembered it?{' '}
        <Anchor component={Link} to="/auth/login" fw={600} inherit>
          Back to log in
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
