import { Button, Code, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconSparkles } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { publicConfigQuery } from '../api/public-config.ts';

type DemoNoteProps = { onUse: (email: string, password: string) => void };

function Credential({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text fz="xs" c="dimmed" w={62}>
        {label}
      </Text>
      <Code fz="xs" bg="white">
        {value}
      </Code>
    </Group>
  );
}

/** In demo mode the login page shows the demo credentials and fills them in on request. */
export function DemoNote({ onUse }: DemoNoteProps) {
  const { data } = useQuery(publicConfigQuery);
  if (!data?.demoMode || !data.demoEmail || !data.demoPassword) return null;
  const { demoEmail, demoPassword } = data;
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      mb="lg"
      bg="brand.0"
      style={{ borderColor: 'var(--mantine-color-brand-2)' }}
      role="note"
      aria-label="Demo account"
    >
      {/* On a phone the button goes under the credentials instead of past the note's edge. */}
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <ThemeIcon size={32} radius="md" variant="white">
            <IconSparkles size={18} />
          </ThemeIcon>
          <Stack gap={6}>
            <Text fz="sm" fw={600}>
              Exploring the demo?
            </Text>
            <Credential label="Email" value={demoEmail} />
            <Credential label="Password" value={demoPassword} />
          </Stack>
        </Group>
        <Button
          size="xs"
          variant="white"
          style={{ flexShrink: 0 }}
          onClick={() => onUse(demoEmail, demoPassword)}
        >
          Use demo account
        </Button>
      </Group>
    </Paper>
  );
}
