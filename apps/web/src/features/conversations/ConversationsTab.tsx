import { MentionsTab } from './MentionsTab.tsx';
import { PostsTab } from './PostsTab.tsx';
import { QuestionsTab } from './QuestionsTab.tsx';
import type { ConversationSlots } from './slots.ts';
import { ThreadsTab } from './ThreadsTab.tsx';

export type ConversationTab = 'threads' | 'posts' | 'mentions' | 'questions';

/** The Threads, Posts, Mentions and Questions tabs of Actions. */
export function ConversationsTab({ tab, slots }: { tab: ConversationTab; slots: ConversationSlots }) {
  if (tab === 'posts') return <PostsTab slots={slots} />;
  if (tab === 'mentions') return <MentionsTab slots={slots} />;
  if (tab === 'questions') return <QuestionsTab slots={slots} />;
  return <ThreadsTab slots={slots} />;
}
