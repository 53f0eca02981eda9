/** The Actions tabs; the fourth path segment picks one, threads is the default. */
export const ACTION_TABS = [
  { value: 'threads', label: 'Threads' },
  { value: 'polls', label: 'Polls' },
  { value: 'forms', label: 'Forms' },
  { value: 'posts', label: 'Posts' },
  { value: 'mentions', label: 'Mentions' },
  { value: 'questions', label: 'Questions' },
  { value: 'automate', label: 'Automate' },
  { value: 'schedule', label: 'Schedule' },
] as const;

export type ActionTab = (typeof ACTION_TABS)[number]['value'];

export const DEFAULT_ACTION_TAB: ActionTab = 'threads';

export function isActionTab(value: string | undefined): value is ActionTab {
  return ACTION_TABS.some((t) => t.value === value);
}
