import { useState } from 'react';
import { Select, Stack } from '@mantine/core';
import type { ActionRow } from '@flywheel/shared/actions';
import { SenderPicker } from '../../../components/SenderPicker.tsx';
import { Wizard } from '../../../components/Wizard.tsx';
import { useCreateAutomation } from './create-automation.ts';
import {
  messageFieldsOf,
  composeProblems,
  EMPTY_COMPOSE,
  EMPTY_TRIGGER_START,
  MEMBER_JOIN,
  triggerStartProblem,
  type ComposeDraft,
  type ComposeProblems,
} from '../action-messages/draft.ts';
import { useRecipientsConfirmation } from '../../../components/confirm-recipients.tsx';
import { useUploadFlow } from '../../../entities/messages/index.ts';
import { ComposeStep } from '../action-messages/ComposeStep.tsx';

const NO_PROBLEMS: ComposeProblems = { target: null, message: null };

/**
 * '+ Create Trigger': step 1 Choose Trigger (Member Join) and Choose Sender, step 2 'Compose
 * Message', then 'create Trigger': images uploaded, the trigger created, its row added and both steps closed.
 */
export function CreateTriggerWizard(props: {
  opened: boolean;
  onClose(): void;
  onCreated?(row: ActionRow): void;
}) {
  const [start, setStart] = useState(EMPTY_TRIGGER_START);
  const [draft, setDraft] = useState<ComposeDraft>(EMPTY_COMPOSE);
  const [problems, setProblems] = useState<ComposeProblems>(NO_PROBLEMS);
  const flow = useUploadFlow();
  const create = useCreateAutomation();
  const { withConfirmation, confirmation } = useRecipientsConfirmation();

  const edit = (next: ComposeDraft) => {
    setDraft(next);
    setProblems((p) => ({
      target: p.target && composeProblems('automation', next).target,
      message: p.message && next.message !== draft.message ? null : p.message,
    }));
  };

  const submit = async () => {
    const found = composeProblems('automation', draft);
    setProblems(found);
    if (found.target || found.message || flow.busy) return;
    const done = await flow.run(draft.files, async (images) => {
      // The whole workspace (or many members) is confirmed with its count first.
      const res = await withConfirmation((confirm) =>
        create.mutateAsync({
          team_id: flow.teamId,
          trigger_name: start.trigger ?? MEMBER_JOIN,
          ...messageFieldsOf(start.sender, draft, images),
          send_dm: draft.sendDm,
          confirm_recipients: confirm,
        }),
      );
      props.onCreated?.(res.data);
      return res;
    });
    if (done) props.onClose();
  };

  return (
    <>
      {confirmation}
      <Wizard
        opened={props.opened}
        onClose={props.onClose}
        submitLabel="create Trigger"
        onSubmit={submit}
        pending={flow.busy}
        size="xl"
        steps={[
          {
            title: 'Create Trigger',
            error: triggerStartProblem(start),
            content: (
              <Stack gap="md">
                <Select
                  label="Choose Trigger"
                  placeholder="Choose a trigger"
                  data={[MEMBER_JOIN]}
                  value={start.trigger}
                  onChange={(trigger) => setStart({ ...start, trigger })}
                  description="Runs each time a member joins the workspace"
                  allowDeselect={false}
                />
                <SenderPicker
                  label="Choose Sender"
                  size="md"
                  value={start.sender}
                  onChange={(sender) => setStart((s) => ({ ...s, sender }))}
                />
              </Stack>
            ),
          },
          {
            title: 'Compose Message',
            content: (
              <ComposeStep
                kind="automation"
                sender={start.sender}
                draft={draft}
                onChange={edit}
                problems={problems}
                progress={flow.progress}
                busy={flow.busy}
              />
            ),
          },
        ]}
      />
    </>
  );
}
