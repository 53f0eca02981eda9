import { useState } from 'react';
import {
  Box,
  Checkbox,
  Divider,
  Input,
  MultiSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { LazyModal } from '../../../components/LazyModal.tsx';
import { FORM_LIMITS } from '@flywheel/shared/forms';
import { WORKFLOW_TEXTS, type TriggerType } from '@flywheel/shared/workflows';
import { FormQuestionsEditor } from '../../../components/FormQuestionsEditor.tsx';
import { ImagePicker } from '../../../components/ImagePicker.tsx';
import { RichEditor } from '../../../components/RichEditor.tsx';
import { TargetPickers } from '../../../components/TargetPickers.tsx';
import { useMentionLookup } from '../../../entities/members/index.ts';
import { actionProblems, hasProblems, type ActionDraft, type ActionField } from '../flow.ts';
import { DialogFooter } from './DialogFooter.tsx';
import { useTouched } from './use-touched.ts';

type Named = { id: number; name: string };

/**
 * 'Create an Action': Send Message (title, rich text, images) or Send Form (title,
 * description, questions, acknowledgement), and its recipients: all workspace members, the users in criteria
 * (the member the trigger fired for; not for time triggers), channels, DMs to members, tags and channels'
 * members, and for a time trigger its own tags and segments.
 */
export function ActionDialog(props: {
  initial: ActionDraft;
  triggerType: TriggerType | null;
  /** A time trigger's audience, offered as recipients. */
  triggerTags: Named[];
  triggerSegments: Named[];
  onSubmit(d: ActionDraft): void;
  onClose(): void;
}) {
  const [d, setD] = useState<ActionDraft>(props.initial);
  const { touch, shown } = useTouched<ActionField>();
  const mentions = useMentionLookup();
  const problems = actionProblems(d, props.triggerType);
  const time = props.triggerType === 'time';
  const set = (next: Partial<ActionDraft>, field?: ActionField) => {
    setD((old) => ({ ...old, ...next }));
    if (field) touch(field);
  };

  return (
    <LazyModal opened onClose={props.onClose} title={WORKFLOW_TEXTS.actionDialog} size="xl">
      <Stack gap="md">
        <Input.Wrapper label="Action type" labelElement="div" error={shown('type', problems)}>
          <SegmentedControl
            mt={4}
            fullWidth
            aria-label="Action type"
            data={[
              { value: 'message', label: 'Send Message' },
              { value: 'form', label: 'Send Form' },
            ]}
            value={d.type ?? ''}
            onChange={(v) => set({ type: v as ActionDraft['type'] }, 'type')}
            onBlur={() => touch('type')}
          />
        </Input.Wrapper>
        {d.type === null ? (
          <Text fz="sm" c="dimmed">
            Choose what this step sends.
          </Text>
        ) : null}

        {d.type === 'message' ? (
          <>
            <TextInput
              label="Message title"
              placeholder="e.g. Welcome aboard"
              description="Names this step in the workflow's details"
              value={d.msgTitle}
              onChange={(e) => set({ msgTitle: e.currentTarget.value })}
              onBlur={() => touch('msgTitle')}
              error={shown('msgTitle', problems)}
            />
            <Box onBlur={() => touch('message')}>
              <Input.Label mb={4}>Message</Input.Label>
              <RichEditor
                label="Message"
                initialHtml={d.message.html}
                mentions={mentions}
                onChange={(message) => set({ message })}
                error={shown('message', problems)}
              />
            </Box>
            <ImagePicker files={d.files} onChange={(files) => set({ files })} />
          </>
        ) : null}

        {d.type === 'form' ? (
          <>
            <TextInput
              label="Form title"
              placeholder="e.g. First week check-in"
              value={d.formTitle}
              maxLength={FORM_LIMITS.name}
              description={`${d.formTitle.length}/${FORM_LIMITS.name}`}
              onChange={(e) => set({ formTitle: e.currentTarget.value })}
              onBlur={() => touch('formTitle')}
              error={shown('formTitle', problems)}
            />
            <FormQuestionsEditor value={d.form} onChange={(form) => set({ form })} show={false} />
          </>
        ) : null}

        <Divider label="Recipients" labelPosition="left" />
        <Box onBlur={() => touch('recipients')}>
          <Stack gap="sm">
            <Checkbox
              label="All workspace members"
              checked={d.sendToWorkspace}
              onChange={(e) => set({ sendToWorkspace: e.currentTarget.checked }, 'recipients')}
            />
            {!time ? (
              <Checkbox
                label="Users in criteria"
                description="The member the trigger fired for"
                checked={d.sendToSelectedUsers}
                onChange={(e) => set({ sendToSelectedUsers: e.currentTarget.checked }, 'recipients')}
              />
            ) : null}
            {time ? (
              <>
                <MultiSelect
                  label="The trigger's tags"
                  placeholder={props.triggerTags.length ? 'Choose tags' : 'The trigger has no tags'}
                  data={props.triggerTags.map((t) => ({ value: String(t.id), label: t.name }))}
                  value={d.triggerTags.map(String)}
                  onChange={(v) => set({ triggerTags: v.map(Number) }, 'recipients')}
                  disabled={props.triggerTags.length === 0}
                />
                <MultiSelect
                  label="The trigger's segments"
                  placeholder={
                    props.triggerSegments.length ? 'Choose segments' : 'The trigger has no segments'
                  }
                  data={props.triggerSegments.map((t) => ({ value: String(t.id), label: t.name }))}
                  value={d.triggerSegments.map(String)}
                  onChange={(v) => set({ triggerSegments: v.map(Number) }, 'recipients')}
                  disabled={props.triggerSegments.length === 0}
                />
              </>
            ) : null}
            <TargetPickers
              pickers={['channels']}
              value={{ members: [], tags: [], channels: d.channels }}
              onChange={(t) => set({ channels: t.channels }, 'recipients')}
              labels={{ channels: d.type === 'form' ? 'Send Form On Channel' : 'Send Message On Channel' }}
            />
            <TargetPickers
              pickers={['members', 'tags']}
              value={d.dm}
              onChange={(dm) => set({ dm }, 'recipients')}
            />
            <TargetPickers
              pickers={['channels']}
              value={{ members: [], tags: [], channels: d.dm.channels }}
              onChange={(t) => set({ dm: { ...d.dm, channels: t.channels } }, 'recipients')}
              labels={{ channels: "Send Direct Message to channels' members" }}
            />
            {shown('recipients', problems) ? (
              <Input.Error role="alert">{problems.recipients}</Input.Error>
            ) : null}
          </Stack>
        </Box>
      </Stack>
      <DialogFooter
        valid={!hasProblems(problems)}
        onCancel={props.onClose}
        onSubmit={() => props.onSubmit(d)}
      />
    </LazyModal>
  );
}
