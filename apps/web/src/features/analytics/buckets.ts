import type { EngagementLevel } from '@flywheel/shared/levels';
import {
  BUCKET_CHANNELS_EMPTY,
  BUCKET_CSV_COLUMNS,
  BUCKET_CSV_EMPTY,
  BUCKET_NAME_EMPTY,
  type Bucket,
  type BucketBasis,
  type BucketData,
  type BucketRow,
} from '@flywheel/shared/buckets';
import {
  activityPayload,
  emptyActivityFilter,
  type ActivityFilterState,
  type Comparison,
} from '../../lib/activity-filter.ts';
import { toCsv } from '@flywheel/shared/csv';
import { DEFAULT_TIME, type TimeChoice } from '../../lib/time-filter.ts';
import type { AdvanceFilterRequest } from './api/perform-advance-analytics.ts';

const DAY_MS = 86_400_000;

/** A local calendar day's first and last millisecond (custom join windows are times, not days). */
export const dayStartMs = (day: string) => new Date(`${day}T00:00:00`).getTime();
export const dayEndMs = (day: string) => new Date(`${day}T23:59:59.999`).getTime();
const localDayOf = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}`;
};

/** A join window as epoch milliseconds: the last N days up to now (7 days: 604800000 ms), or whole local days. */
export function windowMs(w: TimeChoice, now: number): { startts: number; endts: number } {
  return w.type === 'static'
    ? { startts: now - w.days * DAY_MS, endts: now }
    : { startts: dayStartMs(w.start_date), endts: dayEndMs(w.end_date) };
}

/* Normal mode: the bucket table's filters. */

export type JoinType = 'team_join' | 'team_left';
export type AdvanceState = {
  join: JoinType | null;
  joinWindow: TimeChoice;
  channels: string[];
  channelType: 'AND' | 'OR';
  activity: ActivityFilterState | null;
  split: boolean;
  time: TimeChoice;
};

/** Reset: base none with a 7-day window, no channels, no activity filter, 7 days, not split. */
export const RESET_ADVANCE: AdvanceState = {
  join: null,
  joinWindow: { type: 'static', days: 7 },
  channels: [],
  channelType: 'OR',
  activity: null,
  split: false,
  time: DEFAULT_TIME,
};

export function toAdvanceRequest(s: AdvanceState, now: number): AdvanceFilterRequest {
  return {
    time_filter: s.time,
    channels: s.channels,
    channel_type: s.channelType,
    split_by_date_and_channel: s.split,
    activity_filter: activityPayload(s.activity),
    base_filter: s.join ? { type: s.join, ...windowMs(s.joinWindow, now) } : undefined,
  };
}

/* Bucket creation mode. */

export type BucketForm = {
  basis: BucketBasis;
  name: string;
  base: { event: 'workspace_join' | 'workspace_left'; window: TimeChoice } | null;
  channels: string[];
  channelType: 'AND' | 'OR';
  activity: ActivityFilterState;
  activityWindow: TimeChoice;
  /** Engagement levels: members holding any of them (none: every level). */
  levels: EngagementLevel[];
};

export const emptyBucketForm = (): BucketForm => ({
  basis: 'members',
  name: '',
  base: null,
  channels: [],
  channelType: 'OR',
  activity: emptyActivityFilter(),
  activityWindow: DEFAULT_TIME,
  levels: [],
});

/** A name, and at least one channel. */
export function bucketFormProblems(f: BucketForm): { name?: string; channels?: string } {
  return {
    ...(f.name.trim() ? {} : { name: BUCKET_NAME_EMPTY }),
    ...(f.channels.length > 0 ? {} : { channels: BUCKET_CHANNELS_EMPTY }),
  };
}

const compare = (c: Comparison) => (c.operator ? { operator: c.operator, count: c.count } : null);

/** The form as the product's bucket data; comparisons without an operator are not sent. */
export function toBucketData(f: BucketForm): BucketData {
  const w = f.base?.window;
  return {
    basis: f.basis,
    base_events:
      f.base && w
        ? w.type === 'static'
          ? { event: f.base.event, time_filter_type: 'Fixed', days: w.days }
          : {
              event: f.base.event,
              time_filter_type: 'custom',
              start_time: dayStartMs(w.start_date),
              end_time: dayEndMs(w.end_date),
            }
        : null,
    sub_time_filter: f.activityWindow,
    activity_filter: f.activity.type,
    channel_filter: { ids: f.channels, type: f.channelType },
    message_filter: compare(f.activity.messages),
    reaction_filter: compare(f.activity.reactions),
    replies_filter: compare(f.activity.replies),
    // Sent only when chosen (a bucket without levels saves as it always did).
    ...(f.levels.length ? { levels: f.levels } : {}),
  };
}

/** A saved bucket back in the form (selecting a row loads its saved settings). */
export function formOf(b: Bucket): BucketForm {
  const d = b.data;
  const base = d.base_events;
  const c = (x: { operator: Comparison['operator'] | ''; count: number } | null | undefined): Comparison =>
    x ? { operator: x.operator, count: x.count } : { operator: '', count: 0 };
  return {
    basis: d.basis ?? 'members',
    name: b.name,
    base: base
      ? {
          event: base.event,
          window:
            base.time_filter_type === 'custom'
              ? {
                  type: 'dynamic',
                  start_date: localDayOf(base.start_time ?? 0),
                  end_date: localDayOf(base.end_time ?? 0),
                }
              : { type: 'static', days: base.days ?? 7 },
        }
      : null,
    channels: [...d.channel_filter.ids],
    channelType: d.channel_filter.type ?? 'OR',
    activity: {
      type: d.activity_filter ?? 'AND',
      messages: c(d.message_filter),
      reactions: c(d.reaction_filter),
      replies: c(d.replies_filter),
    },
    activityWindow: (d.sub_time_filter as TimeChoice | undefined) ?? DEFAULT_TIME,
    levels: [...(d.levels ?? [])],
  };
}

/** The bucket CSV (BOM, quoted, header), a single 'no data' row when empty. */
export function bucketRowsCsv(rows: readonly BucketRow[]): string {
  if (rows.length === 0) return toCsv(BUCKET_CSV_COLUMNS, [[BUCKET_CSV_EMPTY]]);
  return toCsv(
    BUCKET_CSV_COLUMNS,
    rows.map((r) => [
      r.date_of_data,
      r.member_name,
      r.email,
      r.channel_name,
      r.messages,
      r.reactions,
      r.replies,
      r.activity,
    ]),
  );
}
