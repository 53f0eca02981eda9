import { Checkbox, Fieldset, Group, Input, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { ImagePicker } from '../../../components/ImagePicker.tsx';
import { RichEditor } from '../../../components/RichEditor.tsx';
import { TargetPickers } from '../../../components/TargetPickers.tsx';
import type { ComposeDraft, ComposeProblems } from '../draft.ts';
import { useMentionLookup } from '../../../lib/use-mention-lookup.ts';

type ComposeStepProps = {
  kind: 'automation' | 'schedule';
  draft: ComposeDraft;
  onChange(next: ComposeDraft): void;
  problems: ComposeProblems;
  progress: number | null;
  busy: boolean;
};

/**
 * Step 2 'Compose Message' of Create Trigger and Schedule Message (spec section 2): DM the new member
 * (automations), DM the whole workspace, 'Send Direct Message' to members, tags and channels' members,
 * 'Send Message On Channel', the rich editor, 'Choose Image(s)' and the upload progress.
 */
export function ComposeStep({ kind, draft, onChange, problems, progress, busy }: ComposeStepProps) {
  const mentions = useMentionLookup();
  const set = (patch: Partial<ComposeDraft>) => onChange({ ...draft, ...patch });
  return (
    <Stack gap="md">
      <Group gap="xl">
        {kind === 'automation' ? (
          <Checkbox
            label="Send DM to new user"
            checked={draft.sendDm}
            onChange={(e) => set({ sendDm: e.currentTarget.checked })}
            disabled={busy}
          />
        ) : null}
        <Checkbox
          label="Send DM to all members of workspace"
          checked={draft.toWorkspace}
          onChange={(e) => set({ toWorkspace: e.currentTarget.checked })}
          disabled={busy}
        />
      </Group>
      <Fieldset legend="Send Direct Message" variant="filled" radius="md">
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
          <TargetPickers
            pickers={['members', 'tags', 'channels']}
            value={draft.dm}
            onChange={(dm) => set({ dm })}
            labels={{ members: 'Members', tags: 'Tags', channels: 'Members of channels' }}
            disabled={busy}
          />
        </SimpleGrid>
      </Fieldset>
      <TargetPickers
        pickers={['channels']}
        value={{ members: [], tags: [], channels: draft.post }}
        onChange={(v) => set({ post: v.channels })}
        disabled={busy}
      />
      {problems.target ? <Input.Error role="alert">{problems.target}</Input.Error> : null}
      <RichEditor
        initialHtml={draft.message.html}
        onChange={(message) => set({ message })}
        mentions={mentions}
        error={problems.message}
      />
      <ImagePicker files={draft.files} onChange={(files) => set({ files })} disabled={busy} />
      {progress !== null ? (
        <Stack gap={2}>
          <Progress value={progress} aria-label="Upload progress" animated={progress < 100} />
          <Text fz="xs" c="dimmed" ta="right">
            {progress}%
          </Text>
        </Stack>
      ) : null}
    </Stack>
  );
}
