import {
  ACTION_TEXTS,
  type ActionRow,
  type createAutomationBody,
  type createScheduledBody,
  type updateActionBody,
} from '@flywheel/shared/actions';
import {
  DAY_CODES,
  MAX_LEAD_MS,
  MIN_LEAD_MS,
  nextRun,
  parseLocalDateTime,
  parseTime,
  wallClock,
  type DayCode,
} from '@flywheel/shared/clock';
import type { z } from 'zod';
import { AppError, notFound } from '../../lib/errors.ts';
import { actionsRepo, type ActionRecord } from './repo.ts';
import { actionsRunner, recurrenceOf, type ActionsDeps } from './runner.ts';

type AutomationBody = z.output<typeof createAutomationBody>;
type ScheduledBody = z.output<typeof createScheduledBody>;
type UpdateBody = z.output<typeof updateActionBody>;

const pad = (n: number) => String(n).padStart(2, '0');

const DAY_NAMES: Record<DayCode, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thurs: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

const isBulk = (a: Pick<ActionRecord, 'send_to_workspace' | 'dm_tags' | 'dm_channels'>) =>
  a.send_to_workspace || a.dm_tags.length > 0 || a.dm_channels.length > 0;

/**
 * Automations (a welcome on every join) and schedules (messages on a local clock). Both send through the
 * delivery engine: each run is one receipt, named by the run, so it happens once whatever asks twice.
 */
export const actionsService = (deps: ActionsDeps) => {
  const repo = actionsRepo(deps.db);
  const now = () => deps.now?.() ?? Date.now();

  /** The targets must name this workspace's members, tags and channels (checked now, resolved at each run). */
  async function checkTargets(
    teamId: string,
    a: { channel_ids: string[]; dms: AutomationBody['dms']; sendtoworkspace: boolean },
  ) {
    await deps.audience.resolve(teamId, { channel_ids: a.channel_ids, dms: a.dms, sendtoworkspace: false });
  }

  /**
   * A new automation or schedule: its targets as `checkTargets`, and, when a run reaches the whole workspace or
   * more than SEND_CONFIRM_OVER recipients today, the count the person confirmed (409 with the count otherwise);
   * a run must fit in the daily budget.
   */
  async function checkNewTargets(teamId: string, b: AutomationBody | ScheduledBody): Promise<number> {
    await checkTargets(teamId, b);
    const r = await deps.delivery.confirmAudience(
      teamId,
      { channel_ids: b.channel_ids, dms: b.dms, sendtoworkspace: b.sendtoworkspace },
      b.confirm_recipients ?? null,
    );
    return r.members.length + r.channels.length;
  }

  /**
   * A new Every Day or Weekly schedule must fit, on each of its days, in the daily budget beside the schedules
   * already planned for that day (their audiences as they are now): 120 daily whole-workspace schedules are not
   * accepted to be skipped every day (429 naming what the day already plans).
   */
  async function checkPlannedVolume(teamId: string, days: readonly DayCode[], size: number) {
    const { budget } = await deps.delivery.budget(teamId);
    if (budget === null) return;
    const others = await repo.recurringSchedules(teamId);
    const sizes = await deps.audience.resolveMany(
      teamId,
      others.map((a) => ({
        channel_ids: a.channel_ids,
        dms: { members: a.dm_members, tags: a.dm_tags, channels: a.dm_channels },
        sendtoworkspace: a.send_to_workspace,
      })),
    );
    const daysOf = (a: Pick<ActionRecord, 'frequency' | 'days'>) =>
      a.frequency === 'Everyday' ? DAY_CODES : (a.days as DayCode[]);
    for (const day of days) {
      let planned = 0;
      others.forEach((a, i) => {
        const r = sizes[i]!;
        if (!(r instanceof Error) && daysOf(a).includes(day)) planned += r.members.length + r.channels.length;
      });
      if (planned + size > budget) {
        const n = (v: number) => v.toLocaleString('en-US');
        throw new AppError(
          'SEND_BUDGET_EXCEEDED',
          429,
          `Not scheduled: the workspace's schedules already send ${n(planned)} messages on ${DAY_NAMES[day]}s; ` +
            `this one would add ${n(size)}, over its daily budget of ${n(budget)}`,
          {},
          { remaining: Math.max(0, budget - planned), budget, needed: size },
        );
      }
    }
  }

  async function toRow(a: ActionRecord, tz: string): Promise<ActionRow> {
    const [members, channels] = await Promise.all([
      repo.memberNames(a.team_id, a.dm_members.slice(0, 10)),
      repo.channelNames(a.team_id, a.channel_ids),
    ]);
    let daysDate = a.days.join(', ');
    if (a.frequency === 'onetime' && a.run_at) {
      const w = wallClock(Date.parse(a.run_at), tz);
      daysDate = `${pad(w.day)}/${pad(w.month)}/${w.year}`;
    }
    return {
      id: a.id,
      kind: a.kind,
      trigger_name: a.name,
      message_sender: a.sender === 'bot' ? 'b' : 'a',
      sender_label: a.sender === 'bot' ? 'Bot' : 'Admin',
      admin_user: a.admin_user,
      message: a.message,
      htmlmessage: a.html,
      images: a.images,
      channel_ids: a.channel_ids,
      channels: a.channel_ids.map((c) => channels.get(c) ?? c),
      user_ids: a.dm_members,
      users: a.dm_members.slice(0, 10).map((m) => members.get(m) ?? m),
      dms: { members: a.dm_members, tags: a.dm_tags, channels: a.dm_channels },
      sendtoworkspace: a.send_to_workspace,
      send_dm: a.send_dm,
      bulkdm: isBulk(a),
      frequency: a.frequency,
      days: a.days as DayCode[],
      time:
        a.frequency === 'onetime' && a.run_at
          ? (() => {
              const w = wallClock(Date.parse(a.run_at!), tz);
              return `${pad(w.hour)}:${pad(w.minute)}`;
            })()
          : a.time,
      days_date: daysDate,
      timezone: tz,
      next_run: a.next_run_at ? new Date(a.next_run_at).toISOString() : null,
      last_run: a.last_run_at ? new Date(a.last_run_at).toISOString() : null,
      active: a.active,
    };
  }

  async function rowOf(teamId: string, id: number): Promise<ActionRow> {
    const a = await repo.find(teamId, id);
    if (!a) throw notFound('No such automation or schedule in this workspace');
    return toRow(a, await deps.timezoneOf(teamId));
  }

  const base = (teamId: string, userId: string | null, b: AutomationBody | ScheduledBody) => ({
    team_id: teamId,
    name: b.trigger_name,
    sender: b.message_sender,
    admin_user: b.message_sender === 'admin' ? (b.admin_user ?? null) : null,
    message: b.message,
    html: b.htmlmessage ?? '',
    images: b.images,
    channel_ids: b.channel_ids,
    dm_members: b.dms.members,
    dm_tags: b.dms.tags,
    dm_channels: b.dms.channels,
    send_to_workspace: b.sendtoworkspace,
    created_by: userId,
  });

  return {
    async createAutomation(userId: string | null, b: AutomationBody): Promise<ActionRow> {
      await checkNewTargets(b.team_id, b);
      const id = await repo.insert({
        ...base(b.team_id, userId, b),
        kind: 'automation',
        send_dm: b.send_dm,
        frequency: null,
        days: [],
        time: null,
        run_at: null,
        next_run_at: null,
      });
      return rowOf(b.team_id, id);
    },

    async createScheduled(userId: string | null, b: ScheduledBody): Promise<ActionRow> {
      const tz = await deps.timezoneOf(b.team_id);
      const t = now();
      let runAt: number | null = null;
      if (b.frequency === 'onetime') {
        runAt = parseLocalDateTime(b.post_at!.date!, b.post_at!.time!, tz);
        if (runAt === null) throw new AppError('VALIDATION_ERROR', 400, ACTION_TEXTS.invalidDateTime);
        if (runAt <= t) throw new AppError('VALIDATION_ERROR', 400, ACTION_TEXTS.pastTime);
        if (runAt < t + MIN_LEAD_MS || runAt > t + MAX_LEAD_MS)
          throw new AppError('VALIDATION_ERROR', 400, ACTION_TEXTS.invalidRange);
      } else if (!parseTime(b.time!))
        throw new AppError('VALIDATION_ERROR', 400, ACTION_TEXTS.invalidDateTime);
      const size = await checkNewTargets(b.team_id, b);
      if (b.frequency !== 'onetime')
        await checkPlannedVolume(b.team_id, b.frequency === 'Everyday' ? DAY_CODES : b.days, size);
      const fields = {
        frequency: b.frequency,
        days: b.frequency === 'Weekly' ? [...new Set(b.days)] : [],
        time: b.frequency === 'onetime' ? null : b.time!,
        run_at: runAt === null ? null : new Date(runAt).toISOString(),
      };
      const next = nextRun(recurrenceOf(fields)!, t, tz);
      const id = await repo.insert({
        ...base(b.team_id, userId, b),
        kind: 'schedule',
        send_dm: false,
        ...fields,
        next_run_at: next === null ? null : new Date(next).toISOString(),
      });
      return rowOf(b.team_id, id);
    },

    async list(teamId: string, kind: 'automation' | 'schedule', search?: string): Promise<ActionRow[]> {
      const tz = await deps.timezoneOf(teamId);
      return Promise.all(
        (await repo.list(teamId, kind, search?.trim() || undefined)).map((a) => toRow(a, tz)),
      );
    },

    async update(b: UpdateBody): Promise<ActionRow> {
      const a = await repo.find(b.team_id, b.id);
      if (!a) throw notFound('No such automation or schedule in this workspace');
      if (isBulk(a)) throw new AppError('VALIDATION_ERROR', 400, ACTION_TEXTS.bulkDmEdit);
      const members = b.user_ids ?? a.dm_members;
      const channels = b.channel_ids ?? a.channel_ids;
      if (members.length + channels.length === 0 && !a.send_dm)
        throw new AppError(
          'VALIDATION_ERROR',
          400,
          a.kind === 'automation' ? ACTION_TEXTS.automationTarget : ACTION_TEXTS.scheduleTarget,
        );
      await checkTargets(b.team_id, {
        channel_ids: channels,
        dms: { members, tags: [], channels: [] },
        sendtoworkspace: false,
      });
      await repo.update(b.team_id, b.id, {
        dm_members: b.user_ids,
        channel_ids: b.channel_ids,
        message: b.message,
        html: b.htmlmessage,
      });
      return rowOf(b.team_id, b.id);
    },

    async remove(teamId: string, id: number): Promise<void> {
      if (!(await repo.remove(teamId, id)))
        throw notFound('No such automation or schedule in this workspace');
    },

    ...actionsRunner(deps),
  };
};
export type ActionsService = ReturnType<typeof actionsService>;
