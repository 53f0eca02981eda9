import type { ReactNode } from 'react';
import { Button, Group, Input, Progress, Stack, Text } from '@mantine/core';
import { IconFlask } from '@tabler/icons-react';
import { ImagePicker } from '../../../components/ImagePicker.tsx';
import { RichEditor, type EditorValue } from '../../../components/RichEditor.tsx';
import { useMentionLookup } from '../../../entities/members/index.ts';
import type { SenderChoice } from '../../../entities/messages/index.ts';
import { SenderPicker } from '../../../components/SenderPicker.tsx';
import { SlackPreview } from '../../../components/SlackPreview.tsx';

type MessageComposerProps = {
  sender: SenderChoice;
  onSender(next: SenderChoice): void;
  senderError?: string | null;
  onMessage(value: EditorValue): void;
  messageError?: string | null;
  /** The message as it goes to Slack (mrkdwn), for the preview. */
  text: string;
  files: readonly File[];
  onFiles(files: File[]): void;
  /** Target pickers or a summary of whom it goes to, shown above the editor. */
  targets?: ReactNode;
  /** A problem with the whole send (e.g. no target), shown above the buttons. */
  error?: string | null;
  /** A warning about this send before it goes (an admin outside the channel), shown under the targets. */
  notice?: ReactNode;
  /** 'Send a test to me' (a DM to your own Slack user), offered when given. */
  onTest?(): void;
  testBusy?: boolean;
  /** The test cannot go yet (no message written). */
  testDisabled?: boolean;
  progress: number | null;
  busy: boolean;
  submitLabel: string;
  onSubmit(): void;
  onCancel(): void;
};

/** The body every send popup shares: sender, targets, rich text with images, progress and buttons. */
export function MessageComposer(props: MessageComposerProps) {
  const mentions = useMentionLookup();

  return (
    <Stack gap="md">
      <SenderPicker
        value={props.sender}
        onChange={props.onSender}
        error={props.senderError}
        disabled={props.busy}
      />
      {props.targets}
      {props.notice}
      <RichEditor onChange={props.onMessage} mentions={mentions} error={props.messageError} />
      <ImagePicker files={props.files} onChange={props.onFiles} disabled={props.busy} />
      <SlackPreview sender={props.sender} text={props.text} files={props.files} />
      {props.progress !== null ? (
        <Stack gap={2}>
          <Progress value={props.progress} aria-label="Sending progress" animated={props.progress < 100} />
          <Text fz="xs" c="dimmed" ta="right">
            {props.progress}%
          </Text>
        </Stack>
      ) : null}
      {props.error ? <Input.Error role="alert">{props.error}</Input.Error> : null}
      <Group justify="space-between" gap="sm">
        {props.onTest ? (
          <Button
            variant="subtle"
            leftSection={<IconFlask size={16} />}
            onClick={props.onTest}
            loading={props.testBusy}
            disabled={props.busy || props.testDisabled}
          >
            Send a test to me
          </Button>
        ) : (
          <span />
        )}
        <Group gap="sm" ml="auto">
          <Button variant="default" onClick={props.onCancel} disabled={props.busy}>
            Cancel
          </Button>
          <Button onClick={props.onSubmit} loading={props.busy}>
            {props.submitLabel}
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
