import { Anchor, Button, Checkbox, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconLock, IconMail, IconUser, IconWorld } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { PASSWORD_MIN, signupBody } from '@flywheel/shared/auth';
import { COUNTRIES } from '@flywheel/shared/countries';
import { errorMessage, isApiError } from '../../lib/api-client.ts';
import { notifyFailure, notifySuccess } from '../../lib/notify.tsx';
import { useSignup } from './api/signup.ts';
import { AuthLayout } from './components/AuthLayout.tsx';

type SignupValues = {
  username: string;
  email: string;
  password: string;
  country: string | null;
  terms: boolean;
};

const countryRule = signupBody.shape.country;
const countryOptions = [...COUNTRIES];

/** The only client-side check is the country; the server checks the rest. */
function validateCountry(value: string | null): string | null {
  const result = countryRule.safeParse(value ?? '');
  return result.success ? null : (result.error.issues[0]?.message ?? 'Please select you country');
}

export function SignupPage() {
  const navigate = useNavigate();
  const signup = useSignup();
  // A weak password's reason stays under the field (from the last answer) until the password changes.
  const [dismissed, setDismissed] = useState<unknown>(null);
  const weakPassword =
    isApiError(signup.error) && signup.error.code === 'WEAK_PASSWORD' && signup.error !== dismissed
      ? signup.error.message
      : null;
  const form = useForm<SignupValues>({
    initialValues: { username: '', email: '', password: '', country: null, terms: false },
    validate: { country: validateCountry },
  });

  const submit = form.onSubmit((values) => {
    const email = values.email.trim();
    signup.mutate(
      { username: values.username.trim(), email, password: values.password, country: values.country ?? '' },
      {
        onSuccess: (res) => {
          notifySuccess(res.message, 'Signup Successfull');
          form.reset();
          navigate('/auth/login', { state: { email } });
        },
        onError: (err) => {
          // A weak password: the reason stays under the field, where the next choice is made.
          notifyFailure(errorMessage(err), 'Attention');
        },
      },
    );
  });

  return (
    <AuthLayout title="Create your account" subtitle="Start understanding and growing your Slack community.">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label="Username"
            placeholder="Jane Cooper"
            autoComplete="username"
            leftSection={<IconUser size={18} />}
            {...form.getInputProps('username')}
          />
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
            placeholder="Choose a password"
            description={`At least ${PASSWORD_MIN} characters, not a common or easily guessed password`}
            autoComplete="new-password"
            leftSection={<IconLock size={18} />}
            {...form.getInputProps('password')}
            error={weakPassword ?? form.errors.password}
            onChange={(e) => {
              setDismissed(signup.error);
              form.getInputProps('password').onChange(e);
            }}
          />
          <Select
            label="Country"
            placeholder="Select your country"
            data={countryOptions}
            searchable
            nothingFoundMessage="No country matches"
            leftSection={<IconWorld size={18} />}
            maxDropdownHeight={240}
            comboboxProps={{ shadow: 'md' }}
            {...form.getInputProps('country')}
          />
          <Checkbox
            label="I agree to all Terms & Conditions"
            {...form.getInputProps('terms', { type: 'checkbox' })}
          />
          <Button type="submit" size="md" fullWidth mt="xs" loading={signup.isPending}>
            Sign up
          </Button>
        </Stack>
      </form>
      <Text ta="center" fz="sm" c="dimmed" mt="xl">
        Already have an account?{' '}
        <Anchor component={Link} to="/auth/login" fw={600} inherit>
          Log in
        </Anchor>
      </Text>
    </AuthLayout>
  );
}
