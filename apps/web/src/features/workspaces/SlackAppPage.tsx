import type { ReactNode } from 'react';
import {
  Alert,
  Button,
  Center,
  Code,
  CopyButton,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Tabs,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import {
  IconBrandSlack,
  IconCheck,
  IconCircleCheck,
  IconCircleDashed,
  IconCopy,
  IconDownload,
  IconExternalLink,
} from '@tabler/icons-react';
import type { SlackManifestResponse } from '@flywheel/shared/workspace';
import { PageHeader } from '../../components/PageHeader.tsx';
import { errorMessage } from '../../lib/api-client.ts';
import { useSlackManifest } from './api/slack-manifest.ts';
import { useStartInstall } from './api/install-url.ts';

function Step(props: { n: number; title: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby={`slack-app-step-${props.n}`}>
      <Group gap="sm" mb="sm" wrap="nowrap">
        <ThemeIcon radius="xl" size={30} variant="filled">
          <Text fz="sm" fw={700} c="white">
            {props.n}
          </Text>
        </ThemeIcon>
        <Title order={2} fz="lg" id={`slack-app-step-${props.n}`}>
          {props.title}
        </Title>
      </Group>
      <Stack gap="sm">{props.children}</Stack>
    </Paper>
  );
}

function download(manifest: SlackManifestResponse['manifest']) {
  const blob = new Blob([JSON.stringify(manifest, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = 'slack-app-manifest.json';
  a.click();
  URL.revokeObjectURL(url);
}

/**
 * /dashboard/slack-app: "Create your Slack app". The manifest comes from the code (scopes, events, URLs), so the
 * app is made in one click on Slack's side; then the credentials this server needs, in order, with what each is for
 * and where Slack shows it; then the install.
 */
export function SlackAppPage() {
  const q = useSlackManifest();
  const install = useStartInstall();
  if (q.isPending)
    return (
      <Center py="xl">
        <Loader aria-label="Loading the Slack app manifest" />
      </Center>
    );
  if (q.error)
    return (
      <Alert color="red" title="Could not load the Slack app manifest">
        {errorMessage(q.error)}
      </Alert>
    );
  const { manifest, create_url, scopes, setup } = q.data;
  const json = JSON.stringify(manifest, null, 2);
  const ready = setup.mode === 'slack' && setup.credentials.every((c) => c.set || !c.required);
  return (
    <>
      <PageHeader
        title="Create your Slack app"
        description="Connect Flywheel to your own Slack: create the app from its manifest, give this server its credentials, install."
      />
      <Stack gap="lg" maw={980}>
        {setup.mode === 'demo' ? (
          <Alert color="blue" variant="light" title="You are on the demo workspace">
            No Slack app is configured, so Flywheel runs the bundled Slack emulator with a demo community.
            Follow the steps below to connect your real workspace; the demo goes away once the credentials are
            set.
          </Alert>
        ) : null}

        <Step n={1} title="Create the app from its manifest">
          <Text fz="sm">
            The manifest lists everything the app needs: its bot user, the scopes below, the events Flywheel
            listens to and this installation’s addresses ({setup.public_url}). Slack opens with it filled in;
            pick your workspace and press Create.
          </Text>
          <Group gap="sm">
            <Button
              component="a"
              href={create_url}
              target="_blank"
              rel="noopener noreferrer"
              leftSection={<IconBrandSlack size={18} aria-hidden />}
              rightSection={<IconExternalLink size={14} aria-hidden />}
            >
              Create the app on Slack
            </Button>
            <CopyButton value={json}>
              {({ copied, copy }) => (
                <Button
                  variant="default"
                  onClick={copy}
                  leftSection={
                    copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />
                  }
                >
                  {copied ? 'Manifest copied' : 'Copy the manifest'}
                </Button>
              )}
            </CopyButton>
            <Button
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
              onClick={() => download(manifest)}
            >
              Download
            </Button>
          </Group>
        </Step>

        <Step n={2} title="Give this server the app’s credentials">
          <Text fz="sm">
            Set these in the server’s environment (<Code>.env</Code> or your container’s settings), then
            restart it. They are read on the server only and never shown here.
          </Text>
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" aria-label="Credentials">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Setting</Table.Th>
                  <Table.Th>What it is for</Table.Th>
                  <Table.Th>Where Slack shows it</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {setup.credentials.map((c) => (
                  <Table.Tr key={c.name}>
                    <Table.Td>
                      <Code>{c.name}</Code>
                    </Table.Td>
                    <Table.Td fz="sm">{c.what}</Table.Td>
                    <Table.Td fz="sm">{c.where}</Table.Td>
                    <Table.Td>
                      {c.set ? (
                        <Group gap={4} wrap="nowrap">
                          <IconCircleCheck size={16} color="var(--mantine-color-green-7)" aria-hidden />
                          <Text fz="sm" fw={600}>
                            Set
                          </Text>
                        </Group>
                      ) : (
                        <Group gap={4} wrap="nowrap">
                          <IconCircleDashed size={16} color="var(--mantine-color-gray-7)" aria-hidden />
                          <Text fz="sm" c="gray.8">
                            {c.required ? 'Not set' : 'Optional'}
                          </Text>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Step>

        <Step n={3} title="Install it in your workspace">
          <Text fz="sm">
            With the credentials set, install the app: Slack asks a workspace admin to approve the bot’s
            scopes, then Flywheel imports members, channels and recent history, paced to Slack’s limits.
          </Text>
          <Text fz="sm">
            To send messages as yourself, choose <b>Add as Admin</b> in the top bar afterwards: only then does
            Slack ask you for the Send as Admin scopes below. Until an admin does, messages go as the bot.
          </Text>
          <Group>
            <Button
              leftSection={<IconBrandSlack size={18} aria-hidden />}
              disabled={!ready}
              loading={install.busy}
              onClick={() => install.start()}
            >
              Add to Slack
            </Button>
            {!ready ? (
              <Text fz="sm" c="gray.7">
                Set the credentials above and restart the server first.
              </Text>
            ) : null}
          </Group>
        </Step>

        <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="slack-app-scopes">
          <Title order={2} fz="lg" id="slack-app-scopes" mb="xs">
            What the app asks for, and why
          </Title>
          <Tabs defaultValue="bot">
            <Tabs.List mb="sm">
              <Tabs.Tab value="bot">Bot ({scopes.bot.length})</Tabs.Tab>
              <Tabs.Tab value="user">Send as Admin ({scopes.user.length})</Tabs.Tab>
            </Tabs.List>
            {(['bot', 'user'] as const).map((kind) => (
              <Tabs.Panel key={kind} value={kind}>
                <Text fz="sm" c="gray.7" mb="xs">
                  {kind === 'bot'
                    ? 'Asked at install, for the bot.'
                    : 'Asked only when an admin chooses Add as Admin, for that admin’s own user token: to send as them.'}
                </Text>
                <Table verticalSpacing="xs" aria-label={kind === 'bot' ? 'Bot scopes' : 'Admin scopes'}>
                  <Table.Tbody>
                    {scopes[kind].map((s) => (
                      <Table.Tr key={s.scope}>
                        <Table.Td w={220}>
                          <Code>{s.scope}</Code>
                        </Table.Td>
                        <Table.Td fz="sm">{s.reason}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Tabs.Panel>
            ))}
          </Tabs>
        </Paper>
      </Stack>
    </>
  );
}
