import { z } from 'zod';
import { idempotencyHeaders } from '../delivery.ts';
import { defineEndpoint, teamParams } from '../endpoint.ts';
import { messageResponse } from '../http.ts';
import {
  actionHistoryResponse,
  createWorkflowBody,
  pauseWorkflowBody,
  pauseWorkflowResponse,
  triggerHistoryResponse,
  workflowDetailResponse,
  workflowResponse,
  workflowsListResponse,
} from '../workflows.ts';

/*
 * Workflows (apps/server/src/modules/workflows/routes.ts): create (with an Idempotency-Key), list, one,
 * pause/activate, delete, and the trigger's and each task's histories.
 */

const tags = ['workflows'] as const;
/** A workflow or task id in the path: 'workflow_id must be a workflow id'. */
const id = (what: string) =>
  z.coerce
    .number()
    .int()
    .positive(`${what} must be a ${what.replace('_', ' ')}`)
    .max(2_147_483_647);
const workflowParams = teamParams.extend({ workflowId: id('workflow_id') });

export const createWorkflow = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/workflows/createworkflow',
  scope: 'act',
  tags,
  summary:
    'Creates a workflow: a trigger (time, activity, inactivity, workspace_join, channel_join) and up to ten message or form tasks, each with its delay after the previous step',
  headers: idempotencyHeaders,
  body: createWorkflowBody,
  response: { 201: workflowResponse },
});

export const getWorkflows = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/workflows/getworkflows/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's workflows, newest first, with their tasks and counts",
  params: teamParams,
  response: { 200: workflowsListResponse },
});

export const getWorkflow = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/workflows/getworkflow/:teamId/:workflowId',
  scope: 'read',
  tags,
  summary: 'One workflow with the full content of each task',
  params: workflowParams,
  response: { 200: workflowDetailResponse },
});

export const pauseWorkflow = /* @__PURE__ */ defineEndpoint({
  method: 'PATCH',
  path: '/workflows/pauseworkflow',
  scope: 'act',
  tags,
  summary:
    'Activates (status true) or stops (status false) a workflow; without status it toggles. Stopped: no firing, pending steps wait; activated again: they continue. A time trigger cannot be stopped.',
  body: pauseWorkflowBody,
  response: { 200: pauseWorkflowResponse },
});

export const deleteWorkflow = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/workflows/:teamId/:workflowId',
  scope: 'act',
  tags,
  summary: 'Deletes a workflow: its pending steps are cancelled; what was sent keeps its receipts',
  params: workflowParams,
  response: { 200: messageResponse },
});

export const getTriggerHistory = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/workflows/gettriggerinfo/:teamId/:workflowId',
  scope: 'read',
  tags,
  summary: "The trigger's history: when it fired and for whom, newest first",
  params: workflowParams,
  response: { 200: triggerHistoryResponse },
});

export const getActionHistory = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/workflows/getuserdetail/:teamId/:workflowId/:taskId',
  scope: 'read',
  tags,
  summary: "One task's history: each step sent (to whom, when, its receipt and form instance) or pending",
  params: workflowParams.extend({ taskId: id('task_id') }),
  response: { 200: actionHistoryResponse },
});
