import { Alert, Group, Loader, Paper, Progress, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconCloudDownload } from '@tabler/icons-react';
import type { WorkspaceStatus } from '@flywheel/shared/directory';

const count = new Intl.NumberFormat('en');

/** '45 minutes', 'about 3 hours', or null when unknown. */
export function durationText(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  if (seconds < 90) return 'about a minute';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `about ${minutes} minutes`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `about ${hours} hours` : `about ${Math.round(hours / 24)} days`;
}

/**
 * The import's percent for display, or null while it is not meaningful yet: the server counts channels done, so
 * a first large channel reads 0% while its messages arrive ('0%' beside '219 messages so far' looked stuck).
 */
export function importPercent(percent: number): number | null {
  const p = Math.max(0, Math.min(100, Math.round(percent)));
  return p === 0 ? null : p;
}

type ImportProgressCardProps = { status: WorkspaceStatus | undefined; workspaceName?: string };

/**
 * Home: 'Importing history: 43%' with a progress bar while the history import runs ('Importing history…' before
 * the first channel is done); a note if it failed.
 */
export function ImportProgressCard({ status, workspaceName }: ImportProgressCardProps) {
  const backfill = status?.backfill;
  if (!backfill || status?.status === 'disconnected') return null;

  if (backfill.status === 'failed') {
    return (
      <Alert
        variant="light"
        color="yellow"
        radius="lg"
        mb="lg"
        icon={<IconAlertTriangle size={20} />}
        title="History import stopped"
      >
        {backfill.error ?? 'The history import could not finish.'} Live activity is still recorded; the import
        resumes on its own.
      </Alert>
    );
  }
  if (backfill.status !== 'running') return null;

  const percent = importPercent(backfill.percent);
  const label = percent === null ? 'Importing history…' : `Importing history: ${percent}%`;
  const remaining = durationText(backfill.remaining_seconds);
  return (
    <Paper withBorder shadow="xs" p="lg" mb="lg" role="region" aria-label="History import">
      <Group gap="md" wrap="nowrap" align="flex-start">
        <ThemeIcon size={42} radius="md" variant="light">
          <IconCloudDownload size={22} />
        </ThemeIcon>
        <Stack gap={8} style={{ flex: 1, minWidth: 0 }}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text fw={600}>{label}</Text>
            <Text fz="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {count.format(backfill.messages)} messages so far
            </Text>
          </Group>
          {percent === null ? (
            <Loader type="dots" size="sm" aria-label={label} />
          ) : (
            <Progress value={percent} size="lg" radius="xl" animated striped aria-label={label} />
          )}
          <Text fz="sm" c="dimmed">
            {workspaceName
              ? `We are bringing in the history of ${workspaceName}`
              : 'We are bringing in history'}
            , paced to Slack&apos;s limits. Charts fill in as it arrives; new activity is captured already.
            {remaining ? ` Time left: ${remaining}.` : ''}
          </Text>
          {backfill.pacing === 'limited' && (
            <Text fz="sm" c="orange.9">
              Slack limits this app&apos;s history reads (apps outside the Slack Marketplace: one page of 15
              messages a minute), so the import takes longer{remaining ? `: ${remaining} left` : ''}.
            </Text>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}
