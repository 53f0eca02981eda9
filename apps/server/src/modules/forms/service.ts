import {
  nextRun,
  parseLocalDateTime,
  parseTime,
  recurrenceOf,
  wallClock,
  type DayCode,
} from '@flywheel/shared/clock';
import {
  DEFAULT_ACK_MESSAGE,
  FORM_CSV_EMPTY,
  FORM_TEXTS,
  type createFormBody,
  type executeFormBody,
  type FormInstance,
  type FormResponses,
  type FormRow,
} from '@flywheel/shared/forms';
import { CSV_BOM, csvLine } from '@flywheel/shared/csv';
import type { z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { Tx } from '../../db/sql.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { planDue } from '../../lib/plan-due.ts';
import type { Logger } from '../../lib/logger.ts';
import type { Emit } from '../webhooks/service.ts';
import type { SlackApi } from '../../slack/client.ts';
import type { AudienceService } from '../audience/service.ts';
import type { DeliveryService } from '../delivery/service.ts';
import type { WorkspacesService } from '../workspaces/service.ts';
import {
  closedModal,
  formMessage,
  formModal,
  instanceOfModal,
  mrkdwnEscape,
  readAnswers,
  type StateValues,
} from './modal.ts';
import { formsRepo, type FormRecord, type InstanceRecord } from './repo.ts';
import type { InstanceAudience } from './table.ts';

type CreateBody = z.output<typeof createFormBody>;
type ExecuteBody = z.output<typeof executeFormBody>;

/** An instance whose send failed (Slack or the database down) is tried again after this. */
const RETRY_MS = 30_000;
const DAY_NUMBERS: Record<string, number> = { mon: 1, tue: 2, wed: 3, thurs: 4, fri: 5, sat: 6, sun: 0 };
const pad = (n: number) => String(n).padStart(2, '0');

const recurrence = (f: Pick<FormRecord, 'frequency' | 'time' | 'days' | 'run_at'>) =>
  recurrenceOf({ ...f, at: f.run_at ? Date.parse(f.run_at) : null });

const audienceOf = (f: FormRecord): InstanceAudience => ({
  channel_ids: f.channel_ids,
  dms: { members: f.dm_members, tags: f.dm_tags, channels: f.dm_channels },
  sendtoworkspace: f.send_to_workspace,
});

/** 'YYYY-MM-DD HH:MM' in the workspace's timezone: the instance's label (and its page's URL segment). */
function labelOf(at: number, tz: string): string {
  const w = wallClock(at, tz);
  return `${w.year}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}`;
}

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

/**
 * Forms: created with their questions, targets and schedule; each send (instant, scheduled, recurring or from
 * the Send-form popup) is an instance sent through the delivery engine as a message with a button; the button
 * opens the modal; a submission is checked, stored per instance and acknowledged by a DM, also through delivery.
 */
export const formsService = (deps: {
  db: Db;
  audience: AudienceService;
  delivery: DeliveryService;
  workspaces: WorkspacesService;
  slack: SlackApi;
  /** Inside a transaction, pass it as `tx` (db/tx-guard.ts). */
  timezoneOf: (teamId: string, tx?: Tx) => Promise<string>;
  /** A recurrence sent later than this is recorded as skipped (the product was down). */
  graceMs: number;
  /** How long a worker holds the instances it claimed (default 2 minutes). */
  claimMs?: number;
  logger: Logger;
  now?: () => number;
  /** Outbound webhooks (webhooks/service.ts `emit`): only queues, never throws. */
  emit?: Emit;
}) => {
  const repo = formsRepo(deps.db);
  const now = () => deps.now?.() ?? Date.now();
  const claimMs = deps.claimMs ?? 120_000;

  function toRow(f: FormRecord & { instances: number; responses: number }, tz: string): FormRow {
    const recurring = f.frequency !== 'onetime';
    const [h, m] = (f.time ?? '00:00').split(':').map(Number) as [number, number];
    let schedule = 'One time';
    if (f.frequency === 'Everyday') schedule = `Every Day at ${f.time}`;
    else if (f.frequency === 'Weekly') schedule = `Weekly (${f.days.join(', ')}) at ${f.time}`;
    else if (f.run_at) schedule = `One time, ${labelOf(Date.parse(f.run_at), tz)}`;
    return {
      master_form_id: f.id,
      form_title: f.name,
      form_description: f.description,
      sender: f.sender === 'bot' ? 'b' : 'a',
      sender_label: f.sender === 'bot' ? 'Bot' : 'Admin',
      admin_user: f.admin_user,
      recurring,
      schedule,
      frequency: f.frequency,
      days: f.days as DayCode[],
      time: f.time,
      cron_string: !recurring
        ? null
        : `${m} ${h} * * ${f.frequency === 'Everyday' ? '*' : f.days.map((d) => DAY_NUMBERS[d]).join(',')}`,
      next_run: f.next_run_at ? new Date(f.next_run_at).toISOString() : null,
      user_ids: f.dm_members,
      channel_ids: f.channel_ids,
      tag_ids: f.dm_tags,
      sendtoworkspace: f.send_to_workspace,
      questions: f.questions,
      ackMessage: f.ack_message,
      instances: f.instances,
      responses: f.responses,
      created_at: new Date(f.created_at).toISOString(),
    };
  }

  function toInstance(i: InstanceRecord, tz: string): FormInstance {
    const at = Date.parse(i.execution_time);
    return {
      form_id: i.id,
      master_form_id: i.form_id,
      execution_time: new Date(at).toISOString(),
      label: labelOf(at, tz),
      responses: i.responses,
      status: i.status,
      recipients: i.recipients,
      receipt_id: i.receipt_id,
    };
  }

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

  /**
   * Sends one instance through the delivery engine (one receipt, named by the instance: asking twice makes
   * one). A form deleted meanwhile is skipped; an audience that reaches nobody is recorded as failed.
   */
  async function sendInstance(
    i: InstanceRecord,
    origin: 'person' | 'automation' = 'automation',
  ): Promise<{ outcome: 'sent' | 'skipped' | 'failed'; error?: AppError }> {
    const f = await repo.findForm(i.team_id, i.form_id);
    if (!f) {
      await repo.finishInstance(i.id, {
        status: 'skipped',
        receiptId: null,
        recipients: 0,
        error: 'form deleted',
      });
      return { outcome: 'skipped' };
    }
    const message = formMessage(f, i.id);
    try {
      const receipt = await deps.delivery.send({
        teamId: f.team_id,
        userId: null,
        actionType: 'Form',
        sender: f.sender,
        adminUser: f.admin_user,
        text: message.text,
        blocks: message.blocks,
        images: [],
        description: `Form: ${f.name}`,
        audience: i.audience,
        idempotencyKey: `form-instance:${i.id}`,
        deferWake: true,
        origin,
      });
      await repo.finishInstance(i.id, {
        status: 'sent',
        receiptId: receipt.receipt_id,
        recipients: receipt.total,
        error: null,
      });
      return { outcome: 'sent' };
    } catch (err) {
      if (!(err instanceof AppError) || err.statusCode >= 500) throw err;
      // Cannot be sent as set up (nobody left to reach, the admin gone, over the daily budget): recorded, not
      // retried.
      deps.logger.warn({ instance: i.id, err: err.message }, 'form instance not sent');
      await repo.finishInstance(i.id, {
        status: 'failed',
        receiptId: null,
        recipients: 0,
        error: err.message,
      });
      return { outcome: 'failed', error: err };
    }
  }

  /** Sends an instance this request holds, now; the API answers with what went wrong. */
  async function sendNow(teamId: string, formId: number, audience: InstanceAudience): Promise<FormInstance> {
    const at = new Date(now());
    const id = await repo.insertHeldInstance({
      formId,
      teamId,
      key: `send:${at.toISOString()}:${crypto.randomUUID()}`,
      at,
      audience,
      leaseMs: claimMs,
    });
    const inst = (await repo.findInstance(teamId, id))!;
    const { outcome, error } = await sendInstance(inst, 'person');
    await deps.delivery.wake(teamId);
    const after = (await repo.findInstance(teamId, id))!;
    if (error?.code === 'SEND_BUDGET_EXCEEDED') throw error;
    if (outcome !== 'sent')
      throw new AppError('VALIDATION_ERROR', 400, 'The form could not be sent: nobody to send to');
    return toInstance(after, await deps.timezoneOf(teamId));
  }

  /** One member's page of the data: the instance of this form in this workspace, or a 404. */
  async function instanceOf(teamId: string, formId: number, instanceId: number) {
    const inst = await repo.findInstance(teamId, instanceId);
    if (!inst || inst.form_id !== formId || inst.form_deleted)
      throw notFound('No such form instance in this workspace');
    const form = await repo.findForm(teamId, formId);
    if (!form) throw notFound('No such form instance in this workspace');
    return { inst, form };
  }

  async function responsesOf(teamId: string, formId: number, instanceId: number): Promise<FormResponses> {
    const { inst, form } = await instanceOf(teamId, formId, instanceId);
    const rows = await repo.responses(teamId, instanceId);
    return {
      form_title: form.name,
      instance: toInstance(inst, await deps.timezoneOf(teamId)),
      questions: form.questions.map((q) => q.question),
      question_details: form.questions,
      rows: rows.map((r) => ({ ...r, submitted_at: new Date(r.submitted_at).toISOString() })),
    };
  }

  /** Whether a member may answer an instance (see `submit`). */
  async function mayAnswer(inst: InstanceRecord, memberId: string): Promise<boolean> {
    if (!(await repo.isPerson(inst.team_id, memberId))) return false;
    if (inst.receipt_id !== null) return repo.reached(inst.team_id, inst.receipt_id, memberId);
    // Sent a moment ago and its receipt not recorded on the instance yet: whom its audience reaches.
    const reach = await deps.audience.resolve(inst.team_id, inst.audience).catch(() => null);
    return reach !== null && (reach.channels.length > 0 || reach.members.includes(memberId));
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

    async instances(teamId: string, formId: number): Promise<FormInstance[]> {
      if (!(await repo.findForm(teamId, formId))) throw notFound('No such form in this workspace');
      const tz = await deps.timezoneOf(teamId);
      return (await repo.listInstances(teamId, formId)).map((i) => toInstance(i, tz));
    },

    responses: responsesOf,

    /** 'Form details' CSV: Name, Email, Submitted At and one column per question; 'Details of no data' when empty. */
    async *csv(teamId: string, formId: number, instanceId: number): AsyncGenerator<string> {
      const data = await responsesOf(teamId, formId, instanceId);
      let out = `${CSV_BOM}${csvLine(['Name', 'Email', 'Submitted At', ...data.questions])}`;
      if (data.rows.length === 0) out += csvLine([FORM_CSV_EMPTY]);
      // A number answer is a bare number (a negative one is no formula); checkboxes are joined in `answer`.
      const cell = (a: { answer: string }, i: number) =>
        data.question_details[i]?.type === 'number' && a.answer !== '' ? Number(a.answer) : a.answer;
      for (const r of data.rows) out += csvLine([r.name, r.email, r.submitted_at, ...r.answers.map(cell)]);
      yield out;
    },

    /**
     * Turns due recurrences and scheduled sends into instances, one transaction per batch that locks the forms
     * (another worker skips them), keyed by run time (asking twice makes one). A run more than `graceMs` late is
     * recorded as skipped; the next run is computed from now, so an outage never sends a burst.
     */
    async planDueForms(): Promise<number> {
      return planDue<FormRecord & { late_ms: number }>({
        db: deps.db,
        kind: 'form',
        now,
        graceMs: deps.graceMs,
        timezoneOf: deps.timezoneOf,
        logger: deps.logger,
        lock: (tx, limit, at) => repo.lockDueForms(tx, limit, at),
        recurrence,
        write: async (tx, runs) => {
          await repo.addInstances(
            tx,
            runs.map((r) => ({
              formId: r.row.id,
              teamId: r.row.team_id,
              key: r.at,
              at: r.at,
              audience: audienceOf(r.row),
              status: r.status,
            })),
          );
          await repo.advanceMany(
            tx,
            runs.map((r) => ({ id: r.row.id, next: r.next, ranAt: r.at })),
          );
        },
      });
    },

    /** Claims due instances and sends them, `parallel` at a time; answers how many it claimed. */
    async sendDueInstances(limit = 50, parallel = 4): Promise<number> {
      const due = await repo.claimDueInstances(limit, new Date(now()), claimMs);
      let next = 0;
      const teams = new Set<string>();
      const lane = async () => {
        while (next < due.length) {
          const inst = due[next++]!;
          try {
            if ((await sendInstance(inst)).outcome === 'sent') teams.add(inst.team_id);
          } catch (err) {
            deps.logger.error({ err, instance: inst.id }, 'form send failed; retried when its claim lapses');
            await repo.releaseInstance(inst.id, new Date(now() + RETRY_MS)).catch(() => undefined);
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(parallel, due.length) }, lane));
      for (const teamId of teams) await deps.delivery.wake(teamId);
      return due.length;
    },

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
      const saved = await repo.saveResponse({
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
          await repo.setAckReceipt(saved.id, receipt.receipt_id);
        } catch (err) {
          // The answers are kept; the acknowledgement is what failed (a disconnected workspace, a gone admin).
          deps.logger.warn({ err, response: saved.id }, 'form acknowledgement not sent');
        }
      }
      return undefined;
    },
  };
};
export type FormsService = ReturnType<typeof formsService>;
