import { mentionedIds, namesFrom, readableMentions } from '@flywheel/shared/mentions';
import type { ActionLogRow, DailyActivity, MemberInfo } from '@flywheel/shared/members';
import { notFound } from '../../lib/errors.ts';
import type { Db } from '../../db/client.ts';
import { localDay } from '../../lib/days.ts';
import { addDays, dayRange } from '../members-list/service.ts';
import type { TagsService } from '../tags/service.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { micros, toMember } from '../workspace-data/member-dto.ts';
import { activityReads } from '../activity/reads.ts';
import { levelsRepo } from '../activity/levels.ts';
import { memberRepo } from './repo.ts';

export type MemberService = ReturnType<typeof memberService>;

const ACTION_LOG_LIMIT = 500;

/** One member's page: profile, charts, per-channel table and action log. */
export const memberService = (deps: { db: Db; workspaces: WorkspacesService; tags: TagsService }) => {
  const repo = memberRepo(deps.db);
  const reads = activityReads(deps.db);
  const range = async (teamId: string, days: number, now: Date) => {
    const tz = await deps.workspaces.timezone(teamId);
    return dayRange({ type: 'static', days }, localDay(now, tz));
  };
  const assertMember = async (teamId: string, memberId: string) => {
    if (!(await repo.exists(teamId, memberId))) throw notFound('This member is not in the workspace');
  };

  return {
    async info(teamId: string, memberId: string): Promise<MemberInfo> {
      const m = await reads.memberInfo(teamId, memberId);
      if (!m) throw notFound('This member is not in the workspace');
      const [tags, channels, historyStart, level] = await Promise.all([
        deps.tags.ofMembers(teamId, [memberId]),
        repo.channels(teamId, memberId),
        reads.historyStart(teamId),
        levelsRepo(deps.db).ofMember(teamId, memberId),
      ]);
      return {
        ...toMember(m, null),
        level: level.level,
        level_since: level.since,
        level_history: level.history,
        is_owner: m.is_owner,
        left_at: micros(m.left_at),
        history_start: historyStart,
        tags: tags.get(memberId) ?? [],
        channels,
      };
    },

    /** Every day of the window (zeros included), oldest first. */
    async activity(
      teamId: string,
      memberId: string,
      days: number,
      now = new Date(),
    ): Promise<DailyActivity[]> {
      await assertMember(teamId, memberId);
      const { fromDay, toDay } = await range(teamId, days, now);
      const got = new Map(
        (await reads.memberPerDay(teamId, memberId, fromDay, toDay)).map((r) => [r.day, r]),
      );
      const out: DailyActivity[] = [];
      for (let d = fromDay; d <= toDay; d = addDays(d, 1)) {
        const r = got.get(d);
        out.push({
          date_of_data: d,
          messages: r?.messages ?? 0,
          replies: r?.replies ?? 0,
          reactions: r?.reactions ?? 0,
        });
      }
      return out;
    },

    async channelActivity(teamId: string, memberId: string, days: number, now = new Date()) {
      await assertMember(teamId, memberId);
      const { fromDay, toDay } = await range(teamId, days, now);
      return (await reads.memberPerChannel(teamId, memberId, fromDay, toDay)).map((r) => ({
        ...r,
        channel_name: r.channel_name ?? r.channel_id,
      }));
    },

    async pie(teamId: string, memberId: string, days: number, now = new Date()) {
      const rows = await this.channelActivity(teamId, memberId, days, now);
      return rows
        .map((r) => ({
          channel_id: r.channel_id,
          channel_name: r.channel_name,
          activity: r.messages + r.replies + r.reactions,
        }))
        .sort((a, b) => b.activity - a.activity);
    },

    /** The Actions tab: the member's messages, replies and reactions of the last 7 days, mentions readable. */
    async last7days(teamId: string, memberId: string, now = new Date()): Promise<ActionLogRow[]> {
      const m = await reads.memberInfo(teamId, memberId);
      if (!m) throw notFound('This member is not in the workspace');
      const rows = await repo.actions(
        teamId,
        memberId,
        new Date(now.getTime() - 7 * 86400_000),
        ACTION_LOG_LIMIT,
      );
      const ids = { members: new Set<string>(), channels: new Set<string>() };
      for (const r of rows) {
        const found = mentionedIds(r.content);
        found.members.forEach((id) => ids.members.add(id));
        found.channels.forEach((id) => ids.channels.add(id));
      }
      const names = namesFrom(
        await repo.memberNames(teamId, [...ids.members]),
        await repo.channelNames(teamId, [...ids.channels]),
      );
      return rows.map((r) => ({
        ts: r.ts,
        at: Number(r.at),
        real_name: m.real_name || m.display_name,
        channel_id: r.channel_id,
        channel_name: r.channel_name ?? r.channel_id,
        content: readableMentions(r.content, names),
        activity_type: r.activity_type,
        ...(r.activity_type === 'message' ? { is_pinned: r.is_pinned } : {}),
      }));
    },

    async channelsOf(teamId: string, memberId: string) {
      await assertMember(teamId, memberId);
      return repo.channels(teamId, memberId);
    },
  };
};
