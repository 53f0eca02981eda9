import { lazy, Suspense } from 'react';
import { Center, Loader, Tabs } from '@mantine/core';
import { IconAt, IconChartPie, IconForms, IconMessages, IconNews } from '@tabler/icons-react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';
import type { ActionsSlots } from './slots.ts';
import { ACTION_TABS, DEFAULT_ACTION_TAB, isActionTab, type ActionTab } from './tabs.ts';

/** The Automate and Schedule tabs (tables, wizards, editor) load when one of them opens. */
const ActionsTab = lazy(() => import('./components/ActionsTab.tsx').then((m) => ({ default: m.ActionsTab })));
const PollsTab = lazy(() => import('./polls/PollsTab.tsx').then((m) => ({ default: m.PollsTab })));

type PlaceholderTab = Exclude<ActionTab, 'automate' | 'schedule'>;

const TAB_CONTENT: Record<
  PlaceholderTab,
  { icon: typeof IconMessages; description: string; upcoming: string[] }
> = {
  threads: {
    icon: IconMessages,
    description: 'Search conversations and act on them: reply, react, tag people or summarise a thread.',
    upcoming: [
      'Thread search with replies and reactions',
      'AI thread summaries',
      'Quick actions on selected users',
    ],
  },
  polls: {
    icon: IconChartPie,
    description: 'Ask a channel a question and watch the votes arrive.',
    upcoming: ['Scheduled and instant polls', 'Vote breakdown and voter export'],
  },
  forms: {
    icon: IconForms,
    description: 'Collect structured answers from members, once or on a schedule.',
    upcoming: ['Form builder with descriptive, MCQ and short questions', 'Responses per instance'],
  },
  posts: {
    icon: IconNews,
    description: 'Browse recent posts by channel and respond without leaving Flywheel.',
    upcoming: ['Posts by channel and time range', 'Reply, react, pin and summarise'],
  },
  mentions: {
    icon: IconAt,
    description: 'Every mention of your team in one place, filtered by person and channel.',
    upcoming: ['Mention search with filters', 'Reply and react from the list'],
  },
};

export function ActionsPage({ SendDm }: ActionsSlots = {}) {
  const { tab } = useParams();
  const navigate = useNavigate();
  // An unknown tab name falls back to the default tab rather than a 404.
  if (!isActionTab(tab)) return <Navigate to={`/dashboard/actions/${DEFAULT_ACTION_TAB}`} replace />;
  const content = tab === 'automate' || tab === 'schedule' ? null : TAB_CONTENT[tab];
  const label = ACTION_TABS.find((t) => t.value === tab)?.label ?? tab;

  return (
    <>
      <PageHeader title="Actions" description="Reach your members where they are: in Slack." />
      <Tabs
        value={tab}
        onChange={(value) => value && navigate(`/dashboard/actions/${value}`)}
        variant="pills"
        radius="md"
        mb="lg"
      >
        <Tabs.List>
          {ACTION_TABS.map((t) => (
            <Tabs.Tab key={t.value} value={t.value}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {tab === 'automate' || tab === 'schedule' ? (
        <Suspense
          fallback={
            <Center mih={240}>
              <Loader aria-label="Loading tab" />
            </Center>
          }
        >
          <ActionsTab key={tab} kind={tab === 'automate' ? 'automation' : 'schedule'} />
        </Suspense>
      ) : tab === 'polls' ? (
        <Suspense
          fallback={
            <Center mih={240}>
              <Loader aria-label="Loading tab" />
            </Center>
          }
        >
          <PollsTab SendDm={SendDm} />
        </Suspense>
      ) : content ? (
        <PlaceholderCard
          icon={<content.icon size={26} />}
          title={label}
          description={content.description}
          upcoming={content.upcoming}
        />
      ) : null}
    </>
  );
}
