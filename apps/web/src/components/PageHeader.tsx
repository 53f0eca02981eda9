import type { ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';

type PageHeaderProps = {
  title: string;
  description?: ReactNode;
  /** Buttons or filters shown on the right. */
  actions?: ReactNode;
};

export function PageHeader({ title, description, actions }: PageHeaderProps) {
  return (
    <Group justify="space-between" align="flex-end" mb="lg" wrap="wrap" gap="md">
      <Stack gap={4}>
        <Title order={1} fz={26} style={{ letterSpacing: '-0.01em' }}>
          {title}
        </Title>
        {description ? (
          <Text c="dimmed" fz="sm">
            {description}
          </Text>
        ) : null}
      </Stack>
      {actions ? <Group gap="sm">{actions}</Group> : null}
    </Group>
  );
}
