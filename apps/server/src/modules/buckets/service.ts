import { csvCell } from '@flywheel/shared/csv';
import type { z } from 'zod';
import {
  BUCKET_CSV_COLUMNS,
  BUCKET_CSV_EMPTY,
  bucketFilter,
  advanceAnalyticsFilter,
  type advanceAnalyticsBody,
  type Bucket,
  type BucketDefinition,
  type BucketRow,
} from '@flywheel/shared/buckets';
import type { Db } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import {
  membersRepo,
  type BreakdownRow,
  type MemberExportRow,
  type MemberQuery,
} from '../activity/members-ranking.ts';
import type { MembersService } from '../members-list/service.ts';
import type { TagsService } from '../tags/service.ts';
import { bucketCsvLineSql, bucketsRepo, type BucketRecord } from './repo.ts';

type AdvanceFilter = z.output<typeof advanceAnalyticsFilter>;
type AdvanceRequest = z.output<typeof advanceAnalyticsBody>;
export type BucketsService = ReturnType<typeof bucketsService>;

const ALL_CHANNELS = 'All channels';
const windowLabel = (fromDay: string, toDay: string) => `${fromDay} to ${toDay}`;

/** A member's (or member-and-channel's) counts as a bucket row; activity = messages + replies + reactions. */
export function toBucketRow(
  r: MemberExportRow,
  dateOfData: string,
  channelId: string | null,
  channel: string,
): BucketRow {
  return {
    date_of_data: dateOfData,
    member_id: r.member_id,
    member_name: r.real_name || r.display_name,
    email: r.email,
    channel_id: channelId,
    channel_name: channel,
    messages: r.messages,
    reactions: r.reactions,
    replies: r.replies,
    activity: r.messages + r.replies + r.reactions,
  };
}

/** A channel as the screens show it: '#general' (bucket rows, their CSVs and the web's CSVs alike). */
export const channelShown = (name: string) => `#${name}`;

const fromBreakdown = (r: BreakdownRow, label: string) =>
  toBucketRow(r, r.day ?? label, r.channel_id, channelShown(r.channel_name));

/** BOM, quoted strings, a header row; a single 'no data' row when there are none. */
export async function* bucketCsvLines(
  rows: Iterable<BucketRow> | AsyncIterable<BucketRow>,
): AsyncGenerator<string> {
  yield `\uFEFF${BUCKET_CSV_COLUMNS.map(csvCell).join(',')}\r\n`;
  let any = false;
  let out = '';
  for await (const r of rows) {
    any = true;
    out += `${[r.date_of_data, r.member_name, r.email, r.channel_name].map(csvCell).join(',')},${r.messages},${r.reactions},${r.replies},${r.activity}\r\n`;
    if (out.length > 64_000) {
      yield out;
      out = '';
    }
  }
  if (out) yield out;
  if (!any) yield `${csvCell(BUCKET_CSV_EMPTY)}\r\n`;
}

export function toBucket(b: BucketRecord): Bucket {
  return {
    id: b.id,
    name: b.name,
    data: b.data,
    last_execute: b.lastExecute ? b.lastExecute.getTime() : null,
    member_count: b.lastCount,
    created_at: b.createdAt.getTime(),
  };
}

/**
 * The advanced analytics table and buckets: the Members screen's filters (join/leave
 * window, channels AND/OR, activity) resolved by the members list and evaluated by the activity read API. A
 * bucket saves such a filter; running it evaluates it on the current data and keeps the members it found.
 */
export const bucketsService = (deps: {
  db: Db;
  membersList: MembersService;
  tags: TagsService;
  querySlices?: number;
}) => {
  const repo = bucketsRepo(deps.db);
  const members = membersRepo(deps.db, { slices: deps.querySlices });

  const resolve = (f: AdvanceFilter, now: Date): Promise<MemberQuery> =>
    deps.membersList.resolve({ ...f, sort: { field: 'activity', direction: 'desc' } }, now);

  async function channelLabel(q: MemberQuery): Promise<string> {
    if (!q.channels) return ALL_CHANNELS;
    const names = await repo.channelNames(q.teamId, q.channels);
    return q.channels.map((id) => channelShown(names.get(id) ?? id)).join(', ');
  }

  async function found(teamId: string, id: number): Promise<BucketRecord> {
    const b = await repo.get(teamId, id);
    if (!b) throw notFound(`No bucket with id ${id} in this workspace`);
    return b;
  }

  /** Every row of the filter, per member (split by date: see csv). */
  async function memberRows(f: AdvanceFilter, now: Date): Promise<BucketRow[]> {
    const q = await resolve(f, now);
    const label = windowLabel(q.fromDay, q.toDay);
    const channel = await channelLabel(q);
    return (await members.exportRows(q)).map((r) => toBucketRow(r, label, null, channel));
  }

  async function checkChannels(teamId: string, ids: string[]) {
    const names = await repo.channelNames(teamId, ids);
    const unknown = ids.filter((id) => !names.has(id));
    if (unknown.length > 0)
      throw new AppError(
        'VALIDATION_ERROR',
        400,
        `data.channel_filter.ids: no channel of this workspace matches ${unknown.slice(0, 5).join(', ')}`,
      );
  }

  return {
    /** POST /analytics/performadvanceanalytics: one page of rows and the count of all of them. */
    async advance(body: AdvanceRequest, now = new Date()) {
      const q = await resolve(body, now);
      const label = windowLabel(q.fromDay, q.toDay);
      const offset = (body.page - 1) * body.page_size;
      let data: BucketRow[];
      let total: number;
      if (body.split_by_date_and_channel) {
        const r = await members.breakdown(q, { byDay: true, limit: body.page_size, offset });
        data = r.rows.map((x) => fromBreakdown(x, label));
        // Past the last row the page is empty and carries no count: count from the first row.
        total =
          r.rows.length > 0 || offset === 0
            ? r.total
            : (await members.breakdown(q, { byDay: true, limit: 1 })).total;
      } else {
        const r = await members.page(q, body.page_size, offset);
        const channel = await channelLabel(q);
        data = r.rows.map((x) => toBucketRow(x, label, null, channel));
        total = r.total;
      }
      return { data, total, page: body.page, page_size: body.page_size };
    },

    /** The table's CSV: every row of the filter; split by date, streamed two weeks at a time. */
    async *csv(f: AdvanceFilter, now = new Date()): AsyncGenerator<string> {
      if (!f.split_by_date_and_channel) {
        yield* bucketCsvLines(await memberRows(f, now));
        return;
      }
      // Every member over months is hundreds of thousands of lines: the database writes them (bucketCsvLineSql).
      const q = await resolve(f, now);
      yield `\uFEFF${BUCKET_CSV_COLUMNS.map(csvCell).join(',')}\r\n`;
      let any = false;
      for await (const text of members.breakdownTextByDays(q, bucketCsvLineSql)) {
        any = true;
        yield text;
      }
      if (!any) yield `${csvCell(BUCKET_CSV_EMPTY)}\r\n`;
    },

    async create(teamId: string, name: string, data: BucketDefinition): Promise<Bucket> {
      await checkChannels(teamId, data.channel_filter.ids);
      const made = await repo.create(teamId, name, data);
      if (!made) throw new AppError('CONFLICT', 409, `A bucket named '${name}' already exists`);
      return toBucket(made);
    },

    list: async (teamId: string) => (await repo.list(teamId)).map(toBucket),

    /** Evaluates the definition on the current data and keeps the members it found. */
    async execute(teamId: string, id: number, now = new Date()) {
      const b = await found(teamId, id);
      const q = await resolve(advanceAnalyticsFilter.parse(bucketFilter(teamId, b.data)), now);
      const saved = await repo.saveRun(teamId, id, {
        at: now,
        fromDay: q.fromDay,
        toDay: q.toDay,
        channels: await channelLabel(q),
        matches: await members.matchesQuery(q),
      });
      if (!saved) throw notFound(`No bucket with id ${id} in this workspace`);
      const n = saved.lastCount ?? 0;
      return {
        data: { bucketdata: toBucket(saved) },
        message: `Bucket '${b.name}' executed: ${n} member${n === 1 ? '' : 's'}`,
      };
    },

    /**
     * The last run's rows: per member (Members basis), or per member and channel over the run's window
     * (Channels basis; a member without activity in those channels has one row with the run's counts). Empty
     * before the first run.
     */
    async result(teamId: string, id: number): Promise<BucketRow[]> {
      const b = await found(teamId, id);
      if (!b.lastExecute || !b.lastFromDay || !b.lastToDay) return [];
      const label = windowLabel(b.lastFromDay, b.lastToDay);
      const runRows = await repo.runRows(teamId, id);
      if (b.data.basis === 'channels') {
        if (runRows.length === 0) return [];
        const q: MemberQuery = {
          teamId,
          fromDay: b.lastFromDay,
          toDay: b.lastToDay,
          channels: [...new Set(b.data.channel_filter.ids)],
          tags: null,
          base: null,
          activity: null,
          search: null,
          memberIds: runRows.map((r) => r.member_id),
          sort: { field: 'activity', direction: 'desc' },
        };
        const rows = (await members.breakdown(q, { byDay: false })).rows.map((r) => fromBreakdown(r, label));
        // A member the run found with no activity in those channels (e.g. 'messages < 1') still has a row: the
        // bucket's count and its CSV agree.
        const listed = new Set(rows.map((r) => r.member_id));
        for (const r of runRows)
          if (!listed.has(r.member_id)) rows.push(toBucketRow(r, label, null, b.lastChannels ?? ''));
        return rows;
      }
      return runRows.map((r) => toBucketRow(r, label, null, b.lastChannels ?? ''));
    },

    /** Adds the tags to every member of the bucket's last run. */
    async addTags(teamId: string, id: number, tagIds: number[]) {
      const b = await found(teamId, id);
      if (!b.lastExecute)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          `Run the bucket '${b.name}' first: it has no members yet`,
        );
      const ids = await repo.memberIds(teamId, id);
      if (ids.length === 0)
        throw new AppError('VALIDATION_ERROR', 400, `The last run of '${b.name}' found no members to tag`);
      return deps.tags.addToMembers(teamId, ids, tagIds);
    },

    async remove(teamId: string, id: number) {
      const b = await found(teamId, id);
      if (!(await repo.remove(teamId, id))) throw notFound(`No bucket with id ${id} in this workspace`);
      return { message: `Bucket '${b.name}' deleted` };
    },

    /** Members of the buckets' last runs (an audience), once each; an unknown bucket id is a 400. */
    async audienceMembers(teamId: string, ids: number[]): Promise<string[]> {
      const unique = [...new Set(ids)];
      const known = new Set((await repo.list(teamId)).map((b) => b.id));
      const unknown = unique.filter((id) => !known.has(id));
      if (unknown.length > 0)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          `Unknown bucket id(s) in this workspace: ${unknown.slice(0, 5).join(', ')}`,
        );
      const out = new Set<string>();
      for (const id of unique) for (const m of await repo.memberIds(teamId, id)) out.add(m);
      return [...out];
    },
  };
};
