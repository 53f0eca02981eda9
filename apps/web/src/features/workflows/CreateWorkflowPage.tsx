import { Fragment, useMemo, useRef, useState } from 'react';
import {
  ActionIcon,
  Anchor,
  Badge,
  Box,
  Button,
  Card,
  Group,
  LoadingOverlay,
  Paper,
  Progress,
  Stack,
  Text,
  ThemeIcon,
  Tooltip,
  UnstyledButton,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconArrowLeft,
  IconBolt,
  IconCheck,
  IconClock,
  IconForms,
  IconMessage,
  IconPlus,
  IconRefresh,
  IconTrash,
} from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { WORKFLOW_LIMITS, WORKFLOW_TEXTS } from '@flywheel/shared/workflows';
import { PageHeader } from '../../components/PageHeader.tsx';
import { useBuckets } from '../../entities/buckets/index.ts';
import { currentWorkspace, useSession } from '../../lib/session.ts';
import { useUploadFlow } from '../../entities/messages/index.ts';
import { useTags } from '../../entities/tags/index.ts';
import { useCreateWorkflow } from './api/workflows.ts';
import { ActionDialog } from './components/ActionDialog.tsx';
import { DelayDialog } from './components/DelayDialog.tsx';
import { TriggerDialog } from './components/TriggerDialog.tsx';
import {
  canSave,
  cardText,
  EMPTY_DELAY,
  EMPTY_TRIGGER,
  emptyAction,
  nextSteps,
  triggerTypeOf,
  workflowBody,
  type FlowCard,
} from './flow.ts';

type Editing = { kind: FlowCard['kind']; index: number };

function Connector() {
  return <Box aria-hidden w={2} h={22} mx="auto" bg="gray.3" />;
}

const ICON: Record<FlowCard['kind'], React.ReactNode> = {
  trigger: <IconBolt size={18} />,
  delay: <IconClock size={18} />,
  action: <IconMessage size={18} />,
};
const COLOR: Record<FlowCard['kind'], string> = { trigger: 'brand', delay: 'orange', action: 'teal' };

function FlowCardView(props: {
  card: FlowCard;
  label: string;
  onEdit(): void;
  onRemove?(): void;
  disabled: boolean;
}) {
  const { title, text } = cardText(props.card);
  const form = props.card.kind === 'action' && props.card.draft.type === 'form';
  return (
    <Paper
      withBorder
      radius="md"
      shadow="xs"
      p="sm"
      w="100%"
      data-card={props.card.kind}
      style={{ borderLeft: `4px solid var(--mantine-color-${COLOR[props.card.kind]}-5)` }}
    >
      <Group wrap="nowrap" gap="sm">
        <UnstyledButton onClick={props.onEdit} disabled={props.disabled} style={{ flex: 1, minWidth: 0 }}>
          <VisuallyHidden>Edit </VisuallyHidden>
          <Group wrap="nowrap" gap="sm">
            <ThemeIcon variant="light" radius="xl" size="lg" color={COLOR[props.card.kind]}>
              {form ? <IconForms size={18} /> : ICON[props.card.kind]}
            </ThemeIcon>
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
                {props.label}
              </Text>
              <Text fw={600} fz="sm" truncate="end">
                {title}
              </Text>
              {text ? (
                <Text fz="sm" c="dimmed" truncate="end">
                  {text}
                </Text>
              ) : null}
            </Stack>
          </Group>
        </UnstyledButton>
        {props.onRemove ? (
          <Tooltip label="Remove" withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={`Remove ${props.label}`}
              onClick={props.onRemove}
              disabled={props.disabled}
            >
              <IconTrash size={16} />
            </ActionIcon>
          </Tooltip>
        ) : null}
      </Group>
    </Paper>
  );
}

/**
 * /dashboard/workflows/create-new-workflow: the card flow — the trigger, then delays and
 * actions added with the plus buttons, up to 11 cards — each edited in its dialog; Reset clears, Save sends
 * the workflow (images uploaded first) and goes back to the list.
 */
export function CreateWorkflowPage() {
  const session = useSession();
  const timeZone = currentWorkspace(session)?.timezone || 'UTC';
  const navigate = useNavigate();
  const create = useCreateWorkflow();
  const flow = useUploadFlow();
  const tags = useTags();
  const buckets = useBuckets();
  const [cards, setCards] = useState<FlowCard[]>([]);
  const [editing, setEditing] = useState<Editing | null>(null);
  const nextId = useRef(1);
  const busy = flow.busy;

  const trigger = cards[0]?.kind === 'trigger' ? cards[0].draft : null;
  const triggerType = trigger ? triggerTypeOf(trigger) : null;
  const audience = useMemo(
    () => ({
      tags: (tags.data ?? []).filter((t) => trigger?.tags.includes(t.id)),
      segments: (buckets.data ?? [])
        .filter((b) => trigger?.segments.includes(b.id))
        .map((b) => ({ id: b.id, name: b.name })),
    }),
    [tags.data, buckets.data, trigger],
  );
  const next = nextSteps(cards);

  const put = (card: FlowCard) =>
    setCards((old) => {
      const at = old.findIndex((c) => c.id === card.id);
      if (at === -1) return [...old, card];
      const copy = [...old];
      copy[at] = card;
      return copy;
    });
  const idAt = (index: number) => cards[index]?.id ?? nextId.current++;
  const close = () => setEditing(null);

  const save = async () => {
    if (busy || !canSave(cards)) return;
    // Every message step's images are uploaded in one go, then split back to their steps.
    const withImages = cards.filter((c) => c.kind === 'action' && c.draft.type === 'message');
    const files = withImages.flatMap((c) => (c.kind === 'action' ? c.draft.files : []));
    const res = await flow.run(files, async (ids) => {
      const images = new Map<number, string[]>();
      let at = 0;
      for (const c of withImages) {
        const n = c.kind === 'action' ? c.draft.files.length : 0;
        images.set(c.id, ids.slice(at, at + n));
        at += n;
      }
      await create.mutateAsync(workflowBody(flow.teamId, cards, images));
      return { message: WORKFLOW_TEXTS.created };
    });
    if (res) navigate('/dashboard/workflows');
  };

  const labelOf = (i: number) => {
    const c = cards[i]!;
    if (c.kind === 'trigger') return 'Trigger';
    if (c.kind === 'delay') return 'Delay';
    return `Step ${cards.slice(0, i + 1).filter((x) => x.kind === 'action').length}`;
  };

  return (
    <Box pos="relative">
      <LoadingOverlay visible={busy} zIndex={300} />
      <Anchor component={Link} to="/dashboard/workflows" fz="sm" mb="sm" display="inline-block">
        <Group gap={4}>
          <IconArrowLeft size={16} /> Workflows
        </Group>
      </Anchor>
      <PageHeader
        title={WORKFLOW_TEXTS.createTitle}
        description="Start with a trigger, then chain messages and forms with delays between them."
        actions={
          <>
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={() => setCards([])}
              disabled={busy || cards.length === 0}
            >
              Reset
            </Button>
            <Button leftSection={<IconCheck size={16} />} onClick={save} disabled={busy || !canSave(cards)}>
              Save
            </Button>
          </>
        }
      />
      {flow.progress !== null ? (
        <Progress value={flow.progress} size="sm" mb="md" aria-label="Saving" />
      ) : null}
      <Card withBorder radius="md" padding="xl">
        <Stack align="center" gap={0} maw={480} mx="auto" w="100%">
          {cards.length === 0 ? (
            <UnstyledButton
              w="100%"
              onClick={() => setEditing({ kind: 'trigger', index: 0 })}
              style={{
                border: '2px dashed var(--mantine-color-gray-4)',
                borderRadius: 'var(--mantine-radius-md)',
              }}
              p="lg"
            >
              <Group justify="center" gap="sm">
                <ThemeIcon variant="light" radius="xl" size="lg">
                  <IconBolt size={18} />
                </ThemeIcon>
                <Text fw={600}>{WORKFLOW_TEXTS.initializeCard}</Text>
              </Group>
            </UnstyledButton>
          ) : null}
          {cards.map((card, i) => (
            <Fragment key={card.id}>
              {i > 0 ? <Connector /> : null}
              <FlowCardView
                card={card}
                label={labelOf(i)}
                disabled={busy}
                onEdit={() => setEditing({ kind: card.kind, index: i })}
                onRemove={i > 0 && i === cards.length - 1 ? () => setCards(cards.slice(0, -1)) : undefined}
              />
            </Fragment>
          ))}
          {cards.length > 0 && (next.delay || next.action) ? (
            <>
              <Connector />
              <Group gap="sm" justify="center">
                {next.delay ? (
                  <Button
                    variant="default"
                    size="xs"
                    radius="xl"
                    leftSection={<IconPlus size={14} color="var(--mantine-color-orange-7)" />}
                    onClick={() => setEditing({ kind: 'delay', index: cards.length })}
                    disabled={busy}
                  >
                    Add delay
                  </Button>
                ) : null}
                {next.action ? (
                  <Button
                    variant="default"
                    size="xs"
                    radius="xl"
                    leftSection={<IconPlus size={14} color="var(--mantine-color-teal-7)" />}
                    onClick={() => setEditing({ kind: 'action', index: cards.length })}
                    disabled={busy}
                  >
                    Add action
                  </Button>
                ) : null}
              </Group>
            </>
          ) : null}
          {cards.length > 0 ? (
            <Group gap="xs" mt="lg">
              <Badge variant="light" color="gray" radius="sm" tt="none">
                {`${cards.length} of ${WORKFLOW_LIMITS.cards} cards`}
              </Badge>
              {!canSave(cards) ? (
                <Text fz="xs" c="dimmed">
                  End the workflow with an action to save it.
                </Text>
              ) : null}
            </Group>
          ) : null}
        </Stack>
      </Card>

      {editing?.kind === 'trigger' ? (
        <TriggerDialog
          initial={trigger ?? EMPTY_TRIGGER}
          timeZone={timeZone}
          onClose={close}
          onSubmit={(draft) => {
            put({ kind: 'trigger', id: idAt(0), draft });
            close();
          }}
        />
      ) : null}
      {editing?.kind === 'delay' ? (
        <DelayDialog
          initial={(() => {
            const c = cards[editing.index];
            return c?.kind === 'delay' ? c.draft : EMPTY_DELAY;
          })()}
          onClose={close}
          onSubmit={(draft) => {
            put({ kind: 'delay', id: idAt(editing.index), draft });
            close();
          }}
        />
      ) : null}
      {editing?.kind === 'action' ? (
        <ActionDialog
          initial={(() => {
            const c = cards[editing.index];
            return c?.kind === 'action' ? c.draft : emptyAction();
          })()}
          triggerType={triggerType}
          triggerTags={audience.tags}
          triggerSegments={audience.segments}
          onClose={close}
          onSubmit={(draft) => {
            put({ kind: 'action', id: idAt(editing.index), draft });
            close();
          }}
        />
      ) : null}
    </Box>
  );
}
