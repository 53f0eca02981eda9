import { LEVEL_LABELS } from '@flywheel/shared/levels';
import { levelChangesBetween } from '../activity/levels.ts';
import {
  TRIGGER_LABELS,
  taskSummary,
  WORKFLOW_LIMITS,
  WORKFLOW_TEXTS,
  type ActionHistory,
  type CreateWorkflowBody,
  type TriggerHistory,
  type WorkflowDetail,
  type WorkflowRow,
  type WorkflowTask,
} from '@flywheel/shared/workflows';
import { parseLocalDateTime, wallClock } from '@flywheel/shared/clock';
import { DEFAULT_ACK_MESSAGE } from '@flywheel/shared/forms';
import type { ResolvedAudienceInput } from '@flywheel/shared/delivery';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { clearAttempts, countAttempts, MAX_PLAN_ATTEMPTS } from '../../lib/plan-due.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Emit } from '../webhooks/service.ts';
import type { AudienceService } from '../audience/service.ts';
import type { DeliveryService, SendRequest } from '../delivery/service.ts';
import { membersActiveAgain } from '../activity/reads.ts';
import { formMessage } from '../forms/modal.ts';
import { formsRepo } from '../forms/repo.ts';
import { channelNames, memberNames } from '../workspace-data/names.ts';
import {
  workflowsRepo,
  type ClaimedStep,
  type Firing,
  type TaskRecord,
  type WorkflowRecord,
} from './repo.ts';

/** A step whose send failed (Slack or the database down) is tried again after this. */
const RETRY_MS = 30_000;
/**
 * Activity and inactivity triggers look at the activity data at each minute's tick (at most every 30 s), back
 * to a minute before their last look (activity that arrived late).
 */
const SCAN_EVERY_MS = 30_000;
const LOOK_BACK_MS = 60_000;

const DAY_MS = 86_400_000;

const pad = (n: number) => String(n).padStart(2, '0');
const iso = (t: string | number | Date) => new Date(t).toISOString();
const bad = (message: string) => new AppError('VALIDATION_ERROR', 400, message);

/** 'DD-MM-YYYY' (dashes) or 'DD/MM/YYYY'. */
const slashed = (date: string) => date.trim().replace(/-/g, '/');

/**
 * Workflows: a trigger fires for a member (a join, a channel join, crossing the activity threshold) or once at a
 * time for an audience of tags and segments; each firing runs the tasks as a chain of steps, each due its delay
 * after the previous one and sent through the delivery engine (messages) or as a form instance (forms). Only the
 * next step of a chain exists as a row, written in the same statement that finishes the step before it, so a
 * chain survives restarts, deploys and crashes; each step is claimed by one worker and sent with a key that
 * names it, so it is sent once.
 */
export const workflowsService = (deps: {
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
}) => {
  const repo = workflowsRepo(deps.db);
  const forms = formsRepo(deps.db);
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
      repo.counts(ids),
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

  /** The trigger's and tasks' references must name this workspace's channels, members, tags and buckets. */
  async function checkReferences(b: CreateWorkflowBody) {
    if (b.trigger_type === 'channel_join') {
      const names = await channelNames(deps.db, b.team_id, [b.channel!]);
      if (!names.has(b.channel!)) throw bad(`No channel of this workspace matches: ${b.channel}`);
    }
    const [tags, buckets] = await Promise.all([
      repo.tagNames(b.team_id, b.tags),
      repo.bucketNames(b.team_id, b.segments),
    ]);
    const missingTags = b.tags.filter((t) => !tags.has(t));
    if (missingTags.length) throw bad(`No tag of this workspace has the id: ${missingTags.join(', ')}`);
    const missingBuckets = b.segments.filter((s) => !buckets.has(s));
    if (missingBuckets.length)
      throw bad(`No segment of this workspace has the id: ${missingBuckets.join(', ')}`);
    for (const [i, task] of b.tasks.entries()) {
      try {
        await deps.audience.resolve(b.team_id, { ...audienceOf(task, null), sendtoworkspace: false });
      } catch (err) {
        if (err instanceof AppError) throw bad(`Step ${i + 1} (${titleOf(task)}): ${err.message}`);
        throw err;
      }
    }
  }

  /** Builds what each claimed step sends; form steps get their instance (held, named by the step) first. */
  async function requestsOf(
    steps: ClaimedStep[],
    workflows: Map<number, WorkflowRecord>,
    tasks: Map<number, TaskRecord[]>,
  ) {
    const at = new Date(now());
    const taskOf = (s: ClaimedStep) => tasks.get(s.workflow_id)?.find((t) => t.position === s.position);
    const formSteps = steps.filter((s) => taskOf(s)?.type === 'form' && taskOf(s)?.form_id);
    const instances = await forms.holdInstances(
      formSteps.map((s) => ({
        formId: taskOf(s)!.form_id!,
        teamId: s.team_id,
        key: `workflow-step:${s.id}`,
        audience: audienceOf(taskOf(s)!.content, s.member_id),
      })),
      at,
      claimMs,
    );
    return steps.map((s) => {
      const w = workflows.get(s.workflow_id);
      const t = taskOf(s);
      if (!w || !t) return null;
      const task = t.content;
      const base = {
        teamId: s.team_id,
        userId: null,
        actionType: 'Workflow' as const,
        sender: w.sender,
        adminUser: w.admin_user,
        audience: audienceOf(task, s.member_id),
        // A mention token: the receipts list shows the member's name (the stored text keeps the id).
        description: `${w.name}: ${t.title}${s.member_id ? ` (for <@${s.member_id}>)` : ''}`,
        deferWake: true,
        origin: 'automation' as const,
        // However many firings ask (ten members active: ten firings), a step reaches a member once a window.
        ...(cooldownMs > 0
          ? { memberLimit: { scope: `workflow:${w.id}:${s.position}`, windowMs: cooldownMs, at } }
          : {}),
      };
      // A step whose recipients do not depend on the firing's member (the workspace, tags, channels) is one
      // send per window, whichever firing asks first: the others answer its receipt.
      const broadcast = task.sendToWorkspace || !(task.sendToSelectedUsers && s.member_id);
      const window = Math.floor(at.getTime() / (cooldownMs || DAY_MS));
      if (task.type === 'message')
        return {
          instanceId: null,
          req: {
            ...base,
            text: task.text,
            images: task.images,
            idempotencyKey: broadcast
              ? `workflow-broadcast:${w.id}:${s.position}:${window}`
              : `workflow-step:${s.id}`,
          } satisfies SendRequest,
        };
      const instanceId = instances.get(`workflow-step:${s.id}`) ?? null;
      if (instanceId === null) return null;
      const message = formMessage({ name: task.formTitle, description: task.formDescription }, instanceId);
      return {
        instanceId,
        req: {
          ...base,
          text: message.text,
          blocks: message.blocks,
          images: [],
          // The form engine's own key for the instance: whoever sends it, it is one receipt.
          idempotencyKey: `form-instance:${instanceId}`,
        } satisfies SendRequest,
      };
    });
  }

  const service = {
    async create(userId: string | null, b: CreateWorkflowBody): Promise<WorkflowRow> {
      const tz = await deps.timezoneOf(b.team_id);
      const t = now();
      let triggerAt: number | null = null;
      if (b.trigger_type === 'time') {
        triggerAt = parseLocalDateTime(slashed(b.trigger_at!.date!), b.trigger_at!.time!.trim(), tz);
        if (triggerAt === null) throw bad(WORKFLOW_TEXTS.invalidDateTime);
        if (triggerAt < t + WORKFLOW_LIMITS.minLeadMs || triggerAt > t + WORKFLOW_LIMITS.maxLeadMs)
          throw bad(WORKFLOW_TEXTS.invalidRange);
      }
      if (b.sender === 'admin') {
        const admins = await memberNames(deps.db, b.team_id, [b.admin_user!]);
        if (!admins.has(b.admin_user!)) throw bad('admin_user is not a member of this workspace');
      }
      await checkReferences(b);
      const id = await repo.transaction(async (tx) => {
        const workflowId = await repo.insertWorkflow(
          tx,
          {
            team_id: b.team_id,
            name: b.workflow_name,
            sender: b.sender,
            admin_user: b.sender === 'admin' ? (b.admin_user ?? null) : null,
            trigger_type: b.trigger_type,
            channel_id: b.trigger_type === 'channel_join' ? (b.channel ?? null) : null,
            level: b.trigger_type === 'level_change' ? (b.level ?? null) : null,
            days: b.trigger_type === 'activity' || b.trigger_type === 'inactivity' ? (b.days ?? 0) : null,
            trigger_at: triggerAt === null ? null : iso(triggerAt),
            tags: b.trigger_type === 'time' ? b.tags : [],
            segments: b.trigger_type === 'time' ? b.segments : [],
            created_by: userId,
          },
          new Date(t),
        );
        const rows: Omit<TaskRecord, 'id'>[] = [];
        for (const [position, task] of b.tasks.entries()) {
          let formId: number | null = null;
          if (task.type === 'form')
            formId = await forms.insertForm(
              {
                team_id: b.team_id,
                name: task.formTitle,
                description: task.formDescription,
                sender: b.sender,
                admin_user: b.sender === 'admin' ? (b.admin_user ?? null) : null,
                questions: task.questions,
                ack_message: task.ackMessage?.trim() || DEFAULT_ACK_MESSAGE,
                channel_ids: task.channels,
                dm_members: task.dms.members,
                dm_tags: task.dms.tags,
                dm_channels: task.dms.channels,
                send_to_workspace: task.sendToWorkspace,
                frequency: 'onetime',
                days: [],
                time: null,
                run_at: null,
                next_run_at: null,
                created_by: userId,
                workflow_id: workflowId,
              },
              tx,
            );
          rows.push({
            workflow_id: workflowId,
            position,
            type: task.type,
            title: titleOf(task),
            delay_unit: task.delay?.delay_unit ?? null,
            delay_secs: task.delay?.delay_in_secs ?? 0,
            content: task,
            form_id: formId,
          });
        }
        await repo.insertTasks(tx, rows);
        return workflowId;
      });
      return (await rowsOf([await workflowOf(b.team_id, id)]))[0]!;
    },

    async list(teamId: string): Promise<WorkflowRow[]> {
      return (await rowsOf(await repo.list(teamId))).map(({ tasksFull: _, ...row }) => row);
    },

    async detail(teamId: string, id: number): Promise<WorkflowDetail> {
      const [{ tasksFull, ...row }] = (await rowsOf([await workflowOf(teamId, id)])) as [
        WorkflowRow & { tasksFull: TaskRecord[] },
      ];
      return { ...row, task_contents: tasksFull.map((t) => ({ ...t.content, task_id: t.id })) };
    },

    /** Activates or stops (`status` absent: toggles). A time trigger cannot be stopped: delete it instead. */
    async setStatus(
      teamId: string,
      id: number,
      status?: boolean,
    ): Promise<{ workflow_id: number; status: boolean }> {
      const w = await workflowOf(teamId, id);
      const next = status ?? !w.active;
      if (!next && w.trigger_type === 'time') throw bad(WORKFLOW_TEXTS.cannotStopTime);
      await repo.setActive(teamId, id, next, new Date(now()));
      return { workflow_id: id, status: next };
    },

    async remove(teamId: string, id: number): Promise<void> {
      if (!(await repo.remove(teamId, id))) throw notFound('No such workflow in this workspace');
    },

    async triggerHistory(teamId: string, id: number): Promise<TriggerHistory> {
      const w = await workflowOf(teamId, id);
      const rows = await repo.triggers(id);
      const names = await memberNames(
        deps.db,
        teamId,
        rows.flatMap((r) => (r.member_id ? [r.member_id] : [])),
      );
      const [tags, buckets] = await Promise.all([
        repo.tagNames(teamId, w.tags),
        repo.bucketNames(teamId, w.segments),
      ]);
      const audience = audienceLabel(w, tags, buckets) || 'The workflow’s recipients';
      return {
        workflow_name: w.name,
        rows: rows.map((r) => ({
          id: r.id,
          trigger_time: iso(r.triggered_at),
          triggered_for: r.member_id ? (names.get(r.member_id) ?? r.member_id) : audience,
          member_id: r.member_id,
        })),
      };
    },

    async actionHistory(teamId: string, id: number, taskId: number): Promise<ActionHistory> {
      const w = await workflowOf(teamId, id);
      const [row] = await rowsOf([w]);
      const task = row!.tasks.find((t) => t.task_id === taskId);
      if (!task) throw notFound('No such task in this workflow');
      const content = row!.tasksFull.find((t) => t.id === taskId)!.content;
      const steps = await repo.steps(id, task.position);
      const ids = steps.flatMap((s) => (s.member_id ? [s.member_id] : []));
      const [names, channels] = await Promise.all([
        memberNames(deps.db, teamId, ids),
        channelNames(deps.db, teamId, content.channels),
      ]);
      const onlyMember =
        content.sendToSelectedUsers &&
        !content.sendToWorkspace &&
        content.channels.length +
          content.dms.members.length +
          content.dms.tags.length +
          content.dms.channels.length ===
          0 &&
        content.triggerTags.length + content.triggerSegments.length === 0;
      const sentTo = (s: (typeof steps)[number]) => {
        if (s.status === 'due') return '';
        if (s.status === 'failed' && !s.receipt_id) return '';
        const who = s.member_id ? (names.get(s.member_id) ?? s.member_id) : '';
        if (onlyMember) return who;
        const total = s.total ?? 0;
        const posted = content.channels.map((c) => `#${channels.get(c) ?? c}`);
        const dms = total - posted.length;
        return [dms > 0 ? `${dms} member${dms === 1 ? '' : 's'}` : '', ...posted].filter(Boolean).join(', ');
      };
      // A time trigger's steps are for its audience, not a member.
      const everyone =
        audienceLabel(
          w,
          new Map(row!.tags.map((t) => [t.id, t.name])),
          new Map(row!.segments.map((b) => [b.id, b.name])),
        ) || 'The workflow’s recipients';
      return {
        workflow_name: w.name,
        task,
        rows: steps.map((s) => ({
          id: s.id,
          status: s.status === 'due' ? 'pending' : s.status,
          sent_at: iso(s.sent_at ?? s.due_at),
          due_at: iso(s.due_at),
          triggered_for: s.member_id ? (names.get(s.member_id) ?? s.member_id) : everyone,
          member_id: s.member_id,
          sent_to: sentTo(s),
          receipt_id: s.receipt_id,
          form_id: task.form_id,
          form_instance_id: s.form_instance_id,
          error: s.error,
        })),
      };
    },

    /**
     * A member joined the workspace (its canonical join time from workspace data) or a channel: every active
     * workflow with that trigger fires for them, in the event's transaction. Returns how many first steps are
     * due now (wake a sender once committed) and the due times of those written with a delay (pass them to
     * `wake` once committed).
     */
    async onMemberJoined(
      tx: Tx,
      teamId: string,
      memberId: string,
      at: string,
      channelId?: string,
    ): Promise<{ due: number; later: Date[] }> {
      const type = channelId ? 'channel_join' : 'workspace_join';
      const ids = await repo.activeOfType(tx, teamId, type, channelId);
      if (!ids.length || !(await repo.isPerson(tx, teamId, memberId))) return { due: 0, later: [] };
      const key = channelId ? `channel:${memberId}:${channelId}:${at}` : `join:${memberId}:${at}`;
      const times = await repo.fire(
        tx,
        ids.map((workflowId) => ({ workflowId, key, memberId, at })),
      );
      const t = now();
      return { due: times.filter((d) => d.getTime() <= t).length, later: ahead(times) };
    },

    wake,

    /**
     * The clock's triggers: time triggers whose time has come fire once (late after an outage, still once), and
     * activity / inactivity triggers look for members who crossed their threshold since they last looked.
     * Each workflow is locked while it is planned, so any number of workers may run this at once.
     */
    async planTriggers(): Promise<number> {
      const at = new Date(now());
      let fired = 0;
      /** A trigger whose planning began twice and never finished (see below) is passed over, with a log line. */
      const wedged = (kind: string, w: WorkflowRecord, tried: number) => {
        if (tried <= MAX_PLAN_ATTEMPTS) return false;
        deps.logger.error(
          { kind, id: w.id, teamId: w.team_id, at: iso(at), attempts: tried - 1 },
          'a workflow trigger whose planning never finished twice is skipped (see due_attempts)',
        );
        return true;
      };
      // Never wedged twice (as lib/plan-due.ts does for schedules): each planning is counted in a short
      // transaction of its own before it begins (due_attempts), and its own transaction clears the count. One
      // begun twice and never finished (the process was killed, or stopped answering, inside it: on PGlite a
      // long look at a big workspace's activity holds the one connection) is passed over the next time. Each
      // transaction's first steps written with a delay wake a sender at their time once it commits (the tick's
      // own senders send those due now).
      const timeKey = (w: WorkflowRecord) => `${w.id}@${iso(w.trigger_at!)}`;
      const counted = await repo.transaction(async (tx) =>
        countAttempts(tx, 'workflow-time', (await repo.lockDueTimeTriggers(tx, at, 100)).map(timeKey)),
      );
      if (counted.size > 0) {
        const timed = await repo.transaction(async (tx) => {
          const due = await repo.lockDueTimeTriggers(tx, at, 100);
          const firing = due.filter((w) => !wedged('workflow-time', w, counted.get(timeKey(w)) ?? 1));
          const times = await repo.fire(
            tx,
            firing.map((w) => ({ workflowId: w.id, key: 'time', memberId: null, at: w.trigger_at! })),
          );
          // A passed-over trigger is marked fired too: a time trigger fires once or not at all.
          await repo.markFired(
            tx,
            due.map((w) => w.id),
            at,
          );
          await clearAttempts(tx, 'workflow-time', due.map(timeKey));
          return times;
        });
        fired += timed.length;
        await wake(timed);
      }
      const before = new Date(at.getTime() - SCAN_EVERY_MS);
      const scanKey = (w: WorkflowRecord) => `${w.id}@${iso(w.scanned_at ?? w.since)}`;
      for (;;) {
        const attempt = await repo.transaction(async (tx) => {
          const [w] = await repo.lockActivityTriggers(tx, before, 1);
          if (!w) return null;
          const key = scanKey(w);
          return { id: w.id, key, tried: (await countAttempts(tx, 'workflow-scan', [key])).get(key) ?? 1 };
        });
        if (!attempt) break;
        const times = await repo.transaction(async (tx) => {
          const [w] = await repo.lockActivityTriggers(tx, before, 1, attempt.id);
          await clearAttempts(tx, 'workflow-scan', [attempt.key]);
          // Another worker looked at it meanwhile (or holds it): nothing to do here.
          if (!w || scanKey(w) !== attempt.key) return [];
          if (wedged('workflow-scan', w, attempt.tried)) {
            // Passed over: the crossings since its last look are not fired; it looks again from now on.
            await repo.markScanned(tx, w.id, at);
            return [];
          }
          // From the later of when it started watching and a little before it last looked (late data).
          const from = new Date(
            Math.max(Date.parse(w.since), w.scanned_at ? Date.parse(w.scanned_at) - LOOK_BACK_MS : 0),
          );
          let firings: Firing[];
          if (w.trigger_type === 'level_change')
            firings = (await levelChangesBetween(tx, w.team_id, w.level ?? 'slipping', from, at)).map(
              (c) => ({
                workflowId: w.id,
                key: `level:${c.member_id}:${c.id}`,
                memberId: c.member_id,
                at: iso(at),
              }),
            );
          else if (w.trigger_type === 'inactivity')
            firings = (await repo.crossedInactivity(tx, w.team_id, w.days ?? 0, from, at)).map((m) => ({
              workflowId: w.id,
              key: `inactive:${m.member_id}:${m.last}`,
              memberId: m.member_id,
              at: iso(at),
            }));
          else
            firings = (
              await membersActiveAgain(tx, w.team_id, w.days ?? 0, from, await deps.timezoneOf(w.team_id, tx))
            ).map((m) => ({
              workflowId: w.id,
              key: `active:${m.member_id}:${m.day}`,
              memberId: m.member_id,
              at: iso(at),
            }));
          const written = await repo.fire(tx, firings);
          await repo.markScanned(tx, w.id, at);
          return written;
        });
        fired += times.length;
        await wake(times);
      }
      return fired;
    },

    countDueSteps: () => repo.countDueSteps(new Date(now())),

    /**
     * Claims up to `limit` due steps and sends them through the delivery engine as one batch. A step sent and
     * recorded writes its chain's next step; one that cannot be sent as set up (nobody left to reach) is
     * recorded as failed and the chain goes on; one that failed under Slack or the database stays due and is
     * claimed again after a pause. Sent again after a crash, a step's key finds its receipt: sent once.
     */
    async sendDueSteps(limit = 100): Promise<number> {
      // No attempt count here (unlike planTriggers): the claim is one statement that commits at once and the
      // send runs outside any transaction, so a process stuck or killed here holds nothing and its claim lapses.
      const steps = await repo.claimDueSteps(limit, new Date(now()), claimMs);
      if (steps.length === 0) return 0;
      const ids = steps.map((s) => s.workflow_id);
      const [workflows, tasks] = await Promise.all([repo.findMany(ids), repo.tasksOf(ids)]);
      const built = await requestsOf(steps, workflows, tasks);
      const sendable = steps.flatMap((s, i) => (built[i] ? [{ step: s, ...built[i] }] : []));
      const results = await deps.delivery.sendMany(sendable.map((s) => s.req));
      const finished: Parameters<typeof repo.finishSteps>[0] = [];
      const instances: Parameters<typeof forms.finishInstances>[0] = [];
      const retry: number[] = [];
      const sent = new Set<string>();
      for (const [i, { step, instanceId }] of sendable.entries()) {
        const result = results[i]!;
        if (!('error' in result)) {
          finished.push({
            id: step.id,
            status: 'sent',
            receiptId: result.receipt_id,
            formInstanceId: instanceId,
            error: null,
          });
          if (instanceId)
            instances.push({
              id: instanceId,
              status: 'sent',
              receiptId: result.receipt_id,
              recipients: result.total,
              error: null,
            });
          sent.add(step.team_id);
        } else if (result.error instanceof AppError && result.error.statusCode < 500) {
          deps.logger.warn({ step: step.id, err: result.error.message }, 'workflow step not sent');
          finished.push({
            id: step.id,
            status: 'failed',
            receiptId: result.receipt_id ?? null,
            formInstanceId: instanceId,
            error: result.error.message,
          });
          if (instanceId)
            instances.push({
              id: instanceId,
              status: 'failed',
              receiptId: null,
              recipients: 0,
              error: result.error.message,
            });
        } else {
          deps.logger.error({ err: result.error, step: step.id }, 'workflow step send failed; retried later');
          retry.push(step.id);
        }
      }
      await forms.finishInstances(instances);
      await wake(await repo.finishSteps(finished, new Date(now())));
      for (const f of finished.filter((x) => x.status === 'failed')) {
        const step = steps.find((s) => s.id === f.id)!;
        await deps.emit?.(
          step.team_id,
          'workflow.step_failed',
          {
            workflow_id: step.workflow_id,
            workflow_name: workflows.get(step.workflow_id)?.name ?? null,
            step_id: step.id,
            error: f.error,
            receipt_id: f.receiptId,
          },
          { dedupeKey: `workflow.step_failed:${step.id}` },
        );
      }
      if (retry.length > 0) await repo.releaseSteps(retry, new Date(now() + RETRY_MS));
      for (const teamId of sent) await deps.delivery.wake(teamId);
      return steps.length;
    },
  };
  return service;
};
export type WorkflowsService = ReturnType<typeof workflowsService>;
