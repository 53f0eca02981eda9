import { CONVERSATION_TEXTS } from '@flywheel/shared/conversations';
import {
  DEFAULT_RESPONSE_DAYS,
  type QuestionsQuery,
  type QuestionsResponse,
  type ResponseStats,
  type ResponseTimesResponse,
} from '@flywheel/shared/questions';
import { addDays, localDay } from '../../lib/days.ts';
import { notFound } from '../../lib/errors.ts';
import { DAY_MS, decodeCursor, encodeCursor, searchQueryOf, type ConversationsCore } from './core.ts';

/** The Questions page: unanswered questions, Mark handled, response times (docs/product/questions.md). */
export const questionReads = ({
  searchRepo,
  questions,
  now,
  originOf,
  readable,
  toThread,
}: ConversationsCore) => ({
  /**
   * Unanswered questions (docs/product/questions.md): asked in the last `max_age_days`, unanswered for at
   * least `answer_after_minutes`, not marked handled; newest first, a page at a time, with their total.
   */
  async unansweredQuestions(teamId: string, f: QuestionsQuery): Promise<QuestionsResponse> {
    const after = decodeCursor(f.cursor);
    const at = now().getTime();
    const query = f.q?.trim() ? searchQueryOf(f.q) : null;
    const filter = {
      from: new Date(at - f.max_age_days * DAY_MS),
      dueBy: new Date(at - f.answer_after_minutes * 60_000),
      channelId: f.channel_id ?? null,
      q: query,
    };
    const origin = await originOf(teamId);
    if (query && !(await searchRepo.hasWords(query))) return { data: [], total: 0, next_cursor: null };
    const rows = await questions.unanswered(teamId, filter, after, f.limit + 1);
    const total = await questions.countUnanswered(teamId, filter);
    const page = rows.slice(0, f.limit);
    const read = await readable(
      teamId,
      page.map((r) => r.text),
    );
    const last = page[page.length - 1];
    return {
      data: page.map(toThread(origin, read)),
      total,
      next_cursor:
        rows.length > f.limit && last
          ? encodeCursor({ at: new Date(Number(last.at)), ts: last.ts, channelId: last.channel_id })
          : null,
    };
  },

  /** 'Mark handled': the question leaves the unanswered list for every admin (the first mark kept). */
  async markQuestionHandled(teamId: string, channelId: string, ts: string, userId: string | null) {
    if (!(await questions.isTopLevel(teamId, channelId, ts))) throw notFound(CONVERSATION_TEXTS.noSuchThread);
    await questions.markHandled(teamId, channelId, ts, userId);
  },

  /**
   * Response times of the questions asked in a range of local days (default: the last 90, today included):
   * overall, per week and per channel.
   */
  async responseTimes(
    teamId: string,
    range: { days?: number; start_date?: string; end_date?: string },
  ): Promise<ResponseTimesResponse> {
    const tz = (await questions.timezone(teamId)) ?? 'UTC';
    const today = localDay(now(), tz);
    const fromDay = range.start_date ?? addDays(today, -((range.days ?? DEFAULT_RESPONSE_DAYS) - 1));
    const toDay = range.end_date ?? today;
    const rows = await questions.responseTimes(teamId, tz, fromDay, toDay);
    const stats = (r: (typeof rows)[number] | undefined): ResponseStats => ({
      questions: r?.questions ?? 0,
      answered: r?.answered ?? 0,
      median_seconds: r?.median ?? null,
      p90_seconds: r?.p90 ?? null,
      within_1h: r && r.questions > 0 ? r.within_1h / r.questions : null,
      within_24h: r && r.questions > 0 ? r.within_24h / r.questions : null,
    });
    return {
      start_date: fromDay,
      end_date: toDay,
      timezone: tz,
      total: stats(rows.find((r) => r.by === 'total')),
      weeks: rows
        .filter((r) => r.by === 'week')
        .map((r) => ({ week: r.week!, ...stats(r) }))
        .sort((a, b) => a.week.localeCompare(b.week)),
      channels: rows
        .filter((r) => r.by === 'channel')
        .map((r) => ({
          channel_id: r.channel_id!,
          channel_name: r.channel_name ?? r.channel_id!,
          ...stats(r),
        }))
        .sort((a, b) => b.questions - a.questions || a.channel_name.localeCompare(b.channel_name)),
    };
  },
});
