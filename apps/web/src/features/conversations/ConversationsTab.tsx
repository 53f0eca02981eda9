import { MentionsTab } from './MentionsTab.tsx';
import { PostsTab } from './PostsTab.tsx';
import type { ConversationSlots } from './slots.ts';
import { ThreadsTab } from './ThreadsTab.tsx';

export type ConversationTab = 'threads' | 'posts' | 'mentions';

/** The Threads, Posts and Mentions tabs of Actions. */
export function ConversationsTab({ tab, slots }: { tab: ConversationTab; slots: ConversationSlots }) {
  if (tab === 'posts') return <PostsTab slots={slots} />;
  if (tab === 'mentions') return <MentionsTab slots={slots} />;
  return <ThreadsTab slots={slots} />;
}
