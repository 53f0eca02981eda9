import { Suspense } from 'react';
import { Center, Loader, Tabs } from '@mantine/core';
import { Navigate, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import type { SettingsTab } from './tabs.ts';

/**
 * /dashboard/settings/:tab: the workspace's settings, one tab per entry of `tabs` (app/ composes them); an
 * unknown tab goes to the first.
 */
export function SettingsPage({ tabs }: { tabs: SettingsTab[] }) {
  const { tab } = useParams();
  const navigate = useNavigate();
  const current = tabs.find((t) => t.value === tab);
  if (!current) return <Navigate to={`/dashboard/settings/${tabs[0]?.value ?? ''}`} replace />;
  const { Panel } = current;
  return (
    <>
      <PageHeader
        title="Settings"
        description="Who administers this workspace, what they did, and how other systems reach it."
      />
      <Tabs
        value={current.value}
        onChange={(value) => value && navigate(`/dashboard/settings/${value}`)}
        variant="pills"
        radius="md"
        mb="lg"
      >
        <Tabs.List>
          {tabs.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Suspense
        fallback={
          <Center mih={240}>
            <Loader role="status" aria-label="Loading tab" />
          </Center>
        }
      >
        <Panel />
      </Suspense>
    </>
  );
}
