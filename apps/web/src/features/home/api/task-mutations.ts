import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Task } from '@flywheel/shared/analytics';
import { createTasks, deleteTask, dropTask, editTask } from '@flywheel/shared/endpoints/home';
import { callEndpoint } from '../../../lib/endpoint-client.ts';
import { useCurrentTeam } from '../../../entities/workspace/index.ts';
import { tasksQuery } from './get-tasks.ts';

/*
 * The task board's changes: POST /homepage/createtasks, PATCH /homepage/edittask and /homepage/droptask,
 * DELETE /homepage/deletetask/{id}/{team}. Each one updates the board at once and reloads it when settled.
 */

export type TaskStatus = Task['status'];

export function useTaskMutations() {
  const { teamId } = useCurrentTeam();
  const qc = useQueryClient();
  const key = tasksQuery(teamId).queryKey;
  const refresh = () => qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: (v: { title: string; description: string; status: TaskStatus }) =>
      callEndpoint(createTasks, { body: { team_id: teamId, ...v } }).then((a) => a.data),
    onSettled: refresh,
  });
  const edit = useMutation({
    mutationFn: (v: { id: number; title: string; description: string }) =>
      callEndpoint(editTask, { body: { team_id: teamId, ...v } }).then((a) => a.data),
    onMutate: (v) =>
      qc.setQueryData<Task[]>(key, (old) => old?.map((t) => (t.id === v.id ? { ...t, ...v } : t))),
    onSettled: refresh,
  });
  const drop = useMutation({
    mutationFn: (v: { id: number; status: TaskStatus; position: number }) =>
      callEndpoint(dropTask, { body: { team_id: teamId, ...v } }).then((a) => a.data),
    onMutate: (v) =>
      qc.setQueryData<Task[]>(key, (old) => (old ? moveTask(old, v.id, v.status, v.position) : old)),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (id: number) => callEndpoint(deleteTask, { params: { taskId: id, teamId } }),
    onMutate: (id) => qc.setQueryData<Task[]>(key, (old) => old?.filter((t) => t.id !== id)),
    onSettled: refresh,
  });
  return { create, edit, drop, remove };
}

/** The board after moving a task to `position` (0-based) of column `status`; positions renumbered per column. */
export function moveTask(tasks: readonly Task[], id: number, status: TaskStatus, position: number): Task[] {
  const moving = tasks.find((t) => t.id === id);
  if (!moving) return [...tasks];
  const others = tasks.filter((t) => t.id !== id);
  const column = others.filter((t) => t.status === status).sort((a, b) => a.position - b.position);
  const at = Math.max(0, Math.min(position, column.length));
  column.splice(at, 0, { ...moving, status });
  const renumbered = new Map(column.map((t, i) => [t.id, { ...t, position: i }]));
  const rest = others
    .filter((t) => t.status !== status)
    .map((t) => t)
    .sort((a, b) => a.position - b.position);
  // Renumber the column the task left, too.
  const left = rest.filter((t) => t.status === moving.status).map((t, i) => ({ ...t, position: i }));
  const untouched = rest.filter((t) => t.status !== moving.status);
  return [...untouched, ...left, ...renumbered.values()];
}
