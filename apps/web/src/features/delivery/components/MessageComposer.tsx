import type { ReactNode } from 'react';
import { Button, Group, Input, Progress, Stack, Text } from '@mantine/core';
import { ImagePicker } from '../../../components/ImagePicker.tsx';
import { RichEditor, type EditorValue } from '../../../components/RichEditor.tsx';
import { useMentionLookup } from '../../../lib/use-mention-lookup.ts';
import type { SenderChoice } from '../../../lib/sender.ts';
import { SenderPicker } from '../../../components/SenderPicker.tsx';

type MessageComposerProps = {
  sender: SenderChoice;
  onSender(next: SenderChoice): void;
  senderError?: string | null;
  onMessage(value: EditorValue): void;
  messageError?: string | null;
  files: readonly File[];
  onFiles(files: File[]): void;
  /** Target pickers or a summary of whom it goes to, shown above the editor. */
  targets?: ReactNode;
  /** A problem with the whole send (e.g. no target), shown above the buttons. */
  error?: string | null;
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
      <RichEditor onChange={props.onMessage} mentions={mentions} error={props.messageError} />
      <ImagePicker files={props.files} onChange={props.onFiles} disabled={props.busy} />
      {props.progress !== null ? (
        <Stack gap={2}>
          <Progress value={props.progress} aria-label="Sending progress" animated={props.progress < 100} />
          <Text fz="xs" c="dimmed" ta="right">
            {props.progress}%
          </Text>
        </Stack>
      ) : null}
      {props.error ? <Input.Error role="alert">{props.error}</Input.Error> : null}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel} disabled={props.busy}>
          Cancel
        </Button>
        <Button onClick={props.onSubmit} loading={props.busy}>
          {props.submitLabel}
        </Button>
      </Group>
    </Stack>
  );
}
