import {
  DIGEST_LIST_SIZE,
  dayStart,
  weekOfDay,
  type Digest,
  type DigestNumber,
  type DigestWeek,
} from '@flywheel/shared/digest';
import { DEFAULT_ANSWER_AFTER_MINUTES } from '@flywheel/shared/questions';
import { ENGAGEMENT_LEVELS } from '@flywheel/shared/levels';
import type { Db } from '../../db/client.ts';
import { addDays, localDay } from '../../lib/days.ts';
import { notFound } from '../../lib/errors.ts';
import { levelChangesOfDays } from '../activity/levels.ts';
import { activityReads } from '../activity/reads.ts';
import { change } from '../analytics/service.ts';
import type { ConversationsService } from '../conversations/service.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import { digestRepo } from './repo.ts';

/** Pages of the web app each part of the digest links to (paths; the e-mail makes them absolute). */
export const DIGEST_LINKS = {
  analytics: '/dashboard/analytics',
  questions: '/dashboard/actions/questions',
  threads: '/dashboard/actions/threads',
  receipts: '/dashboard/receipts',
  members: '/dashboard/members',
  digest: '/dashboard/settings/digest',
} as const;

const membersLink = (q: Record<string, string>) =>
  `${DIGEST_LINKS.members}?${new URLSearchParams(q).toString()}`;
const ACTIVE = ['champion', 'regular', 'casual'] as const;
const AWAY = ['slipping', 'dormant'] as const;

export type DigestComposer = ReturnType<typeof digestComposer>;

/**
 * The digest of one workspace's week (docs/product/digest.md): the same for every admin of it, made from the
 * owners' reads (activity rollups, conversations, level changes, receipts) in the workspace's timezone.
 */
export function digestComposer(deps: {
  db: Db;
  workspaces: WorkspacesService;
  conversations: ConversationsService;
  now?: () => number;
}) {
  const reads = activityReads(deps.db);
  const repo = digestRepo(deps.db);
  const now = deps.now ?? Date.now;

  return {
    /** The week a local day falls in (default: the last whole week), for the preview. */
    async weekFor(teamId: string, day?: string): Promise<{ week: DigestWeek; timezone: string }> {
      const timezone = await deps.workspaces.timezone(teamId);
      const today = localDay(new Date(now()), timezone);
      return { week: weekOfDay(day ?? addDays(today, -7), timezone), timezone };
    },

    async compose(teamId: string, week: DigestWeek): Promise<Digest> {
      const ws = await deps.workspaces.find(teamId);
      if (!ws) throw notFound('No such workspace');
      const tz = ws.timezone || 'UTC';
      const prev = { start: addDays(week.start, -7), end: addDays(week.start, -1) };
      const at = (day: string) => new Date(dayStart(day, tz));
      const from = at(week.start);
      const to = at(addDays(week.end, 1));
      const prevFrom = at(prev.start);
      const cur = { teamId, fromDay: week.start, toDay: week.end };
      const before = { teamId, fromDay: prev.start, toDay: prev.end };
      const [a, b, activeA, activeB, eventsA, eventsB, historyStart] = await Promise.all([
        reads.totals(cur),
        reads.totals(before),
        reads.activeMembers(cur),
        reads.activeMembers(before),
        reads.eventsBetween(teamId, from, to),
        reads.eventsBetween(teamId, prevFrom, from),
        reads.historyStart(teamId),
      ]);
      const history = { prevFrom: prev.start, historyStart };
      const number = (name: string, value: number, previous: number): DigestNumber => {
        const c = change(name, value, previous, history);
        return {
          name,
          value,
          previous,
          percent: c.percent,
          sign: c.sign,
          comparison: c.comparison ?? 'change',
        };
      };
      const days = { fromDay: week.start, toDay: week.end };
      const [times, questions, threads, joined, slipping, returning, sends] = await Promise.all([
        deps.conversations.responseTimes(teamId, { start_date: week.start, end_date: week.end }),
        deps.conversations.unansweredQuestions(teamId, {
          max_age_days: 7,
          answer_after_minutes: DEFAULT_ANSWER_AFTER_MINUTES,
          limit: DIGEST_LIST_SIZE,
        }),
        deps.conversations.threads(teamId, {
          start: from.toISOString(),
          end: new Date(Math.min(to.getTime(), now()) - 1).toISOString(),
          channel: null,
          limit: DIGEST_LIST_SIZE,
          sort: 'replies',
          direction: 'desc',
        }),
        repo.joined(teamId, from, to, DIGEST_LIST_SIZE),
        levelChangesOfDays(
          deps.db,
          teamId,
          days,
          { from: ENGAGEMENT_LEVELS.filter((l) => l !== 'slipping'), to: ['slipping'] },
          DIGEST_LIST_SIZE,
        ),
        levelChangesOfDays(deps.db, teamId, days, { from: AWAY, to: ACTIVE }, DIGEST_LIST_SIZE),
        repo.sends(teamId, from, to, DIGEST_LIST_SIZE),
      ]);
      return {
        team_id: teamId,
        workspace_name: ws.name,
        timezone: tz,
        week: { start: week.start, end: week.end },
        previous_week: prev,
        complete: now() >= to.getTime(),
        numbers: [
          number('Messages', a.messages, b.messages),
          number('Replies', a.replies, b.replies),
          number('Reactions', a.reactions, b.reactions),
          number('Active members', activeA, activeB),
          number('New members', eventsA.joins, eventsB.joins),
          number('Members left', eventsA.leaves, eventsB.leaves),
        ],
        response_times: {
          questions: times.total.questions,
          answered: times.total.answered,
          median_seconds: times.total.median_seconds,
          within_24h: times.total.within_24h,
          link: DIGEST_LINKS.analytics,
        },
        questions: { total: questions.total, top: questions.data, link: DIGEST_LINKS.questions },
        members: {
          new: { ...joined, link: membersLink({ join_from: week.start, join_to: week.end }) },
          slipping: { ...slipping, link: membersLink({ level: 'slipping' }) },
          returning: { ...returning, link: DIGEST_LINKS.members },
        },
        threads: {
          top: threads.data.filter((t) => t.replies > 0),
          link: DIGEST_LINKS.threads,
        },
        sends: {
          count: sends.count,
          recipients: sends.recipients,
          sent: sends.sent,
          failed: sends.failed,
          with_failures: sends.failures.map((f) => ({
            ...f,
            link: `${DIGEST_LINKS.receipts}?receipt=${f.receipt_id}`,
          })),
          link: DIGEST_LINKS.receipts,
        },
      };
    },
  };
}
