import { Stack, Text } from '@mantine/core';
import { WebhooksPanel } from './components/WebhooksPanel.tsx';

/** Settings › Webhooks: the workspace's subscriptions and their deliveries, under the tab's own heading. */
export function WebhooksTab() {
  return (
    <Stack gap="sm">
      <div>
        <Text fw={600} fz="lg" component="h2" m={0}>
          Webhooks
        </Text>
        <Text fz="sm" c="dimmed">
          Tell another system when members join or leave, forms come back, polls close, sends finish or a
          workflow step fails.
        </Text>
      </div>
      <WebhooksPanel />
    </Stack>
  );
}
