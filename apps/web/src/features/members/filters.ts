import type { Operator } from '@flywheel/shared/members';
import type { MembersDataRequest } from '@flywheel/shared/members';

/** Time filter of the Members screen: the last N days, or a custom range of local days. */
export type TimeChoice =
  { type: 'static'; days: number } | { type: 'dynamic'; start_date: string; end_date: string };

/** Join Filter popup: Workspace Join (default) or Left, over a fixed number of days or a custom range. */
export type JoinFilterState = {
  type: 'team_join' | 'team_left';
  window: TimeChoice;
};

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

export type MembersFilterState = {
  time: TimeChoice;
  join: JoinFilterState | null;
  activity: ActivityFilterState | null;
  channels: string[];
  tags: number[];
};

export const DEFAULT_FILTERS: MembersFilterState = {
  time: { type: 'static', days: 7 },
  join: null,
  activity: null,
  channels: [],
  tags: [],
};

const comparison = (c: Comparison) => (c.operator ? { operator: c.operator, count: c.count } : undefined);

/** Does the activity filter compare anything? (Spec: filters with an empty operator are not sent.) */
export const activityIsSet = (a: ActivityFilterState | null): a is ActivityFilterState =>
  Boolean(a && (a.messages.operator || a.reactions.operator || a.replies.operator));

/** The spec's filter payload for POST /members/getmembersdata (and the CSV export). */
export function toPayload(
  teamId: string,
  f: MembersFilterState,
): Omit<MembersDataRequest, 'page' | 'page_size'> {
  return {
    team_id: teamId,
    time_filter: f.time,
    channels: f.channels.length ? f.channels : undefined,
    tags: f.tags.length ? f.tags : undefined,
    base_filter: f.join ? { type: f.join.type, time_filter: f.join.window } : undefined,
    activity_filter: activityIsSet(f.activity)
      ? {
          type: f.activity.type,
          message_filter: comparison(f.activity.messages),
          reaction_filter: comparison(f.activity.reactions),
          reply_filter: comparison(f.activity.replies),
        }
      : undefined,
  };
}

/** Spec section 5: custom ranges need start not after end and neither in the future. */
export function rangeProblem(start: string, end: string, today: string): string | null {
  if (!start || !end) return 'Choose both a start and an end date';
  if (start > today || end > today) return 'Dates cannot be in the future';
  if (start > end) return 'The start date must not be after the end date';
  return null;
}

/** Today as YYYY-MM-DD in the browser's timezone. */
export function todayString(now = new Date()): string {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

export const timeLabel = (t: TimeChoice) =>
  t.type === 'static' ? `Last ${t.days} days` : `${t.start_date} – ${t.end_date}`;
