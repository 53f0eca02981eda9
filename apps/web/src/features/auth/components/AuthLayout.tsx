import type { ReactNode } from 'react';
import { Box, Stack, Text, ThemeIcon, Title, Group } from '@mantine/core';
import { IconBolt, IconChartHistogram, IconReceipt2 } from '@tabler/icons-react';
import { Logo } from '../../../components/Logo.tsx';
import classes from './AuthLayout.module.css';

const FEATURES = [
  {
    icon: IconChartHistogram,
    title: 'See who drives your community',
    text: 'Activity, trends and top members across every channel.',
  },
  {
    icon: IconBolt,
    title: 'Act where your members are',
    text: 'Messages, polls, forms and workflows sent straight into Slack.',
  },
  {
    icon: IconReceipt2,
    title: 'Know every send landed',
    text: 'A receipt for each bulk action, recipient by recipient.',
  },
];

type AuthLayoutProps = {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
};

/** The branded frame of the auth pages: a story panel on the left, the form on the right. */
export function AuthLayout({ title, subtitle, children }: AuthLayoutProps) {
  return (
    <div className={classes.root}>
      <aside className={classes.brand}>
        <svg className={classes.rings} viewBox="0 0 200 200" aria-hidden="true">
          {[96, 76, 56, 36].map((r) => (
            <circle key={r} cx="100" cy="100" r={r} fill="none" stroke="white" strokeWidth="1.5" />
          ))}
        </svg>
        <Logo size={34} inverted />
        <Stack gap="xl" maw={460} style={{ position: 'relative' }}>
          <Stack gap="sm">
            <Title order={2} c="white" fz={34} lh={1.2} style={{ letterSpacing: '-0.02em' }}>
              Turn community activity into momentum.
            </Title>
            <Text c="white" opacity={0.82} fz="md">
              Flywheel is the admin dashboard for Slack communities: understand engagement, then act on it.
            </Text>
          </Stack>
          <Stack gap="sm">
            {FEATURES.map(({ icon: Icon, title: featureTitle, text }) => (
              <Group key={featureTitle} className={classes.feature} wrap="nowrap" align="flex-start" gap="md">
                <ThemeIcon size={36} radius="md" variant="white" color="brand">
                  <Icon size={20} />
                </ThemeIcon>
                <Box>
                  <Text fw={600} fz="sm" c="white">
                    {featureTitle}
                  </Text>
                  <Text fz="sm" c="white" opacity={0.78}>
                    {text}
                  </Text>
                </Box>
              </Group>
            ))}
          </Stack>
        </Stack>
        <Text fz="xs" c="white" opacity={0.6}>
          © {new Date().getFullYear()} Flywheel. Built for community teams.
        </Text>
      </aside>
      <main className={classes.panel}>
        <div className={classes.form}>
          <Box hiddenFrom="md" mb={36}>
            <Logo size={30} />
          </Box>
          <Stack gap={6} mb={28}>
            <Title order={1} fz={28} style={{ letterSpacing: '-0.02em' }}>
              {title}
            </Title>
            {subtitle ? (
              <Text c="dimmed" fz="sm">
                {subtitle}
              </Text>
            ) : null}
          </Stack>
          {children}
        </div>
      </main>
    </div>
  );
}
