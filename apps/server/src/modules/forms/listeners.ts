import { FORM_TEXTS } from '@flywheel/shared/forms';
import {
  closedModal,
  formModal,
  instanceOfModal,
  mrkdwnEscape,
  readAnswers,
  type StateValues,
} from './modal.ts';
import type { InstanceRecord } from './repo.ts';
import type { FormsCore } from './core.ts';

export type BlockActionsPayload = {
  team: { id: string };
  user: { id: string };
  trigger_id: string;
  actions: { action_id: string; value?: string }[];
};
export type ViewSubmissionPayload = {
  team: { id: string } | null;
  user: { id: string; team_id?: string };
  view: { callback_id?: string; private_metadata?: string; state: { values: StateValues } };
};

/** The form message's button and the modal's submission in Slack (the interactivity listeners, module.ts). */
export const formListeners = ({ deps, repo, responsesRepo }: FormsCore) => {
  /** Whether a member may answer an instance (see `submit`). */
  async function mayAnswer(inst: InstanceRecord, memberId: string): Promise<boolean> {
    if (!(await responsesRepo.isPerson(inst.team_id, memberId))) return false;
    if (inst.receipt_id !== null) return responsesRepo.reached(inst.team_id, inst.receipt_id, memberId);
    // Sent a moment ago and its receipt not recorded on the instance yet: whom its audience reaches.
    const reach = await deps.audience.resolve(inst.team_id, inst.audience).catch(() => null);
    return reach !== null && (reach.channels.length > 0 || reach.members.includes(memberId));
  }

  return {
    /**
     * The form message's button: opens the instance's modal with views.open, within Slack's 3 s trigger
     * window (one call, no retries, a 2.5 s timeout). A deleted form opens a notice instead.
     */
    async openModal(p: BlockActionsPayload): Promise<void> {
      const teamId = p.team.id;
      const id = Number(p.actions[0]?.value);
      const inst = Number.isSafeInteger(id) && id > 0 ? await repo.findInstance(teamId, id) : null;
      const form = inst && !inst.form_deleted ? await repo.findForm(teamId, inst.form_id) : null;
      const view = form && inst ? formModal(form, inst.id) : closedModal();
      try {
        const client = deps.slack.sendingClient(await deps.workspaces.botToken(teamId), 2500);
        await client.views.open({ trigger_id: p.trigger_id, view });
      } catch (err) {
        deps.logger.warn({ err, teamId, instance: id }, 'could not open the form modal');
      }
    },

    /**
     * A modal's submission: answers checked against the questions (errors go back to the modal, keyed by
     * block), stored per instance and member (a second submission replaces the first), and the first one
     * acknowledged with a DM through the delivery engine.
     */
    async submit(
      p: ViewSubmissionPayload,
    ): Promise<{ response_action: 'errors'; errors: Record<string, string> } | undefined> {
      const teamId = p.team?.id ?? p.user.team_id ?? '';
      const id = instanceOfModal(p.view.private_metadata);
      const inst = id ? await repo.findInstance(teamId, id) : null;
      const form = inst && !inst.form_deleted ? await repo.findForm(teamId, inst.form_id) : null;
      if (!inst || !form) return { response_action: 'errors', errors: { q0: FORM_TEXTS.closed } };
      // A valid signature says Slack sent it, not that this person may answer: a person of the workspace the
      // form went to, and one it reached (everyone there when it was posted in a channel); bots never.
      if (!(await mayAnswer(inst, p.user.id)))
        return { response_action: 'errors', errors: { q0: FORM_TEXTS.notRecipient } };
      const read = readAnswers(form.questions, p.view.state.values);
      if ('errors' in read) return { response_action: 'errors', errors: read.errors };
      const saved = await responsesRepo.saveResponse({
        instanceId: inst.id,
        teamId,
        memberId: p.user.id,
        answers: read.answers,
      });
      await deps.emit?.(teamId, 'form.response', {
        form_id: form.id,
        form_name: form.name,
        instance_id: inst.id,
        response_id: saved.id,
        member_id: p.user.id,
        answers: read.answers,
        replaced_earlier: !saved.first,
      });
      if (saved.first) {
        try {
          const receipt = await deps.delivery.send({
            teamId,
            userId: null,
            actionType: 'Form',
            sender: form.sender,
            adminUser: form.admin_user,
            text: mrkdwnEscape(form.ack_message),
            images: [],
            description: `Form acknowledgement: ${form.name}`,
            audience: {
              channel_ids: [],
              dms: { members: [p.user.id], tags: [], channels: [] },
              sendtoworkspace: false,
            },
            recipients: { members: [p.user.id], channels: [] },
            idempotencyKey: `form-ack:${saved.id}`,
            origin: 'automation',
          });
          await responsesRepo.setAckReceipt(saved.id, receipt.receipt_id);
        } catch (err) {
          // The answers are kept; the acknowledgement is what failed (a disconnected workspace, a gone admin).
          deps.logger.warn({ err, response: saved.id }, 'form acknowledgement not sent');
        }
      }
      return undefined;
    },
  };
};
