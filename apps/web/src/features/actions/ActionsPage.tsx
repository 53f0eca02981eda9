import { lazy, Suspense } from 'react';
import { Center, Loader, Tabs } from '@mantine/core';
import { IconChartPie } from '@tabler/icons-react';
import { Navigate, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { PlaceholderCard } from '../../components/PlaceholderCard.tsx';
import type { ConversationSlots } from './conversations/slots.ts';
import { ACTION_TABS, DEFAULT_ACTION_TAB, isActionTab, type ActionTab } from './tabs.ts';

/** The Automate and Schedule tabs (tables, wizards, editor) load when one of them opens. */
const ActionsTab = lazy(() => import('./components/ActionsTab.tsx').then((m) => ({ default: m.ActionsTab })));
const FormsTab = lazy(() => import('./forms/FormsTab.tsx').then((m) => ({ default: m.FormsTab })));

/** Threads, Posts and Mentions (the conversation workbench) load when one of them opens. */
const ConversationsTab = lazy(() =>
  import('./conversations/ConversationsTab.tsx').then((m) => ({ default: m.ConversationsTab })),
);
const CONVERSATION_TABS = ['threads', 'posts', 'mentions'] as const;
type ConversationTab = (typeof CONVERSATION_TABS)[number];
const isConversationTab = (tab: ActionTab): tab is ConversationTab =>
  (CONVERSATION_TABS as readonly string[]).includes(tab);

type PlaceholderTab = Exclude<ActionTab, 'automate' | 'schedule' | 'forms' | ConversationTab>;

const TAB_LOADING = (
  <Center mih={240}>
    <Loader aria-label="Loading tab" />
  </Center>
);

const TAB_CONTENT: Record<
  PlaceholderTab,
  { icon: typeof IconChartPie; description: string; upcoming: string[] }
> = {
  polls: {
    icon: IconChartPie,
    description: 'Ask a channel a question and watch the votes arrive.',
    upcoming: ['Scheduled and instant polls', 'Vote breakdown and voter export'],
  },
};

/** Actions; `slots` are the sending and members features' popups the conversation tabs use (app/ composes). */
export function ActionsPage(slots: ConversationSlots = {}) {
  const { tab } = useParams();
  const navigate = useNavigate();
  // An unknown tab name falls back to the default tab rather than a 404.
  if (!isActionTab(tab)) return <Navigate to={`/dashboard/actions/${DEFAULT_ACTION_TAB}`} replace />;
  const content =
    tab === 'automate' || tab === 'schedule' || tab === 'forms' || isConversationTab(tab)
      ? null
      : TAB_CONTENT[tab];
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
        <Suspense fallback={TAB_LOADING}>
          <ActionsTab key={tab} kind={tab === 'automate' ? 'automation' : 'schedule'} />
        </Suspense>
      ) : isConversationTab(tab) ? (
        <Suspense fallback={TAB_LOADING}>
          <ConversationsTab key={tab} tab={tab} slots={slots} />
        </Suspense>
      ) : tab === 'forms' ? (
        <Suspense fallback={TAB_LOADING}>
          <FormsTab />
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
