import type { ReactNode } from 'react';
import { Badge, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleDashedCheck } from '@tabler/icons-react';

type PlaceholderCardProps = {
  icon: ReactNode;
  title: string;
  description: string;
  /** What this area will hold once its issue lands. */
  upcoming?: string[];
  children?: ReactNode;
};

/** A titled card for pages whose content arrives in a later release. */
export function PlaceholderCard({ icon, title, description, upcoming = [], children }: PlaceholderCardProps) {
  return (
    <Paper withBorder p="xl" shadow="xs">
      <Group align="flex-start" gap="lg" wrap="nowrap">
        <ThemeIcon size={52} radius="md" variant="light">
          {icon}
        </ThemeIcon>
        <Stack gap="xs" style={{ flex: 1 }}>
          <Group gap="sm">
            <Title order={2} fz="lg">
              {title}
            </Title>
            <Badge variant="light" color="gray" radius="sm">
              Coming soon
            </Badge>
          </Group>
          <Text c="dimmed" fz="sm" maw={640}>
            {description}
          </Text>
          {upcoming.length > 0 ? (
            <List
              mt="xs"
              spacing={6}
              fz="sm"
              icon={
                <ThemeIcon size={20} radius="xl" variant="light" color="teal">
                  <IconCircleDashedCheck size={14} />
                </ThemeIcon>
              }
            >
              {upcoming.map((item) => (
                <List.Item key={item}>{item}</List.Item>
              ))}
            </List>
          ) : null}
          {children}
        </Stack>
      </Group>
    </Paper>
  );
}
