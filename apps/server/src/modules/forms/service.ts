import { nextRun, parseLocalDateTime, parseTime } from '@flywheel/shared/clock';
import {
  DEFAULT_ACK_MESSAGE,
  FORM_TEXTS,
  type createFormBody,
  type executeFormBody,
  type FormInstance,
  type FormRow,
} from '@flywheel/shared/forms';
import type { z } from 'zod';
import { AppError, notFound } from '../../lib/errors.ts';
import type { InstanceAudience } from './table.ts';
import { formsCore, recurrence, type FormsDeps } from './core.ts';
import { formHistory } from './history.ts';
import { formListeners } from './listeners.ts';
import { formRunner } from './runner.ts';

export type { FormsDeps } from './core.ts';
export type { BlockActionsPayload, ViewSubmissionPayload } from './listeners.ts';

type CreateBody = z.output<typeof createFormBody>;
type ExecuteBody = z.output<typeof executeFormBody>;

/**
 * Forms: created with their questions, targets and schedule; each send (instant, scheduled, recurring or from
 * the Send-form popup) is an instance sent through the delivery engine as a message with a button; the button
 * opens the modal; a submission is checked, stored per instance and acknowledged by a DM, also through delivery.
 */
export const formsService = (deps: FormsDeps) => {
  const core = formsCore(deps);
  const { repo, now, toRow } = core;
  const runner = formRunner(core);
  const { sendNow } = runner;

  async function rowOf(teamId: string, id: number): Promise<FormRow> {
    const [row] = (await repo.listForms(teamId)).filter((f) => f.id === id);
    if (!row) throw notFound('No such form in this workspace');
    return toRow(row, await deps.timezoneOf(teamId));
  }

  /** Whom an audience reaches now; a 400 naming the problem when it is nobody (or names unknown entries). */
  async function checkAudience(teamId: string, a: InstanceAudience, empty: string) {
    const r = await deps.audience.resolve(teamId, a);
    if (r.members.length + r.channels.length === 0) throw new AppError('VALIDATION_ERROR', 400, empty);
  }

  return {
    async create(userId: string | null, b: CreateBody): Promise<FormRow> {
      const tz = await deps.timezoneOf(b.team_id);
      const t = now();
      let runAt: number | null = null;
      if (b.recurring) {
        if (!parseTime(b.time!)) throw new AppError('VALIDATION_ERROR', 400, FORM_TEXTS.invalidDateTime);
      } else if (!b.instant) {
        runAt = parseLocalDateTime(b.post_at!.date!, b.post_at!.time!, tz);
        if (runAt === null) throw new AppError('VALIDATION_ERROR', 400, FORM_TEXTS.invalidDateTime);
        if (runAt <= t) throw new AppError('VALIDATION_ERROR', 400, FORM_TEXTS.pastTime);
      }
      const audience: InstanceAudience = {
        channel_ids: b.channel_ids,
        dms: b.dms,
        sendtoworkspace: b.sendtoworkspace,
      };
      // Unknown members, tags or channels are a 400 now; an instant form must reach someone now; the whole
      // workspace or many recipients must be confirmed with their count.
      if (b.instant && !b.recurring) await checkAudience(b.team_id, audience, FORM_TEXTS.createTarget);
      else await deps.audience.resolve(b.team_id, { ...audience, sendtoworkspace: false });
      await deps.delivery.confirmAudience(b.team_id, audience, b.confirm_recipients ?? null);
      const fields = {
        frequency: b.recurring ? b.frequency! : ('onetime' as const),
        days: b.recurring && b.frequency === 'Weekly' ? [...new Set(b.days)] : [],
        time: b.recurring ? b.time! : null,
        run_at: runAt === null ? null : new Date(runAt).toISOString(),
      };
      const rec = recurrence(fields);
      const next = rec ? nextRun(rec, t, tz) : null;
      const id = await repo.insertForm({
        team_id: b.team_id,
        name: b.form_title,
        description: b.form_description,
        sender: b.sender,
        admin_user: b.sender === 'admin' ? (b.admin_user ?? null) : null,
        questions: b.questions,
        ack_message: b.ackMessage?.trim() || DEFAULT_ACK_MESSAGE,
        channel_ids: b.channel_ids,
        dm_members: b.dms.members,
        dm_tags: b.dms.tags,
        dm_channels: b.dms.channels,
        send_to_workspace: b.sendtoworkspace,
        ...fields,
        next_run_at: next === null ? null : new Date(next).toISOString(),
        created_by: userId,
      });
      if (b.instant && !b.recurring) await sendNow(b.team_id, id, audience);
      return rowOf(b.team_id, id);
    },

    async list(teamId: string, search?: string): Promise<FormRow[]> {
      const tz = await deps.timezoneOf(teamId);
      return (await repo.listForms(teamId, search?.trim() || undefined)).map((f) => toRow(f, tz));
    },

    /** Deletes a form: gone from the table, and no later recurrence is planned or sent. */
    async remove(teamId: string, id: number): Promise<void> {
      if (!(await repo.deleteForm(teamId, id))) throw notFound('No such form in this workspace');
    },

    /** The Send-form popup: a new instance of the form to these members, channels (posted in) and tags. */
    async execute(b: ExecuteBody): Promise<FormInstance> {
      const form = await repo.findForm(b.team_id, b.master_form_id);
      if (!form) throw notFound('No such form in this workspace');
      const audience: InstanceAudience = {
        channel_ids: b.send_ids.channels,
        dms: { members: b.send_ids.members, tags: b.send_ids.tags, channels: [] },
        sendtoworkspace: false,
      };
      await checkAudience(b.team_id, audience, FORM_TEXTS.sendTarget);
      await deps.delivery.confirmAudience(b.team_id, audience, b.confirm_recipients ?? null);
      return sendNow(b.team_id, form.id, audience);
    },

    ...formHistory(core),
    ...runner.due,
    ...formListeners(core),
  };
};
export type FormsService = ReturnType<typeof formsService>;
