import type { ReactNode } from 'react';
import { Button, Card, Center, Group, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconChartDots3 } from '@tabler/icons-react';

export type CardState = {
  /** No answer yet (first load). */
  pending: boolean;
  /** The last load failed and there is nothing to show. */
  error: string | null;
  /** The answer holds nothing to draw. */
  empty: boolean;
  retry?(): void;
};

type ChartCardProps = {
  title: string;
  subtitle?: ReactNode;
  /** Filters and buttons on the right of the title. */
  actions?: ReactNode;
  state: CardState;
  /** Height of the body while loading, failed or empty (so the grid does not jump). */
  minHeight?: number;
  emptyText?: string;
  id?: string;
  children?: ReactNode;
};

/** A titled card for a chart or a table with its loading, error and empty states. */
export function ChartCard({
  title,
  subtitle,
  actions,
  state,
  minHeight = 240,
  emptyText = 'No Data Found',
  id,
  children,
}: ChartCardProps) {
  let body: ReactNode;
  if (state.pending) {
    body = (
      <Center mih={minHeight} role="status" aria-label={`Loading ${title}`}>
        <Loader size="sm" type="dots" />
      </Center>
    );
  } else if (state.error) {
    body = (
      <Center mih={minHeight}>
        <Stack align="center" gap={6}>
          <ThemeIcon variant="light" color="red" radius="xl" size="lg">
            <IconAlertTriangle size={18} />
          </ThemeIcon>
          <Text fz="sm" c="dimmed" ta="center" maw={320}>
            {state.error}
          </Text>
          {state.retry ? (
            <Button size="compact-sm" variant="subtle" onClick={state.retry}>
              Try again
            </Button>
          ) : null}
        </Stack>
      </Center>
    );
  } else if (state.empty) {
    body = (
      <Center mih={minHeight}>
        <Stack align="center" gap={6}>
          <ThemeIcon variant="light" color="gray" radius="xl" size="lg">
            <IconChartDots3 size={18} />
          </ThemeIcon>
          <Text fz="sm" c="dimmed">
            {emptyText}
          </Text>
        </Stack>
      </Center>
    );
  } else {
    body = children;
  }
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      id={id}
      component="section"
      aria-label={title}
      // Fills its grid cell: cards side by side end on one line (no empty block under the shorter one).
      h="100%"
      style={{ overflow: 'visible' }}
    >
      <Group justify="space-between" align="flex-start" mb="md" wrap="wrap" gap="sm">
        <Stack gap={2}>
          <Title order={2} fz="md" fw={600}>
            {title}
          </Title>
          {subtitle ? (
            <Text fz="xs" c="dimmed">
              {subtitle}
            </Text>
          ) : null}
        </Stack>
        {actions ? (
          <Group gap="xs" wrap="wrap">
            {actions}
          </Group>
        ) : null}
      </Group>
      {body}
    </Card>
  );
}

/** The card state of a TanStack query whose data is a list (or anything `isEmpty` says). */
export function queryState<T>(
  q: { data: T | undefined; isPending: boolean; error: unknown; refetch(): unknown },
  isEmpty: (d: T) => boolean,
  errorText: (e: unknown) => string,
): CardState {
  return {
    pending: q.isPending && q.data === undefined && !q.error,
    error: q.data === undefined && q.error ? errorText(q.error) : null,
    empty: q.data !== undefined && isEmpty(q.data),
    retry: () => void q.refetch(),
  };
}
