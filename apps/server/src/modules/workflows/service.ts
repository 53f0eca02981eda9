import {
  WORKFLOW_LIMITS,
  WORKFLOW_TEXTS,
  type CreateWorkflowBody,
  type WorkflowDetail,
  type WorkflowRow,
} from '@flywheel/shared/workflows';
import { parseLocalDateTime } from '@flywheel/shared/clock';
import { DEFAULT_ACK_MESSAGE } from '@flywheel/shared/forms';
import { AppError, notFound } from '../../lib/errors.ts';
import { channelNames, memberNames } from '../workspace-data/names.ts';
import type { TaskRecord } from './repo.ts';
import { workflowsCore, bad, iso, slashed, type WorkflowsDeps } from './core.ts';
import { workflowHistory } from './history.ts';
import { workflowListeners } from './listeners.ts';
import { workflowRunner } from './runner.ts';
import { workflowTriggers } from './triggers.ts';

export type { WorkflowsDeps } from './core.ts';

/**
 * Workflows: a trigger fires for a member (a join, a channel join, crossing the activity threshold) or once at a
 * time for an audience of tags and segments; each firing runs the tasks as a chain of steps, each due its delay
 * after the previous one and sent through the delivery engine (messages) or as a form instance (forms). Only the
 * next step of a chain exists as a row, written in the same statement that finishes the step before it, so a
 * chain survives restarts, deploys and crashes; each step is claimed by one worker and sent with a key that
 * names it, so it is sent once.
 */
export const workflowsService = (deps: WorkflowsDeps) => {
  const core = workflowsCore(deps);
  const { repo, forms, now, titleOf, audienceOf, rowsOf, workflowOf } = core;

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

    ...workflowHistory(core),
    ...workflowListeners(core),
    ...workflowTriggers(core),
    ...workflowRunner(core),
  };
  return service;
};
export type WorkflowsService = ReturnType<typeof workflowsService>;
