import { useState, type DragEvent, type KeyboardEvent } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { IconPencil, IconPlus, IconTrash } from '@tabler/icons-react';
import type { Task } from '@flywheel/shared/analytics';
import { ChartCard, queryState } from '../../../components/ChartCard.tsx';
import { errorMessage } from '../../../lib/api-client.ts';
import { notifyFailure } from '../../../lib/notify.tsx';
import { useErrorToast } from '../../../lib/use-error-toast.ts';
import { useTaskMutations, type TaskStatus } from '../api/task-mutations.ts';
import { useTasks } from '../api/get-tasks.ts';
import { HOME_FAILURE } from './HomeCharts.tsx';

export const COLUMNS: { status: TaskStatus; label: string; color: string }[] = [
  { status: 'todo', label: 'To do', color: 'gray' },
  { status: 'doing', label: 'In progress', color: 'indigo' },
  { status: 'done', label: 'Done', color: 'teal' },
];

const DRAG_TYPE = 'application/x-flywheel-task';
type Editing = { id: number | null; status: TaskStatus; title: string; description: string } | null;

/**
 * A small task board: create, edit, delete, and move tasks by dragging (mouse) or with the arrow keys on a
 * focused task (up/down reorders, left/right moves between columns).
 */
export function TaskBoard() {
  const q = useTasks();
  useErrorToast(q, HOME_FAILURE);
  const { create, edit, drop, remove } = useTaskMutations();
  const [editing, setEditing] = useState<Editing>(null);
  const [over, setOver] = useState<TaskStatus | null>(null);
  const tasks = q.data ?? [];
  const column = (s: TaskStatus) =>
    tasks.filter((t) => t.status === s).sort((a, b) => a.position - b.position);
  const fail = (err: unknown) => notifyFailure(errorMessage(err));

  const move = (task: Task, status: TaskStatus, position: number) => {
    if (task.status === status && task.position === position) return;
    drop.mutate({ id: task.id, status, position }, { onError: fail });
  };

  const onDrop = (e: DragEvent, status: TaskStatus, before: Task | null) => {
    e.preventDefault();
    e.stopPropagation();
    setOver(null);
    const id = Number(e.dataTransfer.getData(DRAG_TYPE));
    const task = tasks.find((t) => t.id === id);
    if (!task) return;
    const col = column(status).filter((t) => t.id !== id);
    const at = before ? col.findIndex((t) => t.id === before.id) : col.length;
    move(task, status, at < 0 ? col.length : at);
  };

  const onKey = (e: KeyboardEvent, task: Task) => {
    const i = COLUMNS.findIndex((c) => c.status === task.status);
    const col = column(task.status);
    const at = col.findIndex((t) => t.id === task.id);
    let target: { status: TaskStatus; position: number } | null = null;
    if (e.key === 'ArrowUp' && at > 0) target = { status: task.status, position: at - 1 };
    if (e.key === 'ArrowDown' && at < col.length - 1) target = { status: task.status, position: at + 1 };
    if (e.key === 'ArrowLeft' && i > 0) target = { status: COLUMNS[i - 1]!.status, position: 0 };
    if (e.key === 'ArrowRight' && i < COLUMNS.length - 1)
      target = { status: COLUMNS[i + 1]!.status, position: 0 };
    if (!target) return;
    e.preventDefault();
    move(task, target.status, target.position);
    // Keep focus on the moved task once it re-renders in its new place.
    requestAnimationFrame(() => document.getElementById(`task-${task.id}`)?.focus());
  };

  const save = () => {
    if (!editing || !editing.title.trim()) return;
    const v = { title: editing.title.trim(), description: editing.description.trim() };
    if (editing.id === null) create.mutate({ ...v, status: editing.status }, { onError: fail });
    else edit.mutate({ id: editing.id, ...v }, { onError: fail });
    setEditing(null);
  };

  return (
    <ChartCard
      title="Tasks"
      subtitle="Drag tasks between columns, or focus one and use the arrow keys"
      actions={
        <Button
          size="xs"
          leftSection={<IconPlus size={14} />}
          onClick={() => setEditing({ id: null, status: 'todo', title: '', description: '' })}
        >
          New task
        </Button>
      }
      state={queryState(
        q,
        () => false,
        () => HOME_FAILURE,
      )}
      minHeight={160}
    >
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        {COLUMNS.map((c) => {
          const items = column(c.status);
          return (
            <Paper
              key={c.status}
              bg={over === c.status ? 'indigo.0' : 'gray.0'}
              radius="md"
              p="sm"
              onDragOver={(e) => {
                e.preventDefault();
                setOver(c.status);
              }}
              onDragLeave={() => setOver(null)}
              onDrop={(e) => onDrop(e, c.status, null)}
              style={{ minHeight: 140, transition: 'background 120ms' }}
            >
              <Group justify="space-between" mb="xs">
                <Title order={3} fz="sm" fw={600}>
                  {c.label}
                </Title>
                <Badge size="sm" variant="light" color={c.color} circle>
                  {items.length}
                </Badge>
              </Group>
              {/* The list holds only its tasks (axe: a list's children are list items). */}
              <Stack gap={8} role="list" aria-label={c.label}>
                {items.map((t) => (
                  <Card
                    key={t.id}
                    id={`task-${t.id}`}
                    role="listitem"
                    tabIndex={0}
                    aria-label={t.title}
                    aria-roledescription="Draggable task"
                    draggable
                    onDragStart={(e) => {
                      e.dataTransfer.setData(DRAG_TYPE, String(t.id));
                      e.dataTransfer.effectAllowed = 'move';
                    }}
                    onDragOver={(e) => e.preventDefault()}
                    onDrop={(e) => onDrop(e, c.status, t)}
                    onKeyDown={(e) => onKey(e, t)}
                    withBorder
                    radius="sm"
                    padding="xs"
                    style={{ cursor: 'grab' }}
                  >
                    <Group justify="space-between" wrap="nowrap" align="flex-start" gap={4}>
                      <Text fz="sm" fw={500} style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }}>
                        {t.title}
                      </Text>
                      <Group gap={0} wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          color="gray"
                          size="sm"
                          aria-label={`Edit ${t.title}`}
                          onClick={() => setEditing({ ...t })}
                        >
                          <IconPencil size={14} />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          size="sm"
                          aria-label={`Delete ${t.title}`}
                          onClick={() => remove.mutate(t.id, { onError: fail })}
                        >
                          <IconTrash size={14} />
                        </ActionIcon>
                      </Group>
                    </Group>
                    {t.description ? (
                      <Text fz="xs" c="dimmed" lineClamp={3} mt={2}>
                        {t.description}
                      </Text>
                    ) : null}
                  </Card>
                ))}
              </Stack>
              {items.length === 0 ? (
                <Text fz="xs" c="dimmed" ta="center" py="md">
                  Nothing here
                </Text>
              ) : null}
            </Paper>
          );
        })}
      </SimpleGrid>
      <LazyModal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing?.id === null ? 'New task' : 'Edit task'}
      >
        {editing ? (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save();
            }}
          >
            <Stack>
              <TextInput
                label="Title"
                required
                maxLength={200}
                value={editing.title}
                onChange={(e) => setEditing({ ...editing, title: e.currentTarget.value })}
                data-autofocus
              />
              <Textarea
                label="Description"
                rows={3}
                maxLength={2000}
                value={editing.description}
                onChange={(e) => setEditing({ ...editing, description: e.currentTarget.value })}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setEditing(null)}>
                  Cancel
                </Button>
                <Button type="submit" disabled={!editing.title.trim()}>
                  Save
                </Button>
              </Group>
            </Stack>
          </form>
        ) : null}
      </LazyModal>
    </ChartCard>
  );
}
