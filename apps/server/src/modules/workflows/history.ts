import type { ActionHistory, TriggerHistory } from '@flywheel/shared/workflows';
import { notFound } from '../../lib/errors.ts';
import { channelNames, memberNames } from '../workspace-data/names.ts';
import { iso, type WorkflowsCore } from './core.ts';

/** A workflow's histories: when its trigger fired, and what each of its tasks sent. */
export const workflowHistory = ({
  deps,
  repo,
  historyRepo,
  workflowOf,
  rowsOf,
  audienceLabel,
}: WorkflowsCore) => ({
  async triggerHistory(teamId: string, id: number): Promise<TriggerHistory> {
    const w = await workflowOf(teamId, id);
    const rows = await historyRepo.triggers(id);
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
    const steps = await historyRepo.steps(id, task.position);
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
});
