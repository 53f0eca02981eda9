import { AppError } from '../../lib/errors.ts';
import type { SendRequest } from '../delivery/service.ts';
import { formMessage } from '../forms/modal.ts';
import type { TaskRecord, WorkflowRecord } from './repo.ts';
import type { ClaimedStep } from './runner-repo.ts';
import { DAY_MS, RETRY_MS, type WorkflowsCore } from './core.ts';

/** The workflows' due steps (the workflows.send job, jobs.ts), each sent once through the delivery engine. */
export const workflowRunner = ({
  deps,
  repo,
  runnerRepo,
  formsRunnerRepo,
  now,
  claimMs,
  cooldownMs,
  audienceOf,
  wake,
}: WorkflowsCore) => {
  /** Builds what each claimed step sends; form steps get their instance (held, named by the step) first. */
  async function requestsOf(
    steps: ClaimedStep[],
    workflows: Map<number, WorkflowRecord>,
    tasks: Map<number, TaskRecord[]>,
  ) {
    const at = new Date(now());
    const taskOf = (s: ClaimedStep) => tasks.get(s.workflow_id)?.find((t) => t.position === s.position);
    const formSteps = steps.filter((s) => taskOf(s)?.type === 'form' && taskOf(s)?.form_id);
    const instances = await formsRunnerRepo.holdInstances(
      formSteps.map((s) => ({
        formId: taskOf(s)!.form_id!,
        teamId: s.team_id,
        key: `workflow-step:${s.id}`,
        audience: audienceOf(taskOf(s)!.content, s.member_id),
      })),
      at,
      claimMs,
    );
    return steps.map((s) => {
      const w = workflows.get(s.workflow_id);
      const t = taskOf(s);
      if (!w || !t) return null;
      const task = t.content;
      const base = {
        teamId: s.team_id,
        userId: null,
        actionType: 'Workflow' as const,
        sender: w.sender,
        adminUser: w.admin_user,
        audience: audienceOf(task, s.member_id),
        // A mention token: the receipts list shows the member's name (the stored text keeps the id).
        description: `${w.name}: ${t.title}${s.member_id ? ` (for <@${s.member_id}>)` : ''}`,
        deferWake: true,
        origin: 'automation' as const,
        // However many firings ask (ten members active: ten firings), a step reaches a member once a window.
        ...(cooldownMs > 0
          ? { memberLimit: { scope: `workflow:${w.id}:${s.position}`, windowMs: cooldownMs, at } }
          : {}),
      };
      // A step whose recipients do not depend on the firing's member (the workspace, tags, channels) is one
      // send per window, whichever firing asks first: the others answer its receipt.
      const broadcast = task.sendToWorkspace || !(task.sendToSelectedUsers && s.member_id);
      const window = Math.floor(at.getTime() / (cooldownMs || DAY_MS));
      if (task.type === 'message')
        return {
          instanceId: null,
          req: {
            ...base,
            text: task.text,
            images: task.images,
            idempotencyKey: broadcast
              ? `workflow-broadcast:${w.id}:${s.position}:${window}`
              : `workflow-step:${s.id}`,
          } satisfies SendRequest,
        };
      const instanceId = instances.get(`workflow-step:${s.id}`) ?? null;
      if (instanceId === null) return null;
      const message = formMessage({ name: task.formTitle, description: task.formDescription }, instanceId);
      return {
        instanceId,
        req: {
          ...base,
          text: message.text,
          blocks: message.blocks,
          images: [],
          // The form engine's own key for the instance: whoever sends it, it is one receipt.
          idempotencyKey: `form-instance:${instanceId}`,
        } satisfies SendRequest,
      };
    });
  }

  return {
    countDueSteps: () => runnerRepo.countDueSteps(new Date(now())),

    /**
     * Claims up to `limit` due steps and sends them through the delivery engine as one batch. A step sent and
     * recorded writes its chain's next step; one that cannot be sent as set up (nobody left to reach) is
     * recorded as failed and the chain goes on; one that failed under Slack or the database stays due and is
     * claimed again after a pause. Sent again after a crash, a step's key finds its receipt: sent once.
     */
    async sendDueSteps(limit = 100): Promise<number> {
      // No attempt count here (unlike planTriggers): the claim is one statement that commits at once and the
      // send runs outside any transaction, so a process stuck or killed here holds nothing and its claim lapses.
      const steps = await runnerRepo.claimDueSteps(limit, new Date(now()), claimMs);
      if (steps.length === 0) return 0;
      const ids = steps.map((s) => s.workflow_id);
      const [workflows, tasks] = await Promise.all([repo.findMany(ids), repo.tasksOf(ids)]);
      const built = await requestsOf(steps, workflows, tasks);
      const sendable = steps.flatMap((s, i) => (built[i] ? [{ step: s, ...built[i] }] : []));
      const results = await deps.delivery.sendMany(sendable.map((s) => s.req));
      const finished: Parameters<typeof runnerRepo.finishSteps>[0] = [];
      const instances: Parameters<typeof formsRunnerRepo.finishInstances>[0] = [];
      const retry: number[] = [];
      const sent = new Set<string>();
      for (const [i, { step, instanceId }] of sendable.entries()) {
        const result = results[i]!;
        if (!('error' in result)) {
          finished.push({
            id: step.id,
            status: 'sent',
            receiptId: result.receipt_id,
            formInstanceId: instanceId,
            error: null,
          });
          if (instanceId)
            instances.push({
              id: instanceId,
              status: 'sent',
              receiptId: result.receipt_id,
              recipients: result.total,
              error: null,
            });
          sent.add(step.team_id);
        } else if (result.error instanceof AppError && result.error.statusCode < 500) {
          deps.logger.warn({ step: step.id, err: result.error.message }, 'workflow step not sent');
          finished.push({
            id: step.id,
            status: 'failed',
            receiptId: result.receipt_id ?? null,
            formInstanceId: instanceId,
            error: result.error.message,
          });
          if (instanceId)
            instances.push({
              id: instanceId,
              status: 'failed',
              receiptId: null,
              recipients: 0,
              error: result.error.message,
            });
        } else {
          deps.logger.error({ err: result.error, step: step.id }, 'workflow step send failed; retried later');
          retry.push(step.id);
        }
      }
      await formsRunnerRepo.finishInstances(instances);
      await wake(await runnerRepo.finishSteps(finished, new Date(now())));
      for (const f of finished.filter((x) => x.status === 'failed')) {
        const step = steps.find((s) => s.id === f.id)!;
        await deps.emit?.(
          step.team_id,
          'workflow.step_failed',
          {
            workflow_id: step.workflow_id,
            workflow_name: workflows.get(step.workflow_id)?.name ?? null,
            step_id: step.id,
            error: f.error,
            receipt_id: f.receiptId,
          },
          { dedupeKey: `workflow.step_failed:${step.id}` },
        );
      }
      if (retry.length > 0) await runnerRepo.releaseSteps(retry, new Date(now() + RETRY_MS));
      for (const teamId of sent) await deps.delivery.wake(teamId);
      return steps.length;
    },
  };
};
