import type { FormInstance } from '@flywheel/shared/forms';
import { AppError } from '../../lib/errors.ts';
import { planDue } from '../../lib/plan-due.ts';
import { formMessage } from './modal.ts';
import type { FormRecord, InstanceRecord } from './repo.ts';
import type { InstanceAudience } from './table.ts';
import { audienceOf, recurrence, RETRY_MS, type FormsCore } from './core.ts';

/** The forms' due work (the forms.tick job, jobs.ts) and the sending of one instance through delivery. */
export const formRunner = ({ deps, repo, runnerRepo, now, claimMs, toInstance }: FormsCore) => {
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
      await runnerRepo.finishInstance(i.id, {
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
      await runnerRepo.finishInstance(i.id, {
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
      await runnerRepo.finishInstance(i.id, {
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
    const id = await runnerRepo.insertHeldInstance({
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

  return {
    sendNow,
    /** What the tick runs: plan the due runs, then send the due instances. */
    due: {
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
          lock: (tx, limit, at) => runnerRepo.lockDueForms(tx, limit, at),
          recurrence,
          write: async (tx, runs) => {
            await runnerRepo.addInstances(
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
            await runnerRepo.advanceMany(
              tx,
              runs.map((r) => ({ id: r.row.id, next: r.next, ranAt: r.at })),
            );
          },
        });
      },

      /** Claims due instances and sends them, `parallel` at a time; answers how many it claimed. */
      async sendDueInstances(limit = 50, parallel = 4): Promise<number> {
        const due = await runnerRepo.claimDueInstances(limit, new Date(now()), claimMs);
        let next = 0;
        const teams = new Set<string>();
        const lane = async () => {
          while (next < due.length) {
            const inst = due[next++]!;
            try {
              if ((await sendInstance(inst)).outcome === 'sent') teams.add(inst.team_id);
            } catch (err) {
              deps.logger.error(
                { err, instance: inst.id },
                'form send failed; retried when its claim lapses',
              );
              await runnerRepo.releaseInstance(inst.id, new Date(now() + RETRY_MS)).catch(() => undefined);
            }
          }
        };
        await Promise.all(Array.from({ length: Math.min(parallel, due.length) }, lane));
        for (const teamId of teams) await deps.delivery.wake(teamId);
        return due.length;
      },
    },
  };
};
