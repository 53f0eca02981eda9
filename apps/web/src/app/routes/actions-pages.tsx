import { lazy } from 'react';
import { ActionsPage, type ActionsTabs } from '../../features/actions/ActionsPage.tsx';
import type { ConversationTab } from '../../features/conversations/ConversationsTab.tsx';
import type { PeopleSlotProps, ReplySlotProps } from '../../features/conversations/slots.ts';
import { lazySlot } from './lazy-slot.tsx';

/*
 * Actions with the other products' tabs (conversations, forms, polls), and the sending and members features'
 * popups in its Threads, Posts and Mentions tabs and among a poll's voters (a feature never imports another:
 * app/ composes). Each tab's code loads when the tab opens; the popups' code is its own chunk.
 */
const slots = () => import('./actions-slots.tsx');
const Reply = lazySlot<ReplySlotProps>(() => slots().then((m) => m.Reply));
const SendDm = lazySlot<PeopleSlotProps>(() => slots().then((m) => m.SendDm));
const AddTag = lazySlot<PeopleSlotProps>(() => slots().then((m) => m.AddTag));
const conversationSlots = { Reply, SendDm, AddTag };

/** Threads, Posts and Mentions (the conversation workbench) load when one of them opens. */
const ConversationsTab = lazy(() =>
  import('../../features/conversations/ConversationsTab.tsx').then((m) => ({ default: m.ConversationsTab })),
);
const FormsTab = lazy(() =>
  import('../../features/forms/FormsTab.tsx').then((m) => ({ default: m.FormsTab })),
);
const PollsTab = lazy(() =>
  import('../../features/polls/PollsTab.tsx').then((m) => ({ default: m.PollsTab })),
);

const tabs: ActionsTabs = {
  Conversations: function Conversations({ tab }: { tab: ConversationTab }) {
    return <ConversationsTab tab={tab} slots={conversationSlots} />;
  },
  Forms: FormsTab,
  Polls: function Polls() {
    return <PollsTab SendDm={SendDm} />;
  },
};

export function ActionsWithSending() {
  return <ActionsPage tabs={tabs} />;
}
