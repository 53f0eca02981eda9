import { z } from 'zod';
import {
  actionId,
  actionResponse,
  actionsListResponse,
  createAutomationBody,
  createScheduledBody,
  updateActionBody,
} from '../actions.ts';
import { idempotencyHeaders } from '../delivery.ts';
import { defineEndpoint, teamIdParam } from '../endpoint.ts';
import { messageResponse } from '../http.ts';

/*
 * Actions (apps/server/src/modules/actions/routes.ts): automations (Member Join) and schedules; the creating
 * calls take an Idempotency-Key.
 */

const tags = ['actions'] as const;
const teamParam = z.object({ teamId: teamIdParam });
const listQuery = z.object({
  search: z.string().max(200, 'search is too long (200 characters at most)').optional(),
});

export const createAutomation = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/actions/createautomation',
  scope: 'act',
  tags,
  summary: 'Create Trigger (Member Join): DM the new member, members, tags, channels or the workspace',
  headers: idempotencyHeaders,
  body: createAutomationBody,
  response: { 201: actionResponse },
});

export const createScheduled = /* @__PURE__ */ defineEndpoint({
  method: 'POST',
  path: '/actions/createscheduled',
  scope: 'act',
  tags,
  summary:
    "Schedule Message: One Time (post_at DD/MM/YYYY HH:MM, 15 minutes to 30 days ahead), Every Day or Weekly at time HH:MM, in the workspace's timezone",
  headers: idempotencyHeaders,
  body: createScheduledBody,
  response: { 201: actionResponse },
});

export const getAutomations = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/getautomations/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's automations, newest first (search in name and message)",
  params: teamParam,
  query: listQuery,
  response: { 200: actionsListResponse },
});

export const getScheduled = /* @__PURE__ */ defineEndpoint({
  method: 'GET',
  path: '/actions/getscheduled/:teamId',
  scope: 'read',
  tags,
  summary: "The workspace's schedules, newest first (search in name and message)",
  params: teamParam,
  query: listQuery,
  response: { 200: actionsListResponse },
});

export const updateAction = /* @__PURE__ */ defineEndpoint({
  method: 'PATCH',
  path: '/actions/updateactions',
  scope: 'act',
  tags,
  summary: 'Edit trigger: DM members (user_ids), channels and message; bulk-DM rows cannot be edited',
  body: updateActionBody,
  response: { 200: actionResponse },
});

export const deleteAction = /* @__PURE__ */ defineEndpoint({
  method: 'DELETE',
  path: '/actions/deleteaction/:teamId/:id',
  scope: 'act',
  tags,
  summary: 'Deletes an automation or schedule; runs not sent yet are cancelled',
  params: teamParam.extend({ id: actionId }),
  response: { 200: messageResponse },
});
