import { LEVEL_LABELS } from '@flywheel/shared/levels';
import { TRIGGER_LABELS, taskSummary, type WorkflowRow, type WorkflowTask } from '@flywheel/shared/workflows';
import { wallClock } from '@flywheel/shared/clock';
import type { ResolvedAudienceInput } from '@flywheel/shared/delivery';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Emit } from '../webhooks/service.ts';
import type { AudienceService } from '../audience/service.ts';
import type { DeliveryService } from '../delivery/service.ts';
import { formsRepo } from '../forms/repo.ts';
import { formRunnerRepo } from '../forms/runner-repo.ts';
import { channelNames, memberNames } from '../workspace-data/names.ts';
import { workflowHistoryRepo } from './history-repo.ts';
import { workflowsRepo, type TaskRecord, type WorkflowRecord } from './repo.ts';
import { workflowRunnerRepo } from './runner-repo.ts';
import { workflowTriggersRepo } from './triggers-repo.ts';

/*
 * What the workflows service's parts share (service.ts puts them together): its dependencies, the repositories,
 * the clock, the wake-ups of the senders, and how a workflow is shown.
 */

/** A step whose send failed (Slack or the database down) is tried again after this. */
export const RETRY_MS = 30_000;
/**
 * Activity and inactivity triggers look at the activity data at each minute's tick (at most every 30 s), back
 * to a minute before their last look (activity that arrived late).
 */
export const SCAN_EVERY_MS = 30_000;
export const LOOK_BACK_MS = 60_000;

export const DAY_MS = 86_400_000;

export const pad = (n: number) => String(n).padStart(2, '0');
export const iso = (t: string | number | Date) => new Date(t).toISOString();
export const bad = (message: string) => new AppError('VALIDATION_ERROR', 400, message);

/** 'DD-MM-YYYY' (dashes) or 'DD/MM/YYYY'. */
export const slashed = (date: string) => date.trim().replace(/-/g, '/');

export type WorkflowsDeps = {
  db: Db;
  audience: AudienceService;
  delivery: DeliveryService;
  /** Inside a transaction, pass it as `tx` (db/tx-guard.ts). */
  timezoneOf: (teamId: string, tx?: Tx) => Promise<string>;
  /** How long a worker holds the steps it claimed (default 2 minutes). */
  claimMs?: number;
  /**
   * Wakes a sender at `at` (a queued job that starts then): a step written with a delay (at a firing or after
   * the step before it) is sent within seconds of its time, not at the next minute's tick. Never called inside
   * a transaction (it writes through the pool).
   */
  wakeAt?: (at: Date) => Promise<void>;
  /** A step reaches a member at most once in this window (default 24 hours; 0: no limit). */
  memberCooldownMs?: number;
  logger: Logger;
  now?: () => number;
  /** Outbound webhooks (webhooks/service.ts `emit`): only queues, never throws. */
  emit?: Emit;
};

export const workflowsCore = (deps: WorkflowsDeps) => {
  const repo = workflowsRepo(deps.db);
  const triggersRepo = workflowTriggersRepo;
  const runnerRepo = workflowRunnerRepo(deps.db);
  const historyRepo = workflowHistoryRepo(deps.db);
  const forms = formsRepo(deps.db);
  const formsRunnerRepo = formRunnerRepo(deps.db);
  const now = () => deps.now?.() ?? Date.now();
  const claimMs = deps.claimMs ?? 120_000;
  const cooldownMs = deps.memberCooldownMs ?? DAY_MS;

  /** The times still ahead among these, to the next whole second (one wake-up a second), earliest first. */
  const ahead = (times: Date[]): Date[] => {
    const t = now();
    const seconds = new Set(
      times.map((d) => d.getTime()).flatMap((ms) => (ms > t ? [Math.ceil(ms / 1000) * 1000] : [])),
    );
    return [...seconds].sort((a, b) => a - b).map((ms) => new Date(ms));
  };

  /**
   * Wakes a sender at each of these due times still ahead (once their rows are committed). A lost wake-up is
   * logged, not thrown: the minute's tick still finds the step.
   */
  async function wake(times: Date[]): Promise<void> {
    if (!deps.wakeAt) return;
    for (const at of ahead(times)) {
      try {
        await deps.wakeAt(at);
      } catch (err) {
        deps.logger.warn(
          { err, at: at.toISOString() },
          'workflow step wake-up not queued; the tick sends it',
        );
      }
    }
  }

  const titleOf = (t: WorkflowTask) => (t.type === 'message' ? t.msgTitle : t.formTitle);

  /** Whom a step sends to: the task's own recipients, the triggered member, the trigger's tags and segments. */
  function audienceOf(task: WorkflowTask, memberId: string | null): ResolvedAudienceInput {
    return {
      channel_ids: task.channels,
      dms: {
        members: [...task.dms.members, ...(task.sendToSelectedUsers && memberId ? [memberId] : [])],
        tags: [...new Set([...task.dms.tags, ...task.triggerTags])],
        channels: task.dms.channels,
      },
      sendtoworkspace: task.sendToWorkspace,
      ...(task.triggerSegments.length ? { buckets: task.triggerSegments } : {}),
    };
  }

  function triggerSummary(w: WorkflowRecord, channel: string | null, tz: string, audience: string): string {
    switch (w.trigger_type) {
      case 'workspace_join':
        return 'When a member joins the workspace';
      case 'channel_join':
        return `When a member joins #${channel ?? w.channel_id}`;
      case 'activity':
        return w.days === 0
          ? 'When a member is active (once a day)'
          : `When a member is active again after ${w.days} day${w.days === 1 ? '' : 's'} without activity`;
      case 'inactivity':
        return `When a member has been inactive for ${w.days} day${w.days === 1 ? '' : 's'}`;
      case 'level_change':
        return `When a member becomes ${w.level ? LEVEL_LABELS[w.level] : 'a level'}`;
      case 'time': {
        const at = triggerAtOf(w, tz);
        return `At ${at?.date} ${at?.time} (${tz})${audience ? ` for ${audience}` : ''}`;
      }
    }
  }

  function triggerAtOf(w: WorkflowRecord, tz: string) {
    if (!w.trigger_at) return null;
    const c = wallClock(Date.parse(w.trigger_at), tz);
    return { date: `${pad(c.day)}-${pad(c.month)}-${c.year}`, time: `${pad(c.hour)}:${pad(c.minute)}` };
  }

  function audienceLabel(w: WorkflowRecord, tags: Map<number, string>, buckets: Map<number, string>) {
    const parts = [];
    if (w.tags.length) parts.push(`Tags: ${w.tags.map((t) => tags.get(t) ?? `#${t}`).join(', ')}`);
    if (w.segments.length)
      parts.push(`Segments: ${w.segments.map((b) => buckets.get(b) ?? `#${b}`).join(', ')}`);
    return parts.join(' · ');
  }

  async function rowsOf(list: WorkflowRecord[]): Promise<(WorkflowRow & { tasksFull: TaskRecord[] })[]> {
    if (!list.length) return [];
    const teamId = list[0]!.team_id;
    const ids = list.map((w) => w.id);
    const [tz, tasks, counts, channels, admins, tags, buckets] = await Promise.all([
      deps.timezoneOf(teamId),
      repo.tasksOf(ids),
      historyRepo.counts(ids),
      channelNames(
        deps.db,
        teamId,
        list.flatMap((w) => (w.channel_id ? [w.channel_id] : [])),
      ),
      memberNames(
        deps.db,
        teamId,
        list.flatMap((w) => (w.admin_user ? [w.admin_user] : [])),
      ),
      repo.tagNames(teamId, [...new Set(list.flatMap((w) => w.tags))]),
      repo.bucketNames(teamId, [...new Set(list.flatMap((w) => w.segments))]),
    ]);
    return list.map((w) => {
      const channel = w.channel_id ? (channels.get(w.channel_id) ?? null) : null;
      const own = tasks.get(w.id) ?? [];
      return {
        workflow_id: w.id,
        workflow_name: w.name,
        sender: w.sender === 'bot' ? 'b' : 'a',
        sender_label:
          w.sender === 'bot' ? 'Bot' : w.admin_user ? (admins.get(w.admin_user) ?? 'Admin') : 'Admin',
        admin_user: w.admin_user,
        trigger_type: w.trigger_type,
        type_label: TRIGGER_LABELS[w.trigger_type],
        status: w.active,
        channel: w.channel_id,
        channel_name: channel,
        level: w.level,
        days: w.days,
        trigger_at: triggerAtOf(w, tz),
        trigger_summary: triggerSummary(w, channel, tz, audienceLabel(w, tags, buckets)),
        tags: w.tags.map((id) => ({ id, name: tags.get(id) ?? `#${id}` })),
        segments: w.segments.map((id) => ({ id, name: buckets.get(id) ?? `#${id}` })),
        tasks: own.map((t) => {
          const delay = t.delay_unit ? { delay_unit: t.delay_unit, delay_in_secs: t.delay_secs } : null;
          const c = counts.steps.get(`${w.id}:${t.position}`);
          return {
            task_id: t.id,
            position: t.position,
            details: {
              type: t.type,
              ...(t.type === 'message' ? { msgTitle: t.title } : { formTitle: t.title }),
              delay,
            },
            form_id: t.form_id,
            summary: taskSummary({ type: t.type, title: t.title, delay }),
            sent: c?.sent ?? 0,
            pending: c?.pending ?? 0,
          };
        }),
        triggered: counts.triggered.get(w.id) ?? 0,
        timezone: tz,
        created_at: iso(w.created_at),
        tasksFull: own,
      };
    });
  }

  async function workflowOf(teamId: string, id: number) {
    const w = await repo.find(teamId, id);
    if (!w) throw notFound('No such workflow in this workspace');
    return w;
  }

  return {
    deps,
    repo,
    triggersRepo,
    runnerRepo,
    historyRepo,
    forms,
    formsRunnerRepo,
    now,
    claimMs,
    cooldownMs,
    ahead,
    wake,
    titleOf,
    audienceOf,
    audienceLabel,
    rowsOf,
    workflowOf,
  };
};
export type WorkflowsCore = ReturnType<typeof workflowsCore>;
