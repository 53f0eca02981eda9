import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { publicConfigQuery } from '../api.ts';

type DemoNoteProps = { onUse: (email: string, password: string) => void };

/** In demo mode the login page shows the demo credentials and fills them in on request. */
export function DemoNote({ onUse }: DemoNoteProps) {
  const { data } = useQuery(publicConfigQuery);
  if (!data?.demoMode || !data.demoEmail || !data.demoPassword) return null;
  const { demoEmail, demoPassword } = data;
  return (
    <Alert
      variant="light"
      color="brand"
      radius="md"
      mb="lg"
      icon={<IconSparkles size={20} />}
      title="Demo workspace"
    >
      <Stack gap={8}>
        <Text fz="sm">This is a demo. Log in with the demo account to explore a live workspace.</Text>
        <Group gap="xs" fz="sm">
          <Text fz="sm" c="dimmed" w={70}>
            Email
          </Text>
          <Code>{demoEmail}</Code>
        </Group>
        <Group gap="xs">
          <Text fz="sm" c="dimmed" w={70}>
            Password
          </Text>
          <Code>{demoPassword}</Code>
        </Group>
        <Button size="xs" variant="light" w="fit-content" onClick={() => onUse(demoEmail, demoPassword)}>
          Use demo account
        </Button>
      </Stack>
    </Alert>
  );
}
