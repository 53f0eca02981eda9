import type { ActivityFilter, Operator } from '@flywheel/shared/members';

/** The Activity Filter popup: AND (default) or OR over Messages, Reactions and Replies. */
export type Comparison = { operator: Operator | ''; count: number };
export type ActivityFilterState = {
  type: 'AND' | 'OR';
  messages: Comparison;
  reactions: Comparison;
  replies: Comparison;
};

export const emptyActivityFilter = (): ActivityFilterState => ({
  type: 'AND',
  messages: { operator: '', count: 0 },
  reactions: { operator: '', count: 0 },
  replies: { operator: '', count: 0 },
});

const comparison = (c: Comparison) => (c.operator ? { operator: c.operator, count: c.count } : undefined);

/** Does the activity filter compare anything? (Filters with an empty operator are not sent.) */
export const activityIsSet = (a: ActivityFilterState | null): a is ActivityFilterState =>
  Boolean(a && (a.messages.operator || a.reactions.operator || a.replies.operator));

/** The payload's activity_filter, or undefined when nothing is compared. */
export function activityPayload(a: ActivityFilterState | null): ActivityFilter | undefined {
  return activityIsSet(a)
    ? {
        type: a.type,
        message_filter: comparison(a.messages),
        reaction_filter: comparison(a.reactions),
        reply_filter: comparison(a.replies),
      }
    : undefined;
}
