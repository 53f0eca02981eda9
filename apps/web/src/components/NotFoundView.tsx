import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Logo } from './Logo.tsx';

/** Any unknown path or /404. */
export function NotFoundView() {
  return (
    <Center component="main" mih="100vh" p="xl" style={{ background: 'var(--mantine-color-gray-0)' }}>
      <Stack align="center" gap="lg" maw={480} ta="center">
        <Logo size={30} />
        <Text
          aria-hidden="true"
          fw={900}
          lh={1}
          mt="lg"
          fz={{ base: 110, sm: 150 }}
          variant="gradient"
          gradient={{ from: 'brand.3', to: 'violet.5', deg: 135 }}
          style={{ letterSpacing: '-0.04em' }}
        >
          404
        </Text>
        <Title order={1} fz={28} style={{ letterSpacing: '0.06em' }}>
          SORRY!
        </Title>
        <Text c="dimmed" fz="lg">
          The page you&apos;re looking for was not found.
        </Text>
        <Button component={Link} to="/dashboard/home" size="md" leftSection={<IconArrowLeft size={18} />}>
          Back to home
        </Button>
      </Stack>
    </Center>
  );
}
