import { useState } from 'react';
import { Button, Checkbox, Fieldset, Group, Input, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { ImagePicker } from '../../../components/ImagePicker.tsx';
import { RichEditor } from '../../../components/RichEditor.tsx';
import { TargetPickers } from '../../../components/TargetPickers.tsx';
import { SlackPreview } from '../../../components/SlackPreview.tsx';
import { type SenderChoice, useTestSend } from '../../../entities/messages/index.ts';
import { useMentionLookup } from '../../../entities/members/index.ts';
import type { ComposeDraft, ComposeProblems } from './draft.ts';

type ComposeStepProps = {
  kind: 'automation' | 'schedule';
  /** The sender chosen in step 1: the preview shows it and the test comes from it. */
  sender: SenderChoice;
  draft: ComposeDraft;
  onChange(next: ComposeDraft): void;
  problems: ComposeProblems;
  progress: number | null;
  busy: boolean;
};

/**
 * Step 2 'Compose Message' of Create Trigger and Schedule Message: DM the new member
 * (automations), DM the whole workspace, 'Send Direct Message' to members, tags and channels' members,
 * 'Send Message On Channel', the rich editor, 'Choose Image(s)', the message as Slack will show it and
 * 'Send a test to me' (as the send dialogs: a DM to your own Slack user), and the upload progress.
 */
export function ComposeStep({ kind, sender, draft, onChange, problems, progress, busy }: ComposeStepProps) {
  const mentions = useMentionLookup();
  const test = useTestSend();
  // Why the test was not sent (the shared schema's text), until the message changes.
  const [testProblem, setTestProblem] = useState<string | null>(null);
  const set = (patch: Partial<ComposeDraft>) => onChange({ ...draft, ...patch });
  const sendTest = () => {
    if (busy) return;
    setTestProblem(test.send({ sender, message: draft.message, files: draft.files }));
  };
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
        onChange={(message) => {
          setTestProblem(null);
          set({ message });
        }}
        mentions={mentions}
        error={problems.message}
      />
      <ImagePicker files={draft.files} onChange={(files) => set({ files })} disabled={busy} />
      <Stack gap={4}>
        <SlackPreview
          sender={sender}
          text={draft.message.mrkdwn}
          files={draft.files}
          action={
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconFlask size={16} />}
              onClick={sendTest}
              loading={test.busy}
              disabled={busy || !test.canTest(draft.message)}
            >
              Send a test to me
            </Button>
          }
        />
        {testProblem ? <Input.Error role="alert">{testProblem}</Input.Error> : null}
      </Stack>
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
