import { useState } from 'react';
import { Button, Center, Code, Collapse, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBug, IconHome, IconMoodSad } from '@tabler/icons-react';

type ErrorViewProps = { error: Error };

/** What a bug report needs: the error, where it happened and in which browser. */
export function bugReport(error: Error, now = new Date()): string {
  return [
    `Error: ${error.message}`,
    `Page: ${window.location.href}`,
    `Time: ${now.toISOString()}`,
    `Browser: ${navigator.userAgent}`,
    '',
    error.stack ?? '(no stack trace)',
  ].join('\n');
}

/** Shown when a page crashes: 'TAKE ME BACK TO HOME' and 'REPORT BUG?'. */
export function ErrorView({ error }: ErrorViewProps) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const report = bugReport(error);

  const copyReport = async () => {
    try {
      await navigator.clipboard.writeText(report);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  return (
    <Center mih="70vh" p="xl">
      <Paper withBorder shadow="sm" p={{ base: 'lg', sm: 40 }} maw={560} w="100%">
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={64} radius="xl" variant="light" color="red">
            <IconMoodSad size={34} />
          </ThemeIcon>
          <Title order={1} fz={24}>
            Something went wrong
          </Title>
          <Text c="dimmed">
            This page ran into an unexpected problem. Your data is safe. Go back home and try again, or send
            us the details so we can fix it.
          </Text>
          <Group justify="center" mt="sm">
            <Button
              leftSection={<IconHome size={18} />}
              onClick={() => {
                // A full load resets whatever state broke the page.
                window.location.assign('/dashboard/home');
              }}
            >
              TAKE ME BACK TO HOME
            </Button>
            <Button variant="default" leftSection={<IconBug size={18} />} onClick={() => void copyReport()}>
              REPORT BUG?
            </Button>
          </Group>
          {copied === 'yes' ? (
            <Text fz="sm" c="teal.7" role="status">
              Bug details copied to your clipboard. Paste them into a message to your Flywheel administrator.
            </Text>
          ) : null}
          <Collapse expanded={copied === 'failed'} w="100%">
            <Stack gap={6} ta="left">
              <Text fz="sm" role="status">
                Copy these details and send them with your report:
              </Text>
              <Code block fz="xs" mah={220} style={{ overflow: 'auto' }}>
                {report}
              </Code>
            </Stack>
          </Collapse>
        </Stack>
      </Paper>
    </Center>
  );
}
