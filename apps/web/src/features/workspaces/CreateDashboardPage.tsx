import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { IconBrandSlack, IconChartDots3, IconDatabaseImport, IconShieldCheck } from '@tabler/icons-react';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useSession } from '../../lib/session.ts';
import { useStartInstall } from './api/install-url.ts';

const STEPS = [
  {
    icon: IconShieldCheck,
    title: 'Authorize Flywheel',
    text: 'Approve the Flywheel app in Slack for the workspace you administer.',
  },
  {
    icon: IconDatabaseImport,
    title: 'We import your community',
    text: 'Members, channels and recent history are brought in, paced to Slack’s limits.',
  },
  {
    icon: IconChartDots3,
    title: 'Your dashboard comes alive',
    text: 'Analytics fill in and you can start sending messages, polls and forms.',
  },
];

/** /dashboard/createdashboard and /createdashboard: for users with no workspace yet. */
export function CreateDashboardPage() {
  const session = useSession();
  const install = useStartInstall();
  const firstName = session?.username.split(' ')[0];
  return (
    <>
      <PageHeader
        title="Create Workspace"
        description={
          firstName
            ? `Welcome, ${firstName}. Connect a Slack workspace to build your dashboard.`
            : 'Connect a Slack workspace to build your dashboard.'
        }
      />
      <Paper withBorder shadow="xs" p={{ base: 'lg', sm: 40 }}>
        <Stack gap="xl">
          <Group gap="md" wrap="nowrap" align="flex-start">
            <ThemeIcon
              size={56}
              radius="md"
              variant="gradient"
              gradient={{ from: 'brand.5', to: 'violet.6' }}
            >
              <IconBrandSlack size={30} />
            </ThemeIcon>
            <Stack gap={4}>
              <Title order={2} fz="xl">
                Connect your first Slack workspace
              </Title>
              <Text c="dimmed" maw={620}>
                Flywheel reads activity from a workspace you administer and lets you act on it. It takes about
                a minute.
              </Text>
            </Stack>
          </Group>
          <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
            {STEPS.map(({ icon: Icon, title, text }, index) => (
              <Paper key={title} withBorder radius="md" p="lg" bg="gray.0">
                <Group gap="sm" mb="xs">
                  <ThemeIcon variant="light" radius="md" size={34}>
                    <Icon size={18} />
                  </ThemeIcon>
                  <Text fz="xs" fw={700} c="dimmed" tt="uppercase">
                    Step {index + 1}
                  </Text>
                </Group>
                <Text fw={600} mb={4}>
                  {title}
                </Text>
                <Text fz="sm" c="dimmed">
                  {text}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
          <Group gap="md">
            <Button
              size="md"
              leftSection={<IconBrandSlack size={18} />}
              loading={install.busy}
              onClick={() => install.start()}
            >
              Add to Slack
            </Button>
            <Text fz="sm" c="dimmed">
              You will approve Flywheel on Slack&apos;s authorization page, then come straight back here.
            </Text>
          </Group>
          <Text fz="sm">
            Running Flywheel yourself?{' '}
            <Anchor component={Link} to="/dashboard/slack-app">
              Create your Slack app
            </Anchor>{' '}
            first: one click on Slack with the manifest filled in, then the credentials this server needs.
          </Text>
        </Stack>
      </Paper>
    </>
  );
}
