import { lazy, Suspense, type ComponentType } from 'react';
import { Center, Loader, Tabs } from '@mantine/core';
import { Navigate, useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../components/PageHeader.tsx';
import { ACTION_TABS, DEFAULT_ACTION_TAB, isActionTab, type ActionTab } from './tabs.ts';

/** Each tab's code (tables, wizards, editor) loads when the tab opens. */
const ActionsTab = lazy(() => import('./ActionsTab.tsx').then((m) => ({ default: m.ActionsTab })));

const CONVERSATION_TABS = ['threads', 'posts', 'mentions', 'questions'] as const;
type ConversationTab = (typeof CONVERSATION_TABS)[number];
const isConversationTab = (tab: ActionTab): tab is ConversationTab =>
  (CONVERSATION_TABS as readonly string[]).includes(tab);

const TAB_LOADING = (
  <Center mih={240}>
    <Loader role="status" aria-label="Loading tab" />
  </Center>
);

/**
 * The tabs of the other products Actions shows: Threads, Posts, Mentions and Questions (features/conversations), Forms
 * (features/forms) and Polls (features/polls). app/ composes them, each loading when its tab opens (a feature
 * never imports another).
 */
export type ActionsTabs = {
  Conversations: ComponentType<{ tab: ConversationTab }>;
  Forms: ComponentType;
  Polls: ComponentType;
};

/** Actions: Automate and Schedule are its own tabs, `tabs` the other products'. */
export function ActionsPage({ tabs }: { tabs: ActionsTabs }) {
  const { tab } = useParams();
  const navigate = useNavigate();
  // An unknown tab name falls back to the default tab rather than a 404.
  if (!isActionTab(tab)) return <Navigate to={`/dashboard/actions/${DEFAULT_ACTION_TAB}`} replace />;

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
      <Suspense fallback={TAB_LOADING}>
        {tab === 'automate' || tab === 'schedule' ? (
          <ActionsTab key={tab} kind={tab === 'automate' ? 'automation' : 'schedule'} />
        ) : isConversationTab(tab) ? (
          <tabs.Conversations key={tab} tab={tab} />
        ) : tab === 'forms' ? (
          <tabs.Forms />
        ) : (
          <tabs.Polls />
        )}
      </Suspense>
    </>
  );
}
